"""Every report stays valid for its format whatever an engine sends (issue 13, point 3).

The garish engines (tests/harness/fake_inprocess/garish.py, in process and over the protocol)
put ANSI escapes, NUL, other C0 and C1 controls, a CR, a lone surrogate and a bidirectional
override into their names, messages, traces, skip reasons and stderr. The run's JUnit XML must
parse (xml.etree), its HTML must parse without a single control character in it
(html.parser), its Markdown and the terminal must hold none, the JSON report must stay JSON,
and ``castrules report`` must re-render it all just as safely.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest

from castrules.harness.textsafe import safe_text
from tests.conftest import good_case
from tests.harness.test_cli import HERE, castrules

KINDS = ["passes", "fails", "errored", "skipped", "raises"]
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e]")
ENGINES = {
    "in process": "garish:Engine",
    "protocol": shlex.join([sys.executable, str(HERE / "fake_engines" / "garish.py")]),
}


@pytest.fixture
def garish_suite(suite_builder):
    for kind in KINDS:
        suite_builder.case(f"cases/casting/{kind}.yaml", good_case(f"casting/fixture/{kind}"))
    return suite_builder


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.tags += 1
        self.text.extend(v or "" for _, v in attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def assert_clean(label: str, text: str) -> None:
    found = CONTROL.findall(text.replace("\r\n", "\n"))
    assert not found, f"{label} holds control characters {sorted(set(found))!r}"


def check_reports(folder: Path, protocol: bool) -> None:
    junit = ElementTree.parse(folder / "r.xml").getroot()          # parses: no character XML forbids
    cases = {c.get("name"): c for c in junit.iter("testcase")}
    assert set(cases) == {f"casting/fixture/{k}" for k in KINDS}
    failure = cases["casting/fixture/fails"].find("failure")
    assert failure is not None and "legal: expected True, observed False" in failure.text
    error = cases["casting/fixture/errored"].find("error")
    assert error is not None and "\\x1b[31mred" in error.text and "nul\\x00" in error.text
    assert "\\ud800" in error.text and "\\x85" in error.text       # shown, not lost
    raised = cases["casting/fixture/raises"].find("error")
    assert raised is not None and ("\\x1b[1;31mboom" in raised.text if protocol else "raised \\x1b[31mred" in raised.text)
    assert "\\x1b[31mred" in junit.find("testsuite").get("name")

    raw_html = (folder / "r.html").read_text(encoding="utf-8")
    assert_clean("HTML", raw_html)
    parser = _Collect()
    parser.feed(raw_html)
    parser.close()
    shown = "".join(parser.text)
    assert parser.tags > 10 and "message \\x1b[31mred" in shown and "trace \\x1b[31mred" in shown
    assert_clean("HTML text", shown)          # character references cannot smuggle them in either

    markdown = (folder / "r.md").read_text(encoding="utf-8")
    assert_clean("Markdown", markdown)
    assert "garish \\x1b[31mred" in markdown and "casting/fixture/errored" in markdown

    lines = [json.loads(line) for line in (folder / "r.jsonl").read_text(encoding="utf-8").splitlines()]
    errored = next(line for line in lines if line.get("id") == "casting/fixture/errored")
    assert "\x1b[31mred" in errored["message"]       # the JSON report keeps the engine's exact words


@pytest.mark.parametrize("route", sorted(ENGINES))
def test_reports_stay_valid_whatever_the_engine_sends(garish_suite, tmp_path, route):
    outputs = ["--junit", str(tmp_path / "r.xml"), "--html", str(tmp_path / "r.html"),
               "--markdown", str(tmp_path / "r.md"), "--report", str(tmp_path / "r.jsonl")]
    done = castrules(garish_suite, "run", "--engine", ENGINES[route], "--max-restarts", "3", *outputs)
    assert done.returncode == 1, done.stderr
    for label, text in (("stdout", done.stdout), ("stderr", done.stderr)):
        assert_clean(label, text)
    assert "message \\x1b[31mred" in done.stdout and "ERROR: casting/fixture/errored" in done.stdout
    quiet = castrules(garish_suite, "run", "--engine", ENGINES[route], "-q")
    assert_clean("-q output", quiet.stdout + quiet.stderr)
    assert "casting/fixture/errored" in quiet.stdout
    check_reports(tmp_path, protocol=route == "protocol")

    again = tmp_path / "again"
    again.mkdir()
    (tmp_path / "r.jsonl").rename(again / "r.jsonl")
    rendered = castrules(garish_suite, "report", str(again / "r.jsonl"), "--junit", str(again / "r.xml"),
                         "--html", str(again / "r.html"), "--markdown", str(again / "r.md"))
    assert rendered.returncode in (0, 1), rendered.stderr
    check_reports(again, protocol=route == "protocol")


def test_safe_text_escapes_controls_and_keeps_lines():
    assert safe_text("a\x1b[31mb\x00c\x85d\ud800e\r\nf\tg\rh") == "a\\x1b[31mb\\x00c\\x85d\\ud800e\nf\tg\\x0dh"
    assert safe_text("plain — text\nnext") == "plain — text\nnext"
    assert safe_text(safe_text("\x1b")) == "\\x1b"                        # idempotent
