"""The one loader of every file castrules reads: cases, catalog, vocabularies, expectations,
bundles and reports. Bounded and strict, so that no file can crash, hang or exhaust the run.

What any file must be (else a DocumentError naming the file, the line or JSON pointer and
what was expected, quoting at most a short excerpt, never the file's contents):

- a regular file (no FIFO, device or directory), at most ``Limits.max_bytes`` long, UTF-8;
- for the suite's files, inside the suite root once symlinks are resolved;
- JSON data only (see ``plain_data``): no sets, binaries, unknown tags or merge keys, no
  duplicate or non-string keys, integers within ±2**53, finite floats, nesting and YAML alias
  expansion bounded. A plain YAML scalar that looks like a date stays a string.

YAML goes through ``strict_yaml`` (PyYAML's C event parser, data built here with the limits).
For the suite's own files, yaml-rs (a Rust parser that only ever builds plain data) is tried
first because it is about six times faster; it is used only on text without tags, anchors,
aliases or document markers, and with shallow indentation (it crashes on nesting some
thousands deep), and its output is checked by ``plain_data.problem``; any file it rejects or
whose output breaks a limit is read again by the reference reader, whose error (with its
line) is the one reported. Lines of JSON pointers are looked up lazily, only for a problem.
"""

from __future__ import annotations

import functools
import json
import os
import re
import stat
from pathlib import Path
from typing import Any, Iterator

import yaml

from castrules.harness.excerpts import shorten
from castrules.harness.plain_data import DEFAULT, LARGE, Limits, excerpt, problem, strict_json
from castrules.harness.strict_yaml import YamlRefused, load_yaml

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

try:  # optional fast path for the suite's own files; see the module docstring
    import yaml_rs
except ImportError:  # pragma: no cover - exercised where the wheel is unavailable
    yaml_rs = None

__all__ = ["DEFAULT", "LARGE", "Limits", "DocumentError", "load_document", "parse_document", "parse_text", "read_text",
           "json_lines", "line_of", "dump_yaml", "excerpt"]

# Text the fast parser may see: no tag (!), anchor (&), alias (*), document marker, and block
# indentation (spaces, "- ", "? ") under 64 columns, which bounds its nesting well below a crash.
# A line's start is the text's or a newline's: the newline as the pattern's first character lets
# the regex engine skip to each newline (one pattern with ``^`` and MULTILINE tried every
# position, ~8% of loading the suite).
_NOT_FAST_LINE = r"(?:---|\.\.\.|[ \t?-]{64})"
_NOT_FAST_AT_START, _NOT_FAST_AFTER_NEWLINE = re.compile(_NOT_FAST_LINE), re.compile("\n" + _NOT_FAST_LINE)


def _fast_parser_may_read(text: str) -> bool:
    return not ("!" in text or "&" in text or "*" in text or _NOT_FAST_AT_START.match(text)
                or _NOT_FAST_AFTER_NEWLINE.search(text))
_FAST_ALIASES = None if yaml_rs is None else yaml_rs.AliasLimits(max_total_replayed_events=DEFAULT.max_alias_nodes)


class DocumentError(Exception):
    """A file that cannot be read as bounded JSON data; ``line`` 1-based, ``pointer`` RFC 6901."""

    def __init__(self, path: Path, line: int | None, message: str, pointer: str = ""):
        super().__init__(message)
        self.path = path
        self.line = line
        self.message = message
        self.pointer = pointer

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line is not None else str(self.path)
        return f"{where}: at {shorten(self.pointer) or '/'}: {self.message}"   # keys quoted short


def read_text(path: Path, limits: Limits = DEFAULT, root: Path | None = None) -> str:
    """A file's text, refusing what is not a small regular UTF-8 file (inside ``root`` if given)."""
    try:
        real = os.path.realpath(path, strict=True)   # strings, not Paths: this runs for every file read
    except (OSError, RuntimeError) as exc:
        raise DocumentError(path, None, f"cannot read file: {getattr(exc, 'strerror', None) or exc}") from exc
    if root is not None and not _inside(real, root):
        raise DocumentError(path, None, "refused: the file leads outside the suite (a symlink out of it?); "
                                        "only files inside the suite are read")
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise DocumentError(path, None, f"cannot read file: {exc.strerror}") from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise DocumentError(path, None, "not a regular file (a FIFO, device or directory); only regular files are read")
    with os.fdopen(fd, "rb") as handle:
        if info.st_size > limits.max_bytes:
            raise DocumentError(path, None, f"the file has {info.st_size} bytes; at most {limits.max_bytes} are read")
        data = handle.read(limits.max_bytes + 1)
    if len(data) > limits.max_bytes:
        raise DocumentError(path, None, f"the file has more than {limits.max_bytes} bytes; at most that many are read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DocumentError(path, line, f"not UTF-8 text (byte {exc.start})") from exc


def _inside(real: str, root: Path) -> bool:
    """Whether a resolved path lies inside ``root`` (itself resolved, once per process)."""
    top = _real_folder(str(root))
    return real.startswith(top)


@functools.lru_cache(maxsize=16)
def _real_folder(folder: str) -> str:
    return os.path.realpath(folder).rstrip(os.sep) + os.sep


def load_document(path: Path, fast: bool = False, limits: Limits = DEFAULT, root: Path | None = None) -> Any:
    """Parse a ``.yaml``/``.yml``/``.json`` file into bounded JSON data, or raise DocumentError.

    ``fast`` allows the fast YAML parser (for the suite's own, tested files); ``root`` refuses
    a file that resolves outside it."""
    return parse_document(read_text(path, limits, root), path, fast, limits)


def parse_document(text: str, path: Path, fast: bool = False, limits: Limits = DEFAULT) -> Any:
    """``load_document`` for a file's text already read (``read_text``)."""
    if fast and yaml_rs is not None and path.suffix != ".json" and _fast_parser_may_read(text):
        try:
            data = yaml_rs.loads(text, parse_datetime=False, alias_limits=_FAST_ALIASES,
                                 duplicate_key_policy=yaml_rs.DuplicateKeyPolicy.Error)
        except Exception:  # noqa: BLE001 - any refusal: the reference parser decides and explains
            pass
        else:
            if problem(data, limits) is None:
                return data
    return parse_text(text, path, limits)


def parse_text(text: str, path: Path, limits: Limits = DEFAULT) -> Any:
    """The reference reader for text already in memory (JSON by suffix, else YAML)."""
    if path.suffix == ".json":
        return _parse_json(text, path, limits)
    try:
        return load_yaml(text, limits)
    except YamlRefused as exc:
        raise DocumentError(path, exc.line, exc.message, exc.pointer) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        found = getattr(exc, "problem", None) or str(exc)
        raise DocumentError(path, line, f"invalid YAML: {found}") from exc


def _parse_json(text: str, path: Path, limits: Limits, line: int | None = None) -> Any:
    try:
        data = strict_json(text, limits)
    except json.JSONDecodeError as exc:
        raise DocumentError(path, line or exc.lineno, f"invalid JSON: {exc.msg}") from exc
    except RecursionError as exc:
        raise DocumentError(path, line, f"nested more than {limits.max_depth} levels deep") from exc
    found = problem(data, limits)
    if found is not None:
        raise DocumentError(path, line, found[1], found[0])
    return data


def json_lines(path: Path, limits: Limits = LARGE, max_line: int = 4 << 20) -> Iterator[tuple[int, Any]]:
    """(line number, data or DocumentError) for each non-blank line of a JSON-lines file.

    A bad line is yielded as its error, so one damaged line does not hide the others; a file
    that cannot be read at all raises DocumentError."""
    text = read_text(path, limits)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if len(line) > max_line:
            yield number, DocumentError(path, number, f"a line of {len(line)} characters; at most {max_line}")
            continue
        try:
            yield number, _parse_json(line, path, limits, number)
        except DocumentError as exc:
            yield number, exc


def dump_yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def line_of(path: Path, pointer: str, root: Path | None = None) -> int | None:
    """1-based line of the node a JSON pointer names (its nearest existing ancestor)."""
    try:
        node = yaml.compose(read_text(path, DEFAULT, root), Loader=_SafeLoader)
    except (DocumentError, yaml.YAMLError, RecursionError):
        return None
    if node is None:
        return None
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
    for part in parts:
        child = _child(node, part)
        if child is None:
            break
        node = child
    return node.start_mark.line + 1


def _child(node: yaml.Node, part: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == part:
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and part.isdigit():
        index = int(part)
        return node.value[index] if index < len(node.value) else None
    return None

