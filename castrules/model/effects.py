"""Effects of spells and abilities (card.schema.json's `effect`): one frozen type per kind.

A document names its kind by its key (`{damage: {amount: 3, target: 0}}`) or uses a shorthand
(`{gain_life: 1}`, `{lose_life: 1, player: each_opponent}`); `read_effect` accepts both and
builds the long form. `if` (field `condition`) makes any effect conditional.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from .build import Model, key
from .effect_players import (EachOpponent, ModeChooser, PlayerChoice, TargetPlayer, TargetsController,  # noqa: F401
                             Tapper, You, read_player)
from .errors import ModelError, excerpt
from .parts import CopyExceptions, Filter

Amount = int | Literal["X", "Y", "target_x", "power", "divided", "times_kicked"]
Condition = Literal["prowl_paid", "not_prowl_paid", "kicked", "not_kicked", "awakened", "cast"]
# keys a shorthand effect may carry beside its kind: {lose_life: 1, player: each_opponent}
EFFECT_PARAMETERS: tuple[str, ...] = ("player", "to", "target", "if", "amount")


@dataclass(frozen=True)
class Effect(Model):
    """Base of every effect; `kind` is its key in the card file."""

    kind: ClassVar[str] = ""
    condition: Condition | None = key("if", None)

    def wrap_document(self, body: dict) -> Any:
        return {self.kind: body}

    @classmethod
    def from_document(cls, doc: Any, where: str = "") -> Any:
        """`Effect.from_document` reads `{kind: body}` (or a shorthand); a kind reads its body."""
        if cls is Effect:
            return read_effect(doc, where)
        return super().from_document(doc, where)


@dataclass(frozen=True)
class PlayerEffect(Effect):
    """An effect on a player: you, each_opponent, chooser, target:N or target_controller:N."""

    player: str | None = None

    @property
    def who(self) -> PlayerChoice:
        """`player` as its typed value (the document keeps the string)."""
        return read_player(self.player)


@dataclass(frozen=True)
class Damage(PlayerEffect):
    """Damage to the Nth target, every target (`all`), or a player it does not target (`player`,
    Misfortune's chooser); `player` unset means the target."""

    kind: ClassVar[str] = "damage"
    amount: Amount = 0
    target: int | Literal["all"] = 0

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if isinstance(doc, Mapping) and "target" not in doc and "player" not in doc:
            raise ModelError(where, "damage needs a target or a player")
        return doc


@dataclass(frozen=True)
class LoseLife(PlayerEffect):
    kind: ClassVar[str] = "lose_life"
    amount: Amount = 0


@dataclass(frozen=True)
class GainLife(PlayerEffect):
    kind: ClassVar[str] = "gain_life"
    amount: Amount = 0


@dataclass(frozen=True)
class Draw(PlayerEffect):
    kind: ClassVar[str] = "draw"
    amount: Amount | None = None


@dataclass(frozen=True)
class ExileTop(PlayerEffect):
    kind: ClassVar[str] = "exile_top"
    amount: Amount | None = None


@dataclass(frozen=True)
class CastCopy(Effect):
    """Its controller may cast a copy of the card the source imprinted, without paying its mana
    cost, while this resolves (707.12; Isochron Scepter)."""

    kind: ClassVar[str] = "cast_copy"
    of: Literal["imprinted"] = "imprinted"


@dataclass(frozen=True)
class CastIfAble(PlayerEffect):
    """The player casts the top card of their library if able (608.2g)."""

    kind: ClassVar[str] = "cast_if_able"


@dataclass(frozen=True)
class CastFree(Effect):
    """Its controller may cast a card from `from` without paying its mana cost while this
    resolves (608.2g, 118.9): the Nth target card, a card exiled with the source (607.2), or a card
    there the resolve step names; `spells` and the mana value bounds say which qualify. A hand,
    graveyard or library is its controller's own unless `owner` names a player (Knowledge
    Exploitation: a target opponent's library)."""

    kind: ClassVar[str] = "cast_free"
    from_: Literal["hand", "graveyard", "exile", "library"] = key("from", "hand")
    owner: str | None = None
    target: int | None = None
    exiled_with: bool = False
    spells: Filter | None = None
    mana_value_max: int | Literal["X"] | None = None
    mana_value: int | Literal["X"] | None = None

    @property
    def whose(self) -> PlayerChoice:
        """`owner` as its typed value: the player whose zone the card is cast from."""
        return read_player(self.owner)


@dataclass(frozen=True)
class AddMana(PlayerEffect):
    kind: ClassVar[str] = "add_mana"
    mana: str = ""


@dataclass(frozen=True)
class Destroy(Effect):
    """Destroy the Nth target, or every permanent matching `all` (no target; Solar Tide)."""

    kind: ClassVar[str] = "destroy"
    target: int | None = None
    all: Filter | None = None


@dataclass(frozen=True)
class ReturnToHand(Effect):
    kind: ClassVar[str] = "return_to_hand"
    target: int | Literal["all"] | None = None


@dataclass(frozen=True)
class Pump(Effect):
    kind: ClassVar[str] = "pump"
    power: int = 0
    toughness: int = 0
    target: int | None = None


@dataclass(frozen=True)
class SetBasePT(Effect):
    """The Nth target's base power and toughness become these until end of turn (208.4a; Diminish):
    a setting effect of layer 7b (613.4b), applied after characteristic-defining abilities and
    before counters and +N/+N effects."""

    kind: ClassVar[str] = "set_base_pt"
    power: int = 0
    toughness: int = 0
    target: int | None = None


@dataclass(frozen=True)
class Awaken(Effect):
    """Awaken's spell ability (702.113a): `amount` +1/+1 counters on the Nth target, a land, which
    becomes a 0/0 Elemental creature with haste that is still a land, for good."""

    kind: ClassVar[str] = "awaken"
    target: int = 0
    amount: int = 0


@dataclass(frozen=True)
class GrantFlashback(Effect):
    """The Nth target, a card in a graveyard, has flashback until end of turn, its flashback cost
    equal to its mana cost (702.34a; Snapcaster Mage)."""

    kind: ClassVar[str] = "grant_flashback"
    target: int = 0
    cards: Filter | None = None     # instead of a target: each matching card in its controller's graveyard


@dataclass(frozen=True)
class GraveyardCasting(Effect):
    """Until end of turn its controller may cast spells matching `spells` (all: none given) from
    their graveyard (601.3); with `exile_instead`, a card that would be put into their graveyard
    from anywhere this turn is exiled instead (614.1a). Yawgmoth's Will."""

    kind: ClassVar[str] = "graveyard_casting"
    spells: Filter | None = None
    exile_instead: bool = False


@dataclass(frozen=True)
class Counter(Effect):
    """The Nth target spell is countered, unless its controller pays `unless_pays` as this
    resolves (118.12a: an optional cost paid during resolution)."""

    kind: ClassVar[str] = "counter"
    target: int = 0
    unless_pays: str | None = None
    unless_each_namesake: str | None = None   # that much more for each card with this spell's name
                                              # in each graveyard, counted as it resolves (Rune Snag)


@dataclass(frozen=True)
class DrainMana(Effect):
    """The Nth target player activates a mana ability of each land they control, then loses the
    mana in their pool, which this spell's controller adds with its sources and restrictions
    unchanged (106.13; Drain Power)."""

    kind: ClassVar[str] = "drain_mana"
    target: int = 0


@dataclass(frozen=True)
class BecomeColor(Effect):
    """The Nth target becomes exactly these colours until end of turn (105.3; Crimson Wisps)."""

    kind: ClassVar[str] = "become_color"
    colors: tuple[Literal["W", "U", "B", "R", "G"], ...] = ()
    target: int | None = None


@dataclass(frozen=True)
class AddCounters(PlayerEffect):
    """Counters on the source, or on each permanent matching `each` that `player` controls."""

    kind: ClassVar[str] = "add_counters"
    counter: str | None = None
    amount: Amount | None = None
    each: Filter | None = None


@dataclass(frozen=True)
class CreateToken(Effect):
    """One token, or one for each permanent matching `for_each` as the effect happens (608.2h)."""

    kind: ClassVar[str] = "create_token"
    token: Mapping[str, Any] = key("token", None)
    for_each: Filter | None = None


@dataclass(frozen=True)
class CreateTokenCopy(Effect):
    """A token copy of the Nth target, with the exceptions `except` (707.2, 707.9; Kiki-Jiki);
    its id is <source>_token, _token2..."""

    kind: ClassVar[str] = "create_token_copy"
    target: int = 0
    exceptions: CopyExceptions = key("except", CopyExceptions())


@dataclass(frozen=True)
class Animate(Effect):
    """The source becomes a creature until end of turn."""

    kind: ClassVar[str] = "animate"
    power: int | None = None
    toughness: int | None = None
    types: tuple[str, ...] = ()
    all_creature_types: bool = False


@dataclass(frozen=True)
class SacrificeSelf(Effect):
    kind: ClassVar[str] = "sacrifice_self"


@dataclass(frozen=True)
class UntapSelf(Effect):
    kind: ClassVar[str] = "untap_self"


@dataclass(frozen=True)
class Delayed(Effect):
    """A delayed triggered ability (603.7): at the beginning of the next end step, `effect`."""

    kind: ClassVar[str] = "delayed"
    at: Literal["end"] = "end"
    effect: tuple[Effect, ...] = ()

    @classmethod
    def normalise(cls, doc: Any, where: str) -> Any:
        if isinstance(doc, Mapping):
            missing = [k for k in ("at", "effect") if k not in doc]
            if missing:
                raise ModelError(where, f"a delayed effect needs {missing}")
            if isinstance(doc["effect"], Mapping):
                doc = {**doc, "effect": [doc["effect"]]}
        return doc


EFFECT_TYPES: Mapping[str, type[Effect]] = {t.kind: t for t in (
    Damage, LoseLife, GainLife, Draw, CastCopy, CastIfAble, CastFree, Counter, DrainMana, ExileTop, Destroy, ReturnToHand, Pump, SetBasePT,
    BecomeColor, GrantFlashback, GraveyardCasting, Awaken,
    AddCounters, CreateToken, CreateTokenCopy, Animate, SacrificeSelf, UntapSelf, Delayed, AddMana)}
_REQUIRED = {"damage": ("amount",), "lose_life": ("amount",), "gain_life": ("amount",),
             "pump": ("power", "toughness"), "set_base_pt": ("power", "toughness"),
             "become_color": ("colors",), "create_token": ("token",),
             "add_mana": ("mana",), "counter": ("target",), "drain_mana": ("target",), "awaken": ("amount",)}


def read_effect(doc: Any, where: str = "") -> Effect:
    """One effect document, in its long form or a shorthand, as its typed effect."""
    kind, body = _long_form(doc, where)
    cls = EFFECT_TYPES[kind]
    missing = [k for k in _REQUIRED.get(kind, ()) if k not in body]
    if missing:
        raise ModelError(f"{where}/{kind}", f"{kind} needs {missing}")
    return cls.from_document(body, f"{where}/{kind}")


def read_effects(doc: Any, where: str = "") -> tuple[Effect, ...]:
    """A list of effects, or a single one (card.schema.json's `effects`)."""
    if doc is None:
        return ()
    items = [doc] if isinstance(doc, Mapping) else doc
    if not isinstance(items, (list, tuple)):
        raise ModelError(where, f"expected effects, got {excerpt(doc)}")
    return tuple(read_effect(e, f"{where}/{i}") for i, e in enumerate(items))


def _long_form(doc: Any, where: str) -> tuple[str, dict]:
    if not isinstance(doc, Mapping):
        raise ModelError(where, f"an effect is a mapping, got {excerpt(doc)}")
    kinds = [k for k in doc if k in EFFECT_TYPES]
    extra = [k for k in doc if k not in EFFECT_TYPES and k not in EFFECT_PARAMETERS]
    if len(kinds) != 1 or extra:
        raise ModelError(where, f"an effect names exactly one kind of {sorted(EFFECT_TYPES)}, got {excerpt(dict(doc))}")
    kind = kinds[0]
    raw = doc[kind]
    params = {k: v for k, v in doc.items() if k != kind}
    body = dict(raw) if isinstance(raw, Mapping) else ({} if raw is None else
                                                       {("mana" if kind == "add_mana" else "amount"): raw})
    if params and isinstance(raw, Mapping) and kind != "add_mana":
        raise ModelError(where, f"parameters {sorted(params)} go inside the {kind} mapping")
    if "to" in params:
        if kind != "add_mana":
            raise ModelError(where, "`to` is a parameter of add_mana")
        to = params.pop("to")
        body["player"] = "target:0" if to == "target" else to
    body.update(params)
    return kind, body
