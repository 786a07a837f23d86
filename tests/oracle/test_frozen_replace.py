"""oracle.frozen.replace gives what dataclasses.replace gives (value, fresh non-init fields,
errors), and hands classes it cannot copy safely to dataclasses.replace."""
from __future__ import annotations

import dataclasses
from dataclasses import InitVar, dataclass, field

import pytest

from castrules.oracle.cards import CardDef
from castrules.oracle.frozen import make, read_fast, replace
from castrules.oracle.state import Obj, Player, State, Turn


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple = ()
    cache: dict = field(default_factory=dict, compare=False, init=False)
    mark: str = field(default="m", init=False)


@dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@dataclass(frozen=True)
class WithInitVar:
    a: int
    scale: InitVar[int] = 1

    def __post_init__(self, scale: int) -> None:
        object.__setattr__(self, "a", self.a * scale)


def test_same_value_and_fresh_non_init_fields():
    old = Plain(1, (2,))
    old.cache["x"] = 1
    new = replace(old, a=5)
    assert new == dataclasses.replace(old, a=5) and new.b is old.b and new.mark == "m"
    assert new.cache == {} and new.cache is not old.cache and old.a == 1


def _raised(call) -> type | None:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the type is what the test compares
        return type(exc)
    return None


@pytest.mark.parametrize("value, changes", [(Plain(1), {"nope": 2}), (Plain(1), {"cache": {}}), (Checked(1), {"a": -1})])
def test_errors_are_dataclasses_own(value, changes):
    """The same error as dataclasses.replace on the running Python (an init=False field is a
    ValueError up to 3.12, a TypeError from 3.13)."""
    expected = _raised(lambda: dataclasses.replace(value, **changes))
    assert expected is not None and _raised(lambda: replace(value, **changes)) is expected


def test_initvars_are_dataclasses_own():
    assert replace(WithInitVar(2, 3), a=4, scale=2).a == dataclasses.replace(WithInitVar(2, 3), a=4, scale=2).a


def test_the_oracle_values():
    card = CardDef(name="Grizzly Bears", real=True, mana_cost="{1}{G}", supertypes=(), types=("Creature",),
                   subtypes=("Bear",), power=2, toughness=2, keywords=frozenset())
    obj = Obj(id="o", card=card, zone="hand", owner="A", controller="A")
    assert replace(obj, zone="battlefield", tapped=True) == dataclasses.replace(obj, zone="battlefield", tapped=True)
    other = dataclasses.replace(card, name="Runeclaw Bear")
    copied = replace(obj, copy_of=other)        # __post_init__ runs: the base (a plain attribute) follows
    assert copied.base is other and replace(copied, copy_of=None).base is card
    assert make(Obj, id="p", card=card, zone="hand", owner="A", controller="A").base is card
    state = State(players=(Player("A"),), objects={"o": obj}, turn=Turn("A"))
    state._cache["k"] = 1
    moved = replace(state, clock=7)
    assert moved == dataclasses.replace(state, clock=7) and moved._cache == {}


@read_fast
@dataclass(frozen=True)
class Defaults:
    a: int
    shared: Plain = Plain(0)        # an instance of a Python class: its class attribute goes
    n: int = 3                      # an int: it stays


def test_read_fast_keeps_the_defaults_and_drops_their_class_attributes():
    assert "shared" not in Defaults.__dict__ and Defaults.__dict__["n"] == 3
    assert Defaults(1) == make(Defaults, a=1) == Defaults(1, Plain(0), 3) and Defaults(1).shared == Plain(0)
    assert replace(Defaults(1), n=4) == dataclasses.replace(Defaults(1), n=4)
    assert "face" not in Obj.__dict__ and "kind" not in Obj.__dict__


def test_a_class_with_a_cached_property_is_replaced_by_dataclasses_own_replace():
    """A cached_property keeps its value in the instance's dict: a copy of that dict would carry a
    value worked out for the old fields (found by the session 9 review on ManaCost)."""
    from castrules.oracle.mana.cost import ManaCost

    cost = ManaCost.parse("{2}{R}")
    assert cost.mana_value() == 3 and not cost.has_x      # both now kept in the cost's own dict
    symbols = ManaCost.parse("{5}{X}{R}{R}").symbols
    assert replace(cost, symbols=symbols).has_x
    assert replace(cost, symbols=symbols).mana_value(2) == dataclasses.replace(cost, symbols=symbols).mana_value(2) == 9
