"""601.2c: one instance of the word "target" with several targets ("up to two target creatures",
requirements chained by `another`) can't take the same object twice; separate instances can."""
from oracle_helpers import run

AB = {"A": {"mana_pool": "{W}{W}{W}{W}"}, "B": {}}
OBJECTS = [{"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"},
           {"id": "bears2", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"},
           {"id": "alliance", "card": "Blessed Alliance", "zone": "hand", "owner": "A"}]


def cast(targets, modes=(1,)):
    return run({"players": AB, "objects": OBJECTS},
               [{"cast": {"player": "A", "object": "alliance", "modes": list(modes), "targets": targets,
                          "mana_abilities": []}}])


def test_two_different_creatures_for_one_word():
    assert cast(["bears", "bears2"])["steps"][0]["legal"]


def test_the_same_creature_twice_for_one_word_is_refused():
    assert cast(["bears", "bears"])["steps"][0] == {"legal": False, "reason": "invalid_target", "substep": "601.2c"}


def test_one_or_no_creature_for_an_up_to_two_word():
    assert cast(["bears"])["steps"][0]["legal"]
    assert cast([])["steps"][0]["legal"]


def test_separate_words_may_share_a_target():
    # Borrowed Hostility's two modes each say "target creature": the same Bears for both is fine
    r = run({"players": {"A": {"mana_pool": "{R}{R}{R}{R}"}, "B": {}},
             "objects": [{"id": "bears", "card": "Grizzly Bears", "zone": "battlefield", "controller": "A"},
                         {"id": "hostility", "card": "Borrowed Hostility", "zone": "hand", "owner": "A"}]},
            [{"cast": {"player": "A", "object": "hostility", "modes": [0, 1], "targets": ["bears", "bears"],
                       "mana_abilities": []}}])
    assert r["steps"][0]["legal"]
