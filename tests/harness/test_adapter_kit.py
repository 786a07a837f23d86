"""The adapter kit: request, plan, new-adapter skeletons, captured prints, reason detail, and
validate's check of the observation contract."""

from __future__ import annotations

import io
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from castrules.harness.adapter_kit import plan, render_request, request_for
from castrules.harness.checks import check_case
from castrules.harness.cli import main
from castrules.harness.compare import compare
from castrules.harness.contract import ReasonDetail, load_contract
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.skeletons import STEP_HINTS, STEP_KINDS, SkeletonError, write_skeleton
from castrules.harness.smoke import smoke
from castrules.harness.suite import shared_suite

SUITE = shared_suite()
REPO = Path(__file__).resolve().parents[2]


def test_request_is_exactly_what_the_runner_sends(capsys):
    case = next(c for c in SUITE.cases if c.expectations and c.steps)
    assert main(["request", case.id, "--json"]) == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1
    sent = json.loads(line)
    assert sent == case.request(SUITE.catalog.subset(case.card_names())) == request_for(case, SUITE.catalog)
    assert not {"expect", "why", "title", "rulings"} & set(sent["case"])
    assert json.loads(render_request(sent, compact=False)) == sent


def test_request_of_an_unknown_case_is_a_usage_error(capsys):
    assert main(["request", "no/such/case"]) == 2
    assert "unknown case id" in capsys.readouterr().err


def test_plan_counts_unlocked_cases_and_the_best_missing_features(capsys):
    declared = {"casting", "timing", "targets", "payment", "mana_abilities"}
    result = plan(SUITE, declared)
    assert result.unlocked == sum(set(c.features) <= declared for c in SUITE.cases)
    best = result.single[0]
    assert best.cases == sum(set(c.features) - declared == set(best.features) for c in SUITE.cases)
    assert [g.cases for g in result.single] == sorted((g.cases for g in result.single), reverse=True)
    total = result.unlocked + sum(g.cases for g in result.path)
    assert total == sum(set(c.features) <= declared | set(result.path[-1].features) for c in SUITE.cases)
    assert main(["plan", "--features", ",".join(sorted(declared)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unlocked"] == result.unlocked
    assert main(["plan", "--engine", "oracle"]) == 0
    assert f"unlocks {len(SUITE.cases)} of {len(SUITE.cases)} cases" in capsys.readouterr().out


def test_skeleton_step_kinds_are_the_case_schemas():
    schema = json.loads((REPO / "schema" / "case.schema.json").read_text())
    assert list(STEP_KINDS) == list(schema["$defs"]["step"]["properties"])
    assert list(STEP_HINTS) == list(STEP_KINDS)   # every kind of the model has its hint, nothing else


def test_new_adapter_refuses_a_directory_that_is_not_empty(tmp_path):
    (tmp_path / "keep.txt").write_text("mine")
    with pytest.raises(SkeletonError, match="not empty"):
        write_skeleton("python", tmp_path)
    assert main(["new-adapter", "--lang", "python", str(tmp_path)]) == 2
    assert (tmp_path / "keep.txt").read_text() == "mine"


def _smoke(command: str) -> tuple[int, str]:
    out = io.StringIO()
    return smoke(command, timeout=20, startup_timeout=60, out=out), out.getvalue()


def test_python_skeleton_passes_smoke_and_runs_in_process(tmp_path, monkeypatch):
    assert main(["new-adapter", "--lang", "python", str(tmp_path / "py"), "--name", "demo"]) == 0
    source = (tmp_path / "py" / "castrules_adapter.py").read_text()
    assert all(f"def step_{kind}(" in source for kind in STEP_KINDS)
    status, text = _smoke(f"{shlex.quote(sys.executable)} {tmp_path / 'py' / 'castrules_adapter.py'}")
    assert status == 0, text
    monkeypatch.syspath_prepend(str(tmp_path / "py"))
    from castrules.harness.engine import load_engine
    engine = load_engine("castrules_adapter:Adapter")
    engine.features = frozenset(SUITE.vocabulary.features)
    case = next(c for c in SUITE.cases if c.steps)
    result = run_case(engine, case, SUITE.catalog)
    assert result.status is Status.SKIPPED and "is not implemented yet" in result.message


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js ('node') is not on PATH: the node skeleton cannot run here")
def test_node_skeleton_passes_smoke(tmp_path):
    write_skeleton("node", tmp_path)
    status, text = _smoke(f"node {tmp_path / 'castrules-adapter.js'}")
    assert status == 0, text


@pytest.mark.skipif(shutil.which("javac") is None or shutil.which("java") is None,
                    reason="no JDK ('javac' and 'java') on PATH: the Java skeleton cannot be compiled here")
def test_java_skeleton_compiles_and_passes_smoke(tmp_path):
    write_skeleton("java", tmp_path)
    subprocess.run(["javac", "-d", str(tmp_path / "build"), str(tmp_path / "CastrulesAdapter.java")],
                   check=True, capture_output=True, timeout=120)
    status, text = _smoke(f"java -cp {tmp_path / 'build'} CastrulesAdapter")
    assert status == 0, text


class _Chatty:
    name, version, features = "chatty", "1", frozenset({"casting"})

    def __init__(self, inner):
        self.inner = inner

    def run(self, request):
        print("hello from the engine")
        print("a warning", file=sys.stderr)
        return self.inner.run(request)


def test_in_process_prints_are_captured_per_case(capsys):
    from castrules.harness.engine import load_engine
    oracle = load_engine("oracle")
    engine = _Chatty(oracle)
    engine.features = oracle.features
    case = SUITE.cases[0]
    result = run_case(engine, case, SUITE.catalog)
    assert result.status is Status.PASS
    assert "[stdout]\nhello from the engine" in result.diagnostics and "[stderr]\na warning" in result.diagnostics
    printed = capsys.readouterr()
    assert "hello from the engine" not in printed.out and "a warning" not in printed.err


def test_reasons_are_compared_only_as_finely_as_declared():
    expect = [{"after": 1, "legal": False, "reason": "summoning_sick", "substep": "601.2g"}]
    same_family = {"steps": [{"legal": False, "reason": "already_tapped"}], "snapshots": {}}
    other_family = {"steps": [{"legal": False, "reason": "invalid_target", "substep": "601.2c"}], "snapshots": {}}
    wrong_legal = {"steps": [{"legal": True}], "snapshots": {}}
    assert [m.path for m in compare(expect, 1, same_family)] == ["reason", "substep"]
    assert compare(expect, 1, same_family, ReasonDetail.FAMILY) == []
    assert [m.path for m in compare(expect, 1, other_family, ReasonDetail.FAMILY)] == ["reason family"]
    assert compare(expect, 1, other_family, ReasonDetail.NONE) == []
    assert [m.path for m in compare(expect, 1, wrong_legal, ReasonDetail.NONE)] == ["legal"]


def test_every_reason_has_a_known_family():
    doc = json.loads((REPO / "schema" / "reasons.json").read_text())
    assert {entry["family"] for entry in doc["reasons"].values()} == set(doc["families"])


def test_validate_names_file_pointer_and_feature_of_an_unlisted_observation():
    case = next(c for c in SUITE.cases if c.id == "casting/payment/auto-payment-finds-the-right-lands")
    doc = json.loads(json.dumps(case.doc))
    doc["features"] = [f for f in doc["features"] if f not in ("total_cost", "auto_payment")]
    doc["expect"][0]["objects"] = {"reap": {"mana_value": 2}}
    found = [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == "unlisted_feature"]
    messages = {p.pointer: p.message for p in found}
    assert all(p.file == "cases/x.yaml" for p in found)
    assert "'mana_value'" in messages["/expect/0/objects/reap/mana_value"]
    assert "'total_cost'" in messages["/expect/0/total_cost"]
    assert "'auto_payment'" in messages["/steps/0/cast"]


def test_validate_names_a_cast_choice_or_alternative_cost_whose_feature_is_unlisted():
    """A case asking an engine for a choice (X, a Phyrexian payment, flashback) lists its feature,
    so an engine without it gets the case as unsupported instead of a cast it cannot make."""
    case = next(c for c in SUITE.cases if "flashback" in c.doc["features"] and "x" in c.doc["features"]
                and any("x" in s.get("cast", {}) for s in c.doc["steps"]))
    doc = json.loads(json.dumps(case.doc))
    doc["features"] = [f for f in doc["features"] if f not in ("x", "flashback")]
    n = next(i for i, s in enumerate(doc["steps"]) if "x" in s.get("cast", {}))
    found = {p.pointer: p.message for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
             if p.code == "unlisted_feature"}
    assert "'x'" in found[f"/steps/{n}/cast/x"]
    assert "'flashback'" in found[f"/steps/{n}/cast/alternative_cost"]
    doc["steps"][n]["cast"]["x"] = None            # a choice left out asks nothing
    assert f"/steps/{n}/cast/x" not in {p.pointer for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)
                                        if p.code == "unlisted_feature"}


def test_the_docs_table_is_the_contract():
    text = (REPO / "docs" / "observations.md").read_text()
    contract = load_contract()
    for part in ("step", "player", "object", "snapshot"):
        for key, owner in getattr(contract, part).items():
            owned = owner.feature or (f"reasons: {owner.reasons.value}" if owner.reasons else "core")
            assert f"| `{part}.{key}` | {owned} |" in text, f"docs/observations.md lacks {part}.{key}"
    for kind, fields in contract.inputs.items():
        for key, feature in fields.items():
            assert f"| `{kind}.{key}` | {feature} |" in text, f"docs/observations.md lacks {kind}.{key}"
    for name, feature in contract.alternative_costs.items():
        assert f"| `alternative_cost: {name}` | {feature} |" in text, f"docs/observations.md lacks {name}"
