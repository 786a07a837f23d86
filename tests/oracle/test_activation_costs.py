"""602.2b, 601.2f and 602.1e: activation cost increases, abilities a permanent has because other
permanents have them (Manascape Refractor), and mana of any colour for its activation costs."""
from oracle_helpers import player, run

AB = {"A": {}, "B": {}}


def _board(extra=(), mountains=4):
    return {"players": AB, "objects": [
        {"id": "refractor", "card": "Manascape Refractor", "zone": "battlefield", "controller": "A"},
        {"id": "castle", "card": "Castle Ardenvale", "zone": "battlefield", "controller": "A"},
        *extra,
        *({"id": f"m{i}", "card": "Mountain", "zone": "battlefield", "controller": "A"} for i in range(mountains))]}


def _activate(mountains):
    return {"activate": {"player": "A", "object": "refractor", "ability": 0, "pay": "listed",
                         "mana_abilities": [{"object": f"m{i}"} for i in range(mountains)]}}


def test_the_refractor_taps_for_white_with_the_castles_mana_ability_even_under_suppression_field():
    field = {"id": "field", "card": "Suppression Field", "zone": "battlefield", "controller": "B"}
    r = run(_board([field]), [{"activate_mana": {"player": "A", "object": "refractor"}}])
    assert r["steps"][0]["legal"] and player(r, 1, "A")["mana_pool"] == "{W}"


def test_without_an_increase_four_red_pay_the_borrowed_token_ability():
    assert run(_board(), [_activate(4)])["steps"][0]["legal"]


def test_the_borrowed_ability_is_gone_with_the_land():
    r = run(_board(), [{"destroy": {"object": "castle"}}, _activate(4)])
    assert r["steps"][1]["legal"] is False
