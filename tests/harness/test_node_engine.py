"""The Node.js example engine (examples/node-engine/engine.js): a sliver, honestly declared."""

from __future__ import annotations

import io
import shlex
import shutil
from pathlib import Path

import pytest

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.engine import load_engine
from castrules.harness.results import Status
from castrules.harness.runner import run_cases

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "examples" / "node-engine" / "engine.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js ('node') is not on PATH: the example engine "
                                                     "examples/node-engine/engine.js cannot run here")

CARDS = {
    "Test Everything": {"name": "Test Everything", "real": False, "mana_cost": "{X}{2/W}{W/U}{B/P}{C}{3}",
                        "type_line": "Sorcery", "text": "Every kind of symbol."},
    "Goblin Electromancer": {"name": "Goblin Electromancer", "real": True, "mana_cost": "{U}{R}",
                             "type_line": "Creature — Goblin Wizard", "power": "2", "toughness": "2", "text": "A test."},
    "Forest": {"name": "Forest", "real": True, "mana_cost": None, "type_line": "Basic Land — Forest", "text": "A land."},
}


def case(case_id: str, features: list[str], objects: list[dict], expect_objects: dict, steps=()) -> Case:
    doc = {"id": case_id, "title": case_id, "rules": ["202.3"], "features": features, "why": "a test",
           "setup": {"players": {"A": {}, "B": {}}, "objects": objects}, "steps": list(steps),
           "expect": [{"after": 0, "objects": expect_objects}]}
    return Case(case_id, case_id, Path(case_id), case_id, ("202.3",), tuple(features), doc)


@pytest.fixture(scope="module")
def engine():
    engine = load_engine(shlex.join([NODE, str(ENGINE)]), timeout=5)
    yield engine
    engine.close()


def test_it_declares_only_mana_value_and_color(engine):
    assert engine.name == "node-sliver"
    assert engine.features == {"mana_value", "color"}


def test_mana_value_and_colours_pass_the_rest_is_unsupported_or_skipped(engine):
    cases = [
        case("mv/everything", ["mana_value", "color"],
             [{"id": "e", "card": "Test Everything", "zone": "hand", "owner": "A"}],
             {"e": {"mana_value": 8, "colors": ["W", "U", "B"], "mana_cost": "{X}{2/W}{W/U}{B/P}{C}{3}"}}),
        case("mv/two-colours", ["mana_value", "color"],
             [{"id": "g", "card": "Goblin Electromancer", "zone": "battlefield", "controller": "A"},
              {"id": "f", "card": "Forest", "zone": "battlefield", "controller": "A"}],
             {"g": {"mana_value": 2, "colors": ["U", "R"]}, "f": {"mana_value": 0, "colors": [], "mana_cost": None}}),
        case("mv/needs-casting", ["casting", "mana_value"],
             [{"id": "g", "card": "Goblin Electromancer", "zone": "hand", "owner": "A"}], {"g": {"zone": "stack"}},
             steps=[{"cast": {"player": "A", "object": "g"}}]),
        case("mv/with-a-step", ["mana_value"],
             [{"id": "g", "card": "Goblin Electromancer", "zone": "battlefield", "controller": "A"}],
             {"g": {"mana_value": 2}}, steps=[{"destroy": {"object": "g"}}]),
    ]
    results = run_cases(engine, cases, Catalog(CARDS))
    assert [r.status for r in results] == [Status.PASS, Status.PASS, Status.UNSUPPORTED, Status.SKIPPED], \
        [(r.case_id, r.message, r.mismatches) for r in results]
    assert "cannot run steps (step 1 is 'destroy')" in results[3].message


def test_smoke_passes():
    from castrules.harness.smoke import smoke

    out = io.StringIO()
    assert smoke(shlex.join([NODE, str(ENGINE)]), timeout=5, out=out) == 0, out.getvalue()


def test_the_suite_gives_a_partial_compliance_report(engine):
    from castrules.harness.suite import load_suite

    suite = load_suite()
    if not suite.cases:
        pytest.skip("no valid case in the suite yet")
    results = run_cases(engine, suite.cases, suite.catalog)
    by_status = {s: [r for r in results if r.status is s] for s in Status}
    assert not by_status[Status.ERROR] and not by_status[Status.TIMEOUT], \
        [(r.case_id, r.message) for r in by_status[Status.ERROR] + by_status[Status.TIMEOUT]]
    needing_more = [c.id for c in suite.cases if not set(c.features) <= engine.features]
    assert sorted(r.case_id for r in by_status[Status.UNSUPPORTED]) == sorted(needing_more)
    assert by_status[Status.UNSUPPORTED], "every case is supported: not a sliver any more"
