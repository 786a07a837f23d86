"""Characteristics are computed once while what they depend on stays (characteristics.chars),
and anew as soon as it changes: a change of a permanent with a watching ability (Conspiracy
changing controller), of the timed effects or of the choices; an unrelated change (tapping a
land) keeps them."""
from __future__ import annotations

from oracle_helpers import catalog

from castrules.oracle.cards import read_cards
from castrules.oracle.characteristics import chars
from castrules.oracle.frozen import replace
from castrules.oracle.setup import build_state


def _state():
    cards = read_cards({n: catalog()[n] for n in ("Conspiracy", "Grizzly Bears", "Forest")})
    setup = {"players": {"A": {}, "B": {}}, "turn": {"active": "A"},
             "objects": [{"id": "consp", "card": "Conspiracy", "zone": "battlefield", "controller": "A"},
                         {"id": "bear", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"},
                         {"id": "forest", "card": "Forest", "zone": "battlefield", "controller": "A"}],
             "choices": {"consp": {"creature_type": "Elf"}}}
    return build_state(setup, cards)


def test_unrelated_changes_keep_the_computed_characteristics():
    state = _state()
    before = chars(state, state.obj("bear"))
    assert before.creature_types == frozenset({"Elf"})
    later = state.with_obj(replace(state.obj("forest"), tapped=True)).with_player(state.player("B")).tick()[0]
    assert chars(later, later.obj("bear")) is before


def test_a_change_they_depend_on_recomputes_them():
    state = _state()
    assert chars(state, state.obj("bear")).creature_types == frozenset({"Elf"})
    stolen = state.with_obj(replace(state.obj("consp"), controller="B"))
    assert chars(stolen, stolen.obj("bear")).creature_types == frozenset({"Bear"})
    chosen = replace(state, choices={"consp": {"creature_type": "Goblin"}})
    assert chars(chosen, chosen.obj("bear")).creature_types == frozenset({"Goblin"})
    assert chars(state, state.obj("bear")).creature_types == frozenset({"Elf"})   # the earlier state: as it was


def test_an_object_that_reads_the_game_follows_it():
    """Tarmogoyf counts the card types in graveyards: a card moving there changes it though no
    watching permanent, effect or choice changed."""
    cards = read_cards({n: catalog()[n] for n in ("Tarmogoyf", "Lightning Bolt")})
    setup = {"players": {"A": {}}, "turn": {"active": "A"},
             "objects": [{"id": "goyf", "card": "Tarmogoyf", "zone": "battlefield", "controller": "A"},
                         {"id": "bolt", "card": "Lightning Bolt", "zone": "hand", "owner": "A"}]}
    state = build_state(setup, cards)
    assert (chars(state, state.obj("goyf")).power, chars(state, state.obj("goyf")).toughness) == (0, 1)
    later = state.with_obj(replace(state.obj("bolt"), zone="graveyard"))
    assert (chars(later, later.obj("goyf")).power, chars(later, later.obj("goyf")).toughness) == (1, 2)
