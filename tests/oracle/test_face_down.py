"""406.3, 406.3a and 601.3f: cards exiled face down, who may begin to cast them, and their face
once they leave exile."""
import pytest

from castrules.oracle.errors import RequestError
from oracle_helpers import run

AB = {"A": {}, "B": {}}


def _gonti(caster="A", may_look=("A",), steps=None):
    objects = [{"id": "gonti", "card": "Gonti, Lord of Luxury", "zone": "battlefield", "controller": "A"},
               {"id": "bears", "card": "Grizzly Bears", "zone": "exile", "owner": "B", "face_down": True,
                "may_look": list(may_look)},
               {"id": "s1", "card": "Swamp", "zone": "battlefield", "controller": "A"},
               {"id": "s2", "card": "Swamp", "zone": "battlefield", "controller": "A"}]
    cast = {"cast": {"player": caster, "object": "bears", "from": "exile", "permission": "gonti",
                     "mana_abilities": [{"object": "s1"}, {"object": "s2"}]}}
    return run({"players": AB, "objects": objects, "choices": {"gonti": {"exiled": "bears"}}},
               steps if steps is not None else [cast])


def test_the_player_who_may_look_casts_it_with_its_own_cost():
    r = _gonti()
    assert r["steps"][0]["legal"] and r["steps"][0]["total_cost"] == "{1}{G}"


def test_without_leave_to_look_gontis_own_controller_may_not_begin_to_cast_it():
    r = _gonti(may_look=())
    assert r["steps"][0] == {"legal": False, "reason": "no_permission", "substep": "601.2a"}


def test_face_down_only_in_exile_and_may_look_only_for_players():
    with pytest.raises(RequestError):
        run({"players": AB, "objects": [{"id": "b", "card": "Grizzly Bears", "zone": "graveyard", "face_down": True}]},
            [])
    with pytest.raises(RequestError):
        run({"players": AB, "objects": [{"id": "b", "card": "Grizzly Bears", "zone": "exile", "face_down": True,
                                         "may_look": ["Z"]}]}, [])
