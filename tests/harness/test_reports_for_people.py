"""Reports for people: the HTML page (verdict first, run details, filters), merging the shards
of a CI matrix (`castrules report A.jsonl B.jsonl`) and comparing two runs (`--compare`)."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from xml.etree import ElementTree

import pytest

from castrules.harness import report_html
from castrules.harness.report_jsonl import ReportWriter, header, read_report
from castrules.harness.results import Mismatch, Result, Status
from castrules.harness.run_details import RunDetails, selection_of
from tests.conftest import castrules, good_case

HERE = Path(__file__).resolve().parent
ENGINE = "fake_inprocess_engine:Engine"   # right about ids ending in "bears", wrong otherwise


@pytest.fixture
def shard_suite(suite_builder):
    b = suite_builder
    for name in ("bears", "other-bears", "wrong", "also-wrong"):
        b.case(f"cases/casting/{name}.yaml", good_case(f"casting/fixture/{name}"))
    b.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    return b




class Page(HTMLParser):
    """The parts of a page the tests look at: text in order, element ids, external references."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text: list[str] = []
        self.ids: list[str] = []
        self.external: list[str] = []
        self._skip = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self._skip = tag in ("style", "script")
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        for key in ("src", "href"):
            if attrs.get(key) and not attrs[key].startswith("#"):
                self.external.append(attrs[key])

    def handle_endtag(self, tag):
        self._skip = False

    def handle_data(self, data):
        if data.strip() and not self._skip:
            self.text.append(data.strip())


def test_html_opens_with_the_verdict_the_unexpected_results_and_the_run_details(shard_suite, tmp_path):
    page_file = tmp_path / "r.html"
    done = castrules(shard_suite, "run", "--engine", ENGINE, "-k", "casting", "--shard", "1/2", "--html", str(page_file))
    assert done.returncode == 1
    page = Page(page_file.read_text())
    text = " | ".join(page.text)
    assert page.text[1].startswith("castrules compliance: fake-inprocess 1")
    assert page.text[2] == "1 unexpected result(s): the run is red"
    # the unexpected results and the run's details come before the tables
    assert text.index("Unexpected results (1)") < text.index("Run") < text.index("By feature")
    assert "casting/fixture/also-wrong | after step 1: total_cost: expected {1}{G}, observed {5}" in text
    for label, value in (("engine", "fake-inprocess 1"), ("suite", "0.1.0"), ("selection", "-k casting (3 cases)"),
                         ("shard", "1/2"), ("ended", "completed")):
        assert f"{label} | {value}" in text
    assert "started | 20" in text and " s | selection" in text   # a date and a duration in seconds
    assert page.external == [] and "filters" in page.ids


NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="Node.js ('node') is not on PATH: the page's filter script cannot be run here")
def test_the_page_filters_cases_by_status_feature_and_rule(tmp_path):
    """Runs the page's inline script under Node with a tiny stand-in for the DOM."""
    results = [Result("a/pass", Status.PASS, "a.yaml", ("601.2a",), ("casting",)),
               Result("b/fail", Status.FAIL, "b.yaml", ("702.76a",), ("casting", "prowl")),
               Result("c/unsupported", Status.UNSUPPORTED, "c.yaml", ("702.160a",), ("prototype",))]
    page = report_html.render(results, "e", "1", {})
    rows = [dict(status=r.status.value, features=" ".join(r.features), rules=" ".join(r.rules)) for r in results]
    script = page.split("<script>")[1].split("</script>")[0]
    harness = tmp_path / "filter.js"
    harness.write_text("""
const rows = %s.map(d => ({tagName: 'TR', dataset: d, hidden: false}));
const handlers = {}; const form = {elements: {status: {value: ''}, feature: {value: ''}, rule: {value: ''}},
  addEventListener: (kind, f) => { handlers[kind] = f; }};
const shown = {textContent: ''};
global.document = {getElementById: id => id === 'filters' ? form : shown, querySelectorAll: () => rows};
%s
const out = [];
for (const [s, f, r] of [['', '', ''], ['fail', '', ''], ['', 'casting', ''], ['', '', '702.76'], ['', 'prowl', '601']]) {
  form.elements.status.value = s; form.elements.feature.value = f; form.elements.rule.value = r; handlers.change();
  out.push([rows.filter(x => !x.hidden).map(x => x.dataset.status), shown.textContent]);
}
console.log(JSON.stringify(out));
""" % (json.dumps(rows), script))
    done = subprocess.run([NODE, str(harness)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [[["pass", "fail", "unsupported"], "3 of 3 cases shown"],
                                       [["fail"], "1 of 3 cases shown"],
                                       [["pass", "fail"], "2 of 3 cases shown"],
                                       [["fail"], "1 of 3 cases shown"],
                                       [[], "0 of 3 cases shown"]]


def test_report_merges_the_shards_of_a_matrix(shard_suite, tmp_path):
    whole = castrules(shard_suite, "run", "--engine", ENGINE, "-q")
    for k in (1, 2):
        castrules(shard_suite, "run", "--engine", ENGINE, "-q", "--shard", f"{k}/2", "--report", str(tmp_path / f"s{k}.jsonl"))
    merged = castrules(shard_suite, "report", str(tmp_path / "s1.jsonl"), str(tmp_path / "s2.jsonl"),
                       "--jsonl", str(tmp_path / "m.jsonl"), "--junit", str(tmp_path / "m.xml"), "--html", str(tmp_path / "m.html"))
    assert merged.returncode == 1, merged.stderr
    assert merged.stdout.strip() == "fake-inprocess 1: 5 of 5 cases (merged from 2 reports): 2 pass, 2 fail, 1 unsupported"
    assert whole.stdout.splitlines()[-1].startswith("fake-inprocess 1: 5 cases: 2 pass, 2 fail, 1 unsupported")
    report = read_report(tmp_path / "m.jsonl")
    assert report.problems == [] and report.header["cases"] == 5 and report.footer["totals"]["fail"] == 2
    assert report.header["selection"] == {"shards": ["1/2", "2/2"]}
    assert sorted(c["id"] for c in report.cases) == sorted(f"casting/fixture/{n}" for n in
                                                           ("bears", "other-bears", "wrong", "also-wrong")) + ["prowl/fixture/needs-prowl"]
    assert len(list(ElementTree.parse(tmp_path / "m.xml").getroot().iter("testcase"))) == 5
    assert "shard | 1/2, 2/2" in " | ".join(Page((tmp_path / "m.html").read_text()).text)


def test_report_refuses_to_merge_what_would_mislead(shard_suite, tmp_path):
    castrules(shard_suite, "run", "--engine", ENGINE, "-q", "--shard", "1/2", "--report", str(tmp_path / "s1.jsonl"))
    castrules(shard_suite, "run", "-q", "--shard", "2/2", "--report", str(tmp_path / "oracle.jsonl"))
    twice = castrules(shard_suite, "report", str(tmp_path / "s1.jsonl"), str(tmp_path / "s1.jsonl"))
    assert twice.returncode == 2 and "is also in" in twice.stderr and "same shard given twice" in twice.stderr
    engines = castrules(shard_suite, "report", str(tmp_path / "s1.jsonl"), str(tmp_path / "oracle.jsonl"))
    assert engines.returncode == 2 and "engine castrules-oracle" in engines.stderr and "only shards of one run" in engines.stderr
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join((tmp_path / "s1.jsonl").read_text().splitlines()[:-1]) + "\n")
    truncated = castrules(shard_suite, "report", str(tmp_path / "s1.jsonl"), str(cut))
    assert truncated.returncode == 2 and "truncated" in truncated.stderr
    for k in (1, 2):
        castrules(shard_suite, "run", "--engine", ENGINE, "-q", "--shard", f"{k}/3", "--report", str(tmp_path / f"t{k}.jsonl"))
    lost = castrules(shard_suite, "report", str(tmp_path / "t1.jsonl"), str(tmp_path / "t2.jsonl"))
    assert lost.returncode == 2 and "shard(s) 3/3 missing" in lost.stderr
    missing = castrules(shard_suite, "report", str(tmp_path / "nosuch.jsonl"))
    assert missing.returncode == 2 and "no such report" in missing.stderr


def _saved(path: Path, version: str, outcomes: dict[str, Status], known: tuple[str, ...] = ()) -> Path:
    engine = SimpleNamespace(name="my-engine", version=version, features={"casting"})
    writer = ReportWriter(path, header(engine, len(outcomes), selection=selection_of()))
    for case_id, status in outcomes.items():
        mismatches = (Mismatch("after step 1", "legal", True, False),) if status is Status.FAIL else ()
        result = Result(case_id, status, f"cases/{case_id}.yaml", ("601.2a",), ("casting",), mismatches)
        if case_id in known and status is Status.FAIL:
            result = Result(case_id, Status.KNOWN_FAILURE, result.file, result.rules, result.features, mismatches,
                            raw_status=Status.FAIL)
        writer.add(result)
    writer.close()
    return path


def test_compare_lists_regressions_and_fixes_in_every_format(shard_suite, tmp_path):
    old = _saved(tmp_path / "old.jsonl", "1.0", {"c/steady": Status.PASS, "c/broke": Status.PASS, "c/fixed": Status.FAIL,
                                                 "c/known": Status.FAIL, "c/gone": Status.PASS, "c/new-feature": Status.UNSUPPORTED},
                 known=("c/fixed", "c/known"))
    new = _saved(tmp_path / "new.jsonl", "1.1", {"c/steady": Status.PASS, "c/broke": Status.FAIL, "c/fixed": Status.PASS,
                                                 "c/known": Status.FAIL, "c/new-feature": Status.PASS, "c/added": Status.FAIL},
                 known=("c/known",))
    done = castrules(shard_suite, "report", "--compare", str(old), str(new), "--markdown", str(tmp_path / "c.md"),
                     "--html", str(tmp_path / "c.html"), "--json", str(tmp_path / "c.json"))
    assert done.returncode == 1, done.stderr   # a regression
    assert done.stdout.splitlines() == [
        "Regressions (passed before, fail now): 1",
        "  c/broke  pass -> fail: after step 1: legal: expected True, observed False",
        "Fixes (failed before, pass now): 1", "  c/fixed  fail -> pass",
        "Newly run (unsupported or skipped before): 1", "  c/new-feature  unsupported -> pass",
        "Only in the new run: 1", "  c/added  - -> fail",
        "Only in the old run: 1", "  c/gone  pass -> -",
        "my-engine 1.0 (suite 0.1.0) -> my-engine 1.1 (suite 0.1.0): regression: 1, fix: 1, newly run: 1, added: 1, "
        "removed: 1; 2 unchanged"]
    data = json.loads((tmp_path / "c.json").read_text())
    assert data["regressions"] == 1 and data["fixes"] == 1 and data["unchanged"] == 2
    assert [m["id"] for m in data["changes"]["regression"]] == ["c/broke"]
    assert [m["id"] for m in data["changes"]["fix"]] == ["c/fixed"]
    assert (data["old"]["version"], data["new"]["version"]) == ("1.0", "1.1")
    markdown = (tmp_path / "c.md").read_text()
    assert "**❌ regressions**" in markdown and "| `c/broke` | pass -> fail |" in markdown and "| `c/fixed` | fail -> pass |" in markdown
    page = Page((tmp_path / "c.html").read_text())
    assert {"regression", "fix"} <= set(page.ids) and "c/broke" in page.text and page.external == []
    green = castrules(shard_suite, "report", "--compare", str(new), str(new))
    assert green.returncode == 0 and green.stdout.strip().endswith("no changes; 6 unchanged")


def test_run_details_come_from_the_header_and_footer():
    head = {"engine": {"name": "e", "version": "2"}, "suite_version": "0.1.0", "started": "2026-01-02T03:04:05Z", "cases": 7,
            "selection": selection_of("prowl", ["casting"], [], ["prowl/*"], "2/3")}
    details = RunDetails.from_report(head, {"duration": 12.34, "ended": "maxfail"})
    assert dict(details.rows()) == {"engine": "e 2", "suite": "0.1.0", "started": "2026-01-02T03:04:05Z", "duration": "12.3 s",
                                    "selection": "-k prowl --features-include casting --id prowl/* (7 cases)", "shard": "2/3",
                                    "ended": "maxfail"}
    assert dict(RunDetails.from_report({}, None).rows())["ended"] == "cut off"
