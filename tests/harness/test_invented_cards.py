"""The feature invented_cards: validate ties it to the cards a case uses (both ways, with file and
pointer), an engine that knows only printed cards is never sent an invented card, and plan says
how many cases such an engine can run."""

from __future__ import annotations

import json

from castrules.harness.adapter_kit import format_plan, plan
from castrules.harness.checks import check_case
from castrules.harness.engine import load_engine
from castrules.harness.invented import FEATURE, invented_uses
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()


def _copy(case) -> dict:
    return json.loads(json.dumps(case.doc))


def _problems(doc: dict, code: str) -> list:
    return [p for p in check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary) if p.code == code]


def test_a_case_using_an_invented_card_must_list_the_feature():
    case = next(c for c in SUITE.cases if FEATURE in c.features)
    doc = _copy(case)
    doc["features"].remove(FEATURE)
    found = _problems(doc, "unlisted_feature")
    pointer, name = invented_uses(doc, SUITE.catalog)[0]
    assert [(p.file, p.pointer) for p in found] == [("cases/x.yaml", pointer)]
    assert name in found[0].message and FEATURE in found[0].message
    assert SUITE.catalog.files[name] in found[0].message      # where the card is declared invented


def test_a_melded_partner_counts_as_a_use():
    case = next(c for c in SUITE.cases if FEATURE not in c.features and c.doc["setup"].get("objects"))
    invented = next(n for n, card in SUITE.catalog.cards.items() if card.get("real") is False)
    doc = _copy(case)
    doc["setup"]["objects"][0]["melded_with"] = invented
    assert [p.pointer for p in _problems(doc, "unlisted_feature")] == ["/setup/objects/0/melded_with"]


def test_a_case_listing_the_feature_must_use_an_invented_card():
    case = next(c for c in SUITE.cases if FEATURE not in c.features)
    doc = _copy(case)
    doc["features"].append(FEATURE)
    found = _problems(doc, "needless_feature")
    assert [p.pointer for p in found] == [f"/features/{len(doc['features']) - 1}"]


def test_the_suite_lists_the_feature_exactly_where_an_invented_card_is_used():
    for case in SUITE.cases:
        uses = any(SUITE.catalog.cards[n].get("real") is False for n in case.card_names())
        assert uses == (FEATURE in case.features), case.id


class _PrintedOnly:
    """The oracle behind a card database of printed cards: a request carrying an invented card
    is a crash (what a real engine looking the card up by name would do)."""

    def __init__(self) -> None:
        self.oracle = load_engine("oracle")
        self.name, self.version = "printed-only", "0"
        self.features = frozenset(self.oracle.features) - {FEATURE}

    def run(self, request):
        invented = [n for n, card in request["cards"].items() if card.get("real") is False]
        if invented:
            raise KeyError(f"no printed card named {invented[0]!r}")
        return self.oracle.run(request)


def test_an_engine_knowing_only_printed_cards_gets_unsupported_never_a_failure():
    engine = _PrintedOnly()
    statuses = {case.id: run_case(engine, case, SUITE.catalog).status for case in SUITE.cases}
    for case in SUITE.cases:
        wanted = Status.UNSUPPORTED if FEATURE in case.features else Status.PASS
        assert statuses[case.id] is wanted, case.id


def test_plan_counts_the_cases_of_printed_cards_only():
    printed = [c for c in SUITE.cases if FEATURE not in c.features]
    everything = plan(SUITE, SUITE.vocabulary.features)
    assert (everything.printed_only, everything.printed_unlocked) == (len(printed), len(printed))
    assert everything.to_json()["printed_cards_only"] == {"cases": len(printed), "unlocked": len(printed)}
    assert f"printed cards only: {len(printed)} of {len(SUITE.cases)} cases" in format_plan(everything)
    few = plan(SUITE, {"casting", "timing", FEATURE})
    assert few.printed_unlocked == sum(set(c.features) <= {"casting", "timing"} for c in printed)
