"""The contract between features and observations keeps its promise to honest engines.

For every feature, the oracle with that feature undeclared and its observations withheld fails
no case: the cases needing it come out unsupported, every other case still passes. An engine
declaring only a few features (casting, timing, targets, payment, mana abilities) gets no failure
either, however coarsely it reports reasons.
"""

from __future__ import annotations

from functools import cache

import pytest

from castrules.harness.contract import ReasonDetail, load_contract
from castrules.harness.engine import load_engine
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.suite import shared_suite
from castrules.harness.withholding import Withholding

SUITE = shared_suite()
CONTRACT = load_contract()
SUBSET = frozenset({"casting", "timing", "targets", "payment", "mana_abilities"})
# an engine with a full game loop (zones, stack, combat, mana abilities, payment) but no cost
# modifiers, X, prowl or prototype, that builds cards from the catalog's data (invented ones too)
GAME_LOOP = SUBSET | {"invented_cards", "auto_payment", "mana_pool", "combat", "zone_change", "resolution", "illegal_rewind",
                      "total_cost", "summoning_sickness", "state_based_actions", "color", "mana_value"}


class _Remembering:
    """The oracle, answering each case once: the withholding engines only edit its replies."""

    def __init__(self) -> None:
        self.oracle = load_engine("oracle")
        self.name, self.version, self.features = self.oracle.name, self.oracle.version, self.oracle.features
        self.replies: dict[str, dict] = {}

    def run(self, request):
        key = request["case"]["id"]
        if key not in self.replies:
            self.replies[key] = self.oracle.run(request)
        return self.replies[key]


@cache
def _oracle() -> _Remembering:
    return _Remembering()


def _bad(engine) -> list[str]:
    out = []
    for case in SUITE.cases:
        result = run_case(engine, case, SUITE.catalog)
        if result.status not in (Status.PASS, Status.UNSUPPORTED):
            out.append(f"{case.id}: {result.status.value}: {result.message} {'; '.join(map(str, result.mismatches))}")
        elif set(case.features) <= engine.features and result.status is not Status.PASS:
            out.append(f"{case.id}: unsupported although every feature is declared")
    return out


WITHHOLDABLE = sorted(CONTRACT.features())


def test_every_feature_is_in_the_vocabulary_and_owned_fields_are_known():
    assert set(WITHHOLDABLE) <= set(SUITE.vocabulary.features)
    assert {"illegal_rewind", "auto_payment", "mana_value", "color", "total_cost", "mana_pool"} <= set(WITHHOLDABLE)
    assert CONTRACT.fields_of("mana_value") == ["object.mana_value"]


@pytest.mark.parametrize("feature", WITHHOLDABLE)
def test_oracle_withholding_a_feature_fails_no_case(feature):
    engine = Withholding(_oracle(), {feature}, contract=CONTRACT)
    assert feature not in engine.features
    assert _bad(engine) == []
    needing = [c for c in SUITE.cases if feature in c.features]
    assert needing, f"no case lists {feature}"
    assert run_case(engine, needing[0], SUITE.catalog).status is Status.UNSUPPORTED


def test_features_without_observations_have_nothing_to_withhold():
    # their withholding engine is the oracle minus a declaration: it can only turn cases unsupported
    quiet = set(SUITE.vocabulary.features) - set(WITHHOLDABLE)
    assert quiet and not any(CONTRACT.fields_of(f) for f in quiet)


@pytest.mark.parametrize("declared, unlocked", [(SUBSET, 3), (GAME_LOOP, 100)], ids=["subset", "game-loop"])
@pytest.mark.parametrize("reasons", list(ReasonDetail))
def test_an_engine_declaring_a_subset_gets_no_failure(reasons, declared, unlocked):
    engine = Withholding(_oracle(), SUITE.vocabulary.features.keys() - declared, reasons=reasons, contract=CONTRACT)
    assert engine.features == declared
    assert _bad(engine) == []
    passed = [c for c in SUITE.cases if set(c.features) <= declared]
    assert len(passed) >= unlocked, "the declared set should unlock real cases"


def test_withholding_really_withholds_and_spoils():
    case = next(c for c in SUITE.cases if "illegal_rewind" in c.features)
    request = case.request(SUITE.catalog.subset(case.card_names()))
    full = _oracle().run(request)
    reply = Withholding(_oracle(), {"illegal_rewind"}, contract=CONTRACT).run(request)
    first = next(n for n, s in enumerate(full["steps"], 1) if not s["legal"])
    assert [s["legal"] for s in reply["steps"][first:]] == [not s["legal"] for s in full["steps"][first:]]
    assert all(snap["objects"] == {} for k, snap in reply["snapshots"].items() if int(k) >= first)
    case = next(c for c in SUITE.cases if any("mana_value" in o for e in c.expectations for o in e.get("objects", {}).values()))
    request = case.request(SUITE.catalog.subset(case.card_names()))
    reply = Withholding(_oracle(), {"mana_value"}, contract=CONTRACT).run(request)
    assert not any("mana_value" in o for s in reply["snapshots"].values() for o in s.get("objects", {}).values())
