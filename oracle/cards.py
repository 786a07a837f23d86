"""The oracle's card definitions, derived from the typed model's cards (castrules.model).

castrules.model builds every card, ability and effect from its document (the one place the
format is read); the oracle keeps the model's ability and effect types as they are and
dispatches on them. This module derives only what the rules code reads in another shape than
the printed document: the type line split into supertypes, card types and subtypes (205), power
and toughness as numbers, keywords in lower case, a split card's combined cost, targets and
effects (202.3d), and the spelled-out `static` and `triggered` abilities as the kinds they mean
(a cost modifier, a prohibition, a tapped-for-mana trigger), so no consumer handles two spellings.
"""
from __future__ import annotations

import functools
import marshal
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Sequence

from castrules.model import ModelError
from castrules.model.abilities import (Ability, ActivatedAbility, AddColor, AnimateAll, CastProhibition, CostModifier,
                                       GrantAbility, KeywordGrant, ManaReplacement, ManaTrigger, StaticAbility,
                                       TriggeredAbility, TypeChange)
from castrules.model.cards import (AdditionalCost, AlternativeCost, Card, Face, Flashback, Modes, Suspend, TextX,
                                   read_catalog)
from castrules.model.effects import CreateToken, Effect
from castrules.model.parts import Filter, TargetSpec

from .creature_types import CREATURE_TYPES
from .errors import RequestError
from .frozen import make

SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing"})
CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred",
              "Land", "Planeswalker", "Sorcery")
COLORS = ("W", "U", "B", "R", "G")

__all__ = ["AdditionalCost", "AlternativeCost", "CardDef", "Filter", "Modes", "Prototype", "Suspend", "TargetSpec",
           "TextX", "card_def", "read_cards", "token_def"]


@dataclass(frozen=True)
class Prototype:
    """The prototype characteristics with power and toughness as numbers (702.160, 718)."""

    mana_cost: str
    power: int
    toughness: int


@dataclass(frozen=True)
class CardDef:
    """The printed (copiable, 707.2) values of a card or token definition, as the rules read them."""

    name: str
    real: bool
    mana_cost: str | None
    supertypes: tuple[str, ...]
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    power: int | None
    toughness: int | None
    keywords: frozenset[str]                 # lower case: "haste", "changeling", "flash"
    color_indicator: tuple[str, ...] | None = None
    prowl: str | None = None
    prototype: Prototype | None = None
    flashback: Flashback | None = None       # 702.34a: cast from its owner's graveyard, then exiled
    kicker: str | None = None
    multikicker: str | None = None           # 702.33c: a kicker cost paid any number of times
    buyback: str | None = None               # 702.27a: an optional additional cost; back to the hand
    entwine: str | AdditionalCost | None = None    # 702.42a: an optional additional cost choosing every mode
    escalate: str | AdditionalCost | None = None   # 702.120a: an additional cost per mode beyond the first
    alternative_costs: tuple[AlternativeCost, ...] = ()
    additional_costs: tuple[AdditionalCost, ...] = ()
    targets: tuple[TargetSpec, ...] = ()
    enchant: TargetSpec | None = None        # an Aura (702.5a): what it may be attached to, its target as a spell
    spell: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()
    modes: Modes | None = None
    divide: int | None = None                # amount divided among the divided targets (601.2d)
    text_x: TextX | None = None              # X in the text only (107.3c / 107.3f)
    suspend: Suspend | None = None           # Suspend N—cost (702.62a), a special action (116.2f)
    # cards with more than one face (202.3b-d): the two halves of a split card (their
    # combination is this CardDef itself), the back face of a transforming double-faced card,
    # the meld partner's name and the melded face (held by one card of the pair)
    halves: "tuple[CardDef, ...]" = ()
    back_face: "CardDef | None" = None
    meld_partner: str | None = None
    melded_face: "CardDef | None" = None

    @property
    def creature_types(self) -> tuple[str, ...]:
        """Printed creature types (205.3m): subtypes of a creature or kindred card."""
        if "Creature" not in self.types and "Kindred" not in self.types:
            return ()
        return tuple(s for s in self.subtypes if s in CREATURE_TYPES)


CARD_CACHE_SIZE = 4096   # distinct (name, entry) pairs kept: the suite's catalog plus every inline card


def read_cards(cards: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> dict[str, CardDef]:
    """The request's `cards` (name -> entry, or a list of entries), built by the model.

    Every case's request carries the same catalog entries again, so a card is built once per
    distinct content: the cache key is the entry's name and its exact content (``marshal``'s
    bytes, which keep every value's exact type: a tuple is not a list, 1 not 1.0 nor true), never
    the name alone (a case may define its own card under a printed card's name). Anything else
    (a list of entries, an entry ``marshal`` cannot write, such as one holding a subclass of
    str, a malformed entry) takes the uncached path, so its result and its errors are exactly
    the model's."""
    keys = _content_keys(cards)
    if keys is not None:
        try:
            return {name: _cached_card(name, content) for name, content in keys}
        except Exception:   # the uncached path below raises the same error, in the request's order
            pass
    return _read_cards(cards)


def _content_keys(cards: Any) -> list[tuple[str, bytes]] | None:
    """(name, exact content) per entry of a name -> entry mapping of builtin values; None
    otherwise. Version 2 of marshal's format: no back-references, whose use depends on how
    many references to a value exist, so equal entries always give equal bytes."""
    if type(cards) is not dict and not isinstance(cards, Mapping):
        return None
    try:
        keys = [(name, marshal.dumps(doc, 2)) for name, doc in cards.items()]
    except ValueError:      # a value of another type (or nested too deep, or a cycle)
        return None
    return keys if all(type(name) is str for name, _ in keys) else None


@functools.lru_cache(maxsize=CARD_CACHE_SIZE)
def _cached_card(name: str, content: bytes) -> CardDef:
    """One entry built from its own copy of the data (nothing shared with a request)."""
    return _read_cards({name: marshal.loads(content)})[name]


def _read_cards(cards: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> dict[str, CardDef]:
    try:
        model_cards = read_catalog(cards if isinstance(cards, Mapping) else list(cards))
    except ModelError as exc:
        raise RequestError(f"a card is malformed: {exc}") from exc
    return {name: card_def(card) for name, card in model_cards.items()}


def card_def(card: Card | Face) -> CardDef:
    """The oracle's definition of one model card (or face, which is never a real card)."""
    try:
        return _card_def(card)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RequestError):
            raise
        raise RequestError(f"card {card.name!r}: malformed entry ({exc})") from exc


def token_def(effect: CreateToken) -> CardDef:
    """The token a create_token effect makes: its document has the card fields (never real)."""
    doc = {"mana_cost": None, "text": "", **effect.token, "real": False}
    try:
        return card_def(Card.from_document(doc, "token"))
    except ModelError as exc:
        raise RequestError(f"a token is malformed: {exc}") from exc


def _card_def(card: Card | Face) -> CardDef:
    supers, types, subs = parse_type_line(card.type_line)
    proto = getattr(card, "prototype", None)
    fields_ = dict(
        name=card.name, real=getattr(card, "real", False), mana_cost=card.mana_cost,
        supertypes=supers, types=types, subtypes=subs, power=_pt(card.power), toughness=_pt(card.toughness),
        keywords=frozenset(k.lower() for k in card.keywords),
        color_indicator=tuple(str(c) for c in card.colors) if card.colors is not None else None,
        prowl=getattr(card, "prowl", None), flashback=getattr(card, "flashback", None),
        kicker=getattr(card, "kicker", None), multikicker=getattr(card, "multikicker", None),
        buyback=getattr(card, "buyback", None),
        entwine=getattr(card, "entwine", None), escalate=getattr(card, "escalate", None),
        prototype=Prototype(proto.mana_cost, int(proto.power), int(proto.toughness)) if proto else None,
        alternative_costs=getattr(card, "alternative_costs", ()),
        additional_costs=getattr(card, "additional_costs", ()),
        targets=_aura_targets(card), enchant=getattr(card, "enchant", None), spell=card.spell, divide=card.divide,
        abilities=tuple(_ability(a, card.name) for a in card.abilities),
        modes=getattr(card, "modes", None), suspend=getattr(card, "suspend", None),
        text_x=_text_x(getattr(card, "text_x", None), card.mana_cost, card.name))
    for effect in _all_effects(fields_["spell"], fields_["abilities"], fields_["modes"]):
        if isinstance(effect, CreateToken):
            token_def(effect)           # a malformed token is a malformed request now, not on resolution
    if isinstance(card, Card):
        fields_.update(_faces(card))
    return make(CardDef, **fields_)


def _aura_targets(card: Card | Face) -> tuple[TargetSpec, ...]:
    """303.4a: an Aura spell's one target is what its enchant ability names, and nothing else."""
    enchant = getattr(card, "enchant", None)
    if enchant is None:
        return card.targets
    if card.targets:
        raise RequestError(f"{card.name}: an Aura spell's only target is its enchant's (303.4a); drop `targets`")
    return (enchant,)


def _all_effects(spell: tuple[Effect, ...], abilities: tuple[Ability, ...], modes: Modes | None):
    yield from spell
    for ab in abilities:
        yield from getattr(ab, "effect", ())
    for option in modes.options if modes else ():
        yield from option.spell


def _pt(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return 0  # "*" P/T: 0 outside the battlefield (208.2a); not modelled further


def parse_type_line(text: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """'Legendary Creature — Human Soldier' -> (supertypes, types, subtypes) (205)."""
    for sep in ("—", " - ", "--"):
        if sep in text:
            left, right = text.split(sep, 1)
            break
    else:
        left, right = text, ""
    words = left.split()
    supers = tuple(w for w in words if w in SUPERTYPES)
    types = tuple("Kindred" if w == "Tribal" else w for w in words if w not in SUPERTYPES)
    for t in types:
        if t not in CARD_TYPES:
            raise RequestError(f"unknown card type {t!r} in type line {text!r}")
    subs = right.split()
    if "Time" in subs and "Lord" in subs:
        i = subs.index("Time")
        subs[i:i + 2] = ["Time Lord"]
    return supers, types, tuple(subs)


def _ability(ab: Ability, card: str) -> Ability:
    """The spelled-out forms as the kinds they mean: `static` with one of cost_increase /
    cost_reduction / cast_prohibition, and `triggered` on tapped_for_mana (106.12a); dies and
    cast triggers stay `triggered` abilities (oracle/dying.py, oracle/cast_triggers.py)."""
    if isinstance(ab, StaticAbility):
        return _static(ab, card)
    if isinstance(ab, TriggeredAbility) and ab.trigger.tapped_for_mana is not None:
        t = ab.trigger.tapped_for_mana
        flt = t.filter or Filter()
        return ManaTrigger(permanents=replace(flt, controller="any"), whose="you" if flt.controller == "you" else "all",
                           produced=t.mana_type, effect=ab.effect, to="you")
    if isinstance(ab, GrantAbility) and not isinstance(ab.ability, ActivatedAbility):
        raise RequestError(f"{card}: grant_ability grants one ability of kind activated")
    return ab


def _static(ab: StaticAbility, card: str) -> Ability:
    if ab.cast_prohibition is not None:
        return CastProhibition(players=ab.cast_prohibition.players, spells=ab.cast_prohibition.spells)
    if ab.abilities_of is not None or ab.activation_any_color or ab.activation_cost_increase is not None \
            or ab.activation_cost_reduction is not None:
        return ab                   # read as they are: oracle/characteristics.py, oracle/activation_costs.py
    body = ab.cost_increase or ab.cost_reduction
    if body is None:
        raise RequestError(f"{card}: a static ability names exactly one effect")
    increase = ab.cost_increase is not None
    return CostModifier(change="increase" if increase else "reduce", amount=body.amount, spells=body.spells,
                        whose=body.whose or ("all" if increase else "you"), per=body.per,  # type: ignore[arg-type]
                        while_=body.while_)


def _faces(card: Card) -> dict[str, Any]:
    """Split halves (`halves`), a transforming card's back face (`back_face`), meld (`meld`).
    A split card's own mana cost is its halves' combined mana cost (202.3d), its targets and
    effects the halves' in order (what a fused split spell does), the right half's target
    references shifted past the left half's targets."""
    out: dict[str, Any] = {}
    if card.halves:
        if card.mana_cost is not None:
            raise RequestError(f"{card.name}: a split card's mana_cost is null (its halves' costs combine, 202.3d)")
        if len(card.halves) != 2:
            raise RequestError(f"{card.name}: a split card has exactly two halves")
        hs = tuple(card_def(h) for h in card.halves)
        from .costs import ManaCost
        combined = ManaCost(())
        for h in hs:
            if h.mana_cost is not None:
                combined = combined + ManaCost.parse(h.mana_cost)
        shift = len(hs[0].targets)
        out.update(halves=hs, mana_cost=str(combined) or "{0}", targets=hs[0].targets + hs[1].targets,
                   spell=hs[0].spell + tuple(_shift_targets(e, shift) for e in hs[1].spell),
                   divide=hs[0].divide or hs[1].divide)
    if card.back_face is not None:
        out["back_face"] = card_def(card.back_face)
    if card.meld is not None:
        out["meld_partner"] = card.meld.partner
        if card.meld.melded is not None:
            out["melded_face"] = card_def(card.meld.melded)
    return out


def _shift_targets(e: Effect, shift: int) -> Effect:
    """The right half's references to its targets, past the left half's (`target`, `target:N`)."""
    names = {f.name for f in fields(e)}
    changes: dict[str, Any] = {}
    if "target" in names and isinstance(getattr(e, "target"), int):
        changes["target"] = getattr(e, "target") + shift
    player = getattr(e, "player", None)
    if isinstance(player, str) and ":" in player:
        kind, _, idx = player.partition(":")
        changes["player"] = f"{kind}:{int(idx) + shift}"
    return replace(e, **changes) if changes else e


def _text_x(text_x: TextX | None, mana_cost: str | None, where: str) -> TextX | None:
    if text_x is None:
        return None
    if sum(v is not None for v in (text_x.count, text_x.domain, text_x.choose)) != 1:
        raise RequestError(f"{where}: text_x is {{count: <filter>}}, {{domain: you}} or {{choose: cast | resolution}}")
    if isinstance(mana_cost, str) and any(v in mana_cost for v in ("{X}", "{Y}", "{Z}")):
        raise RequestError(f"{where}: text_x is for an X that is in no cost; this card has one in its mana cost")
    return text_x


def effects_of(ab: Ability) -> tuple[Effect, ...]:
    """What an ability does when it resolves (activated, enters-the-battlefield, triggered)."""
    return getattr(ab, "effect", ())


def spell_targets(card: CardDef, modes: Sequence[int], kicked: int = 0, alt: str | None = None
                  ) -> tuple[TargetSpec, ...]:
    """601.2c, 700.2: what a spell targets: the card's own targets (a requirement once per time
    the spell was kicked, 702.33c: Comet Storm; one only if its awaken cost was paid, 702.113b),
    then those of each chosen mode in the order written (a mode's targets are chosen only when
    the mode is)."""
    own = tuple(s for spec in card.targets if not spec.awakened or alt == "awaken"
                for s in ((spec,) * kicked if spec.per_kick else (spec,)))
    if card.modes is None:
        return own
    return own + tuple(t for m in sorted(modes) for t in card.modes.options[m].targets)


def targets_of(ab: Ability) -> tuple[TargetSpec, ...]:
    """An ability's target requirements (a tapped-for-mana trigger has none)."""
    return getattr(ab, "targets", ())


# Ability types whose source changes or watches other objects (oracle.state: State.watching_abilities).
WATCHING_TYPES: tuple[type[Ability], ...] = (TypeChange, AddColor, AnimateAll, GrantAbility, KeywordGrant,
                                              ManaReplacement, ManaTrigger)


def watching_of(card: CardDef) -> tuple[Ability, ...]:
    """The card's abilities of WATCHING_TYPES, in order; kept by the card's identity (frozen),
    as every object a step changes asks for them (oracle.state)."""
    hit = _WATCHING_OF.get(id(card))
    if hit is not None and hit[0] is card:
        return hit[1]
    found = tuple(ab for ab in card.abilities if isinstance(ab, WATCHING_TYPES))
    if len(_WATCHING_OF) >= 4096:
        _WATCHING_OF.clear()
    _WATCHING_OF[id(card)] = (card, found)     # the card kept alive by its entry: its id stays its own
    return found


_WATCHING_OF: dict[int, tuple[CardDef, tuple[Ability, ...]]] = {}
