"""Cards set up face down in exile (406.3, 601.3f): validate requires the feature face_down_exile
of a case that has one, and `face_down` / `may_look` only where they mean something (a card in
exile; players of the case), so an engine without face-down exile gets such a case as unsupported."""

from __future__ import annotations

import json

from castrules.harness.checks import FACE_DOWN_EXILE, check_case
from castrules.harness.suite import shared_suite

SUITE = shared_suite()
GONTI = "casting/face-down/gonti-controller-casts-the-face-down-card"


def _doc(case_id: str) -> dict:
    return json.loads(json.dumps(next(c for c in SUITE.cases if c.id == case_id).doc))


def _problems(doc: dict) -> list:
    return check_case("cases/x.yaml", doc, SUITE.catalog, SUITE.vocabulary)


def _bears(doc: dict) -> dict:
    return next(o for o in doc["setup"]["objects"] if o["id"] == "bears")


def test_the_gonti_case_is_valid():
    assert _problems(_doc(GONTI)) == []


def test_a_face_down_card_needs_the_feature():
    doc = _doc(GONTI)
    doc["features"].remove(FACE_DOWN_EXILE)
    found = [p for p in _problems(doc) if p.code == "unlisted_feature"]
    assert [p.pointer for p in found] == ["/setup/objects/1/face_down"] and FACE_DOWN_EXILE in found[0].message


def test_face_down_only_in_exile_and_may_look_only_when_face_down():
    doc = _doc(GONTI)
    _bears(doc)["zone"] = "graveyard"
    assert [(p.pointer, p.code) for p in _problems(doc)] == [("/setup/objects/1/face_down", "bad_state")]
    doc = _doc(GONTI)
    _bears(doc)["face_down"] = False
    assert ("/setup/objects/1/may_look", "bad_state") in [(p.pointer, p.code) for p in _problems(doc)]


def test_may_look_names_players_of_the_case():
    doc = _doc(GONTI)
    _bears(doc)["may_look"] = ["A", "Z"]
    assert [(p.pointer, p.code) for p in _problems(doc)] == [("/setup/objects/1/may_look/1", "unknown_player")]
