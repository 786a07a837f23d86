"""608.2g free casts from a library, another player's included (Knowledge Exploitation): the
effect reaches the library of the player it names, and only cards of the kind it says."""
import pytest

from castrules.model.effects import CastFree, TargetPlayer, You, read_effect
from castrules.model.errors import ModelError
from oracle_helpers import obj, run

ABC = {"A": {}, "B": {}, "C": {}}
ISLANDS = [{"id": f"i{n}", "card": "Island", "zone": "battlefield", "controller": "A"} for n in range(1, 8)]
TAP_ALL = [{"object": f"i{n}"} for n in range(1, 8)]

# a library cast with no `owner`: its controller's own library (for the default only)
OWN_LIBRARY = {"name": "Unit Own Library Caster", "real": False, "mana_cost": "{U}", "type_line": "Sorcery",
               "text": "t", "spell": [{"cast_free": {"from": "library"}}]}


def _exploit(card_owner: str, card: str = "Lingering Souls", target: str = "B", cast: dict | None = None):
    objects = [*ISLANDS, {"id": "ke", "card": "Knowledge Exploitation", "zone": "hand", "owner": "A"},
               {"id": "found", "card": card, "zone": "library", "owner": card_owner}]
    steps = [{"cast": {"player": "A", "object": "ke", "targets": [target], "mana_abilities": TAP_ALL}},
             {"resolve": {"choices": {"cast": cast or {"object": "found", "mana_abilities": []}}}}]
    return run({"players": ABC, "objects": objects}, steps)


def test_the_model_reads_whose_library():
    e = read_effect({"cast_free": {"from": "library", "owner": "target:0"}})
    assert isinstance(e, CastFree) and e.from_ == "library" and e.whose == TargetPlayer(0)
    assert read_effect({"cast_free": {"from": "library"}}).whose == You()
    with pytest.raises(ModelError):         # the card schema refuses it first; the model too
        read_effect({"cast_free": {"from": "library", "owner": "the_table"}}).whose


def test_the_targeted_opponents_sorcery_is_cast_under_the_casters_control():
    r = _exploit("B")
    assert r["steps"][1]["legal"]
    assert {k: obj(r, 2, "found")[k] for k in ("zone", "controller", "owner")} == {
        "zone": "stack", "controller": "A", "owner": "B"}


def test_another_opponents_library_is_out_of_reach():
    r = _exploit("C")       # B is the target; C is an opponent too, but not the one searched
    assert r["steps"][1] == {**r["steps"][1], "legal": False, "reason": "invalid_action"}
    assert obj(r, 2, "found")["zone"] == "library"


def test_an_instant_qualifies_and_a_land_does_not():
    assert _exploit("B", card="Lightning Bolt", cast={"object": "found", "targets": ["B"]})["steps"][1]["legal"]
    assert not _exploit("B", card="Island")["steps"][1]["legal"]


def test_without_owner_the_library_is_the_controllers_own():
    objects = [{"id": "i1", "card": "Island", "zone": "battlefield", "controller": "A"},
               {"id": "spell", "card": OWN_LIBRARY["name"], "zone": "hand", "owner": "A"},
               {"id": "mine", "card": "Lingering Souls", "zone": "library", "owner": "A"},
               {"id": "theirs", "card": "Lingering Souls", "zone": "library", "owner": "B"}]

    def resolve(card):
        steps = [{"cast": {"player": "A", "object": "spell", "mana_abilities": [{"object": "i1"}]}},
                 {"resolve": {"choices": {"cast": {"object": card}}}}]
        return run({"players": ABC, "objects": objects}, steps, extra_cards=[OWN_LIBRARY])["steps"][1]["legal"]

    assert resolve("mine") and not resolve("theirs")
