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


def test_games_under_the_same_rules_share_what_nothing_reaches():
    """Characteristics no effect or watching ability reaches are shared by the runs of one rules
    table (every case of the suite): a second game with the same card finds them computed, a
    game under another table (a mutant) computes its own."""
    from castrules.oracle import seams
    from castrules.oracle.chars_value import shared_store
    cards = read_cards({n: catalog()[n] for n in ("Grizzly Bears",)})
    setup = {"players": {"A": {}}, "turn": {"active": "A"},
             "objects": [{"id": "bear", "card": "Grizzly Bears", "zone": "hand", "owner": "A"}]}
    first, second = build_state(setup, cards), build_state(setup, cards)
    assert chars(second, second.obj("bear")) is chars(first, first.obj("bear"))
    other = seams.Rules(**{name: getattr(seams.real_rules(), name) for name in seams.SEAMS})
    with seams.using(other):
        third = build_state(setup, cards)
        assert chars(third, third.obj("bear")) == chars(first, first.obj("bear"))
        assert shared_store(other) is not shared_store(seams.real_rules())


def test_the_shared_characteristics_change_no_reply_of_the_suite(monkeypatch):
    """Every case answers the same with the characteristics shared between runs as with each run
    computing its own: the object's fields in the key are all a game without effects or watching
    abilities lets its characteristics depend on (a field read and left out would show here)."""
    from castrules.harness.runner import fresh_request
    from castrules.harness.suite import shared_suite
    from castrules.oracle import characteristics
    from castrules.oracle.engine import OracleEngine
    suite, engine = shared_suite(), OracleEngine()
    shared = [engine.run(fresh_request(c, suite.catalog)) for c in suite.cases]
    monkeypatch.setattr(characteristics, "shared_store", lambda table: {})
    alone = [engine.run(fresh_request(c, suite.catalog)) for c in suite.cases]
    assert len(shared) > 700 and shared == alone


def test_a_kept_starting_state_carries_its_objects_characteristics():
    """The runs of one setup start from one kept state (oracle.setup): its objects' characteristics,
    computed once, are in each run's new cache (oracle.start_chars) with the run's own choices, as
    computed afresh; a variant table (a mutant's) carries none and computes its own."""
    from castrules.oracle import seams
    runs = [_state() for _ in range(3)]      # a setup is kept from its second sight
    run = runs[2]
    carried = run.chars_cache.get(("bear", "battlefield", 0))
    assert carried is not None and carried[0] is run.obj("bear") and carried[2] is run.choices
    assert chars(run, run.obj("bear")) is carried[4] == chars(replace(run, chars_cache={}), run.obj("bear"))
    assert carried[4].creature_types == frozenset({"Elf"})
    other = seams.Rules(**{name: getattr(seams.real_rules(), name) for name in seams.SEAMS})
    with seams.using(other):
        assert _state().chars_cache == {}
