"""Text from an engine made safe for each output: the terminal, Markdown, HTML and XML.

An engine's messages, traces, stderr and even its name reach every report, and an engine may
send any bytes: ANSI colour codes, NUL, other C0 and C1 controls, lone surrogates (a JSON
``"\\ud800"``). XML 1.0 cannot hold most of them at all (the JUnit file would not parse), a
terminal obeys them (a stray ``\\x1b[2J`` clears the CI log), and UTF-8 cannot encode a lone
surrogate (writing the file would crash). So each is shown as a visible escape (``\\x1b``,
``\\u0085``, ``\\ud800``): nothing an engine said is lost, and nothing it sent is obeyed.
Line feeds and tabs stay; a CR LF pair becomes a line feed, and any other CR is escaped (it
would overwrite the line in a terminal).
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as ET

# C0 but tab and line feed, DEL, C1, surrogates, the two non-characters XML forbids, and
# the bidirectional overrides that make a terminal or a page show text in another order.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: Any) -> str:
    """``text`` with every control character shown as an escape (line feeds and tabs kept)."""
    text = text if isinstance(text, str) else str(text)
    if not _UNSAFE.search(text):
        return text
    return _UNSAFE.sub(_escape, text.replace("\r\n", "\n"))


def safe_line(text: Any) -> str:
    """One line for a table cell or an attribute: line feeds and tabs become spaces as well."""
    return safe_text(text).replace("\n", " ").replace("\t", " ")


def safe_tree(root: ET.Element) -> ET.Element:
    """Every text, tail and attribute of an XML tree made safe, in place, before it is written."""
    for element in root.iter():
        if element.text:
            element.text = safe_text(element.text)
        if element.tail:
            element.tail = safe_text(element.tail)
        for key, value in element.attrib.items():
            element.attrib[key] = safe_text(value)
    return root


# Inside a JSON string these may stay raw, yet they break readers: a lone surrogate cannot be
# written as UTF-8, and NEL and the Unicode line separators split a JSON-lines file for any
# reader that splits on every line break (str.splitlines).
_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def json_line(data: Any) -> str:
    """One JSON document on one line, readable as UTF-8 by any JSON-lines reader."""
    import json

    text = json.dumps(data, ensure_ascii=False, default=str)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
