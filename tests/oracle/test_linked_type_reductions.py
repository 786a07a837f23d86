"""601.2f: reductions whose card type comes from the source's own choice (Cloud Key,
setup.choices card_type) or from the card it imprinted (Semblance Anvil, 607.2)."""
import pytest

from oracle_helpers import run

AB = {"A": {}, "B": {}}


def _total(source: dict, choice: dict | None, spell: str, extra: list | None = None) -> str:
    objects = [source, *(extra or []),
               {"id": "w1", "card": "Wastes", "zone": "battlefield", "controller": "A"},
               {"id": "w2", "card": "Wastes", "zone": "battlefield", "controller": "A"},
               {"id": "spell", "card": spell, "zone": "hand", "owner": "A"}]
    setup = {"players": AB, "objects": objects}
    if choice is not None:
        setup["choices"] = {source["id"]: choice}
    r = run(setup, [{"cast": {"player": "A", "object": "spell"}}])
    assert r["steps"][0]["legal"]
    return r["steps"][0]["total_cost"]


KEY = {"id": "key", "card": "Cloud Key", "zone": "battlefield", "controller": "A"}
ANVIL = {"id": "anvil", "card": "Semblance Anvil", "zone": "battlefield", "controller": "A"}


@pytest.mark.parametrize("choice, total", [({"card_type": "Artifact"}, "{1}"), ({"card_type": "Creature"}, "{1}"),
                                           ({"card_type": "Sorcery"}, "{2}"), (None, "{2}")])
def test_cloud_key_reads_the_chosen_card_type(choice, total):
    """Pili-Pala is an artifact and a creature: either choice reduces it, another does not, and a
    Key with nothing chosen reduces no spell."""
    assert _total(KEY, choice, "Pili-Pala") == total


@pytest.mark.parametrize("zone, total", [("exile", "{0}"), ("graveyard", "{2}")])
def test_semblance_anvil_needs_its_card_in_exile(zone, total):
    """Imprinting an artifact (Sol Ring) reduces Mind Stone by {2}; once the imprinted card has
    left exile (here it is set up in the graveyard) it is no longer the exiled card."""
    ring = {"id": "ring", "card": "Sol Ring", "zone": zone, "owner": "A"}
    assert _total(ANVIL, {"imprinted": "ring"}, "Mind Stone", [ring]) == total


def test_semblance_anvil_with_nothing_imprinted():
    assert _total(ANVIL, None, "Mind Stone") == "{2}"
