"""`if: not_kicked`: an effect only an unkicked spell has. A kicked Burst Lightning deals 4 damage
instead of 2, as one damage event (not 2 and then 2 more, which damage prevention or a "whenever
dealt damage" trigger would tell apart; AUDIT-4 M4)."""
from castrules.model import Card
from castrules.model.effects import Damage
from oracle.effects import EffectContext, condition_holds
from oracle_helpers import player, run

from castrules.harness.suite import shared_suite


def _damage_done(kicked: int) -> list[int]:
    card = Card.from_document(shared_suite().catalog.cards["Burst Lightning"])
    ctx = EffectContext(source=None, controller="A", targets=("B",), kicked=kicked)   # type: ignore[arg-type]
    return [e.amount for e in card.spell if isinstance(e, Damage) and condition_holds(e.condition, ctx)]


def test_unkicked_burst_lightning_deals_2_once():
    assert _damage_done(0) == [2]


def test_kicked_burst_lightning_deals_4_once():
    assert _damage_done(1) == [4]


def test_kicked_burst_lightning_takes_4_life():
    objects = [{"id": f"m{i}", "card": "Mountain", "zone": "battlefield", "controller": "A"} for i in range(5)]
    objects.append({"id": "bolt", "card": "Burst Lightning", "zone": "hand", "owner": "A"})
    r = run({"players": {"A": {}, "B": {}}, "objects": objects},
            [{"cast": {"player": "A", "object": "bolt", "kicker": True, "targets": ["B"],
                       "mana_abilities": [{"object": f"m{i}"} for i in range(5)]}}, {"resolve": {}}])
    assert player(r, 2, "B")["life"] == 16
