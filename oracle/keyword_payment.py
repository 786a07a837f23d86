"""Paying part of a locked total with objects rather than mana: delve (702.66) exiles cards
from the caster's graveyard, improvise (702.126) taps the caster's untapped artifacts.

Neither is a cost modifier: the total is determined and locked first (601.2f; 702.66b,
702.126b), and what the total is does not change; at 601.2h each named object pays one
generic mana of it, never coloured or colourless mana. The objects are named by the cast step
(`delve`, `improvise`); their parts are paid by the one payer (`oracle.payer`), which keeps the
handlers of these two part kinds in its table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from castrules.model.abilities import Delve, Improvise

from .characteristics import chars, matches
from .costs import ConcreteCost, concrete_text
from .errors import Illegal
from .frozen import replace
from .reasons import Reason
from .state import CARD, Obj, State
from .trace import Trace
from .zones import move

DELVE_RULES = ("702.66a", "702.66b")
IMPROVISE_RULES = ("702.126a", "702.126b")


@dataclass(frozen=True)
class DelvePart:
    """Exile these cards from the payer's graveyard, each paying {1} of the total (702.66a)."""

    cards: tuple[str, ...]


@dataclass(frozen=True)
class ImprovisePart:
    """Tap these untapped artifacts the payer controls, each paying {1} of the total
    (702.126a). Not a {T} cost: a creature's summoning sickness does not matter (302.6)."""

    artifacts: tuple[str, ...]


def _has(spell: Obj, kind: type) -> bool:
    return any(isinstance(ab, kind) and getattr(ab, "spells", None) is None for ab in spell.base.abilities)


def granted_keywords(state: State, caster: str, spell: Obj) -> tuple[type, ...]:
    """(Improvise,) when a permanent the caster controls gives the spell improvise (`improvise`
    with `spells`: Inspiring Statuary, nonartifact spells you cast), else ()."""
    c = None
    for o in state.in_zone("battlefield"):
        if o.controller != caster:
            continue
        for ab in chars(state, o).abilities:
            if isinstance(ab, Improvise) and ab.spells is not None:
                c = c or chars(state, spell)
                if matches(c, spell, ab.spells, o.controller, o.id):
                    return (Improvise,)
    return ()


def object_payment(spell: Obj, delve: Sequence[str], improvise: Sequence[str], total: ConcreteCost,
                   trace: Trace, granted: tuple[type, ...] = ()) -> tuple[tuple[DelvePart | ImprovisePart, ...], ConcreteCost]:
    """601.2h with delve or improvise: the parts that pay with objects, and the mana left to
    pay. The spell must have the keyword (its own, or `granted` by a permanent), an object is
    named once, and together they pay at most the locked total's generic mana (702.66a,
    702.126a). Raises Illegal."""
    parts: list[DelvePart | ImprovisePart] = []
    for named, kind, part, word, rules_ in ((delve, Delve, DelvePart, "delve", DELVE_RULES),
                                            (improvise, Improvise, ImprovisePart, "improvise", IMPROVISE_RULES)):
        if not named:
            continue
        if not _has(spell, kind) and kind not in granted:
            raise Illegal(Reason.INVALID_OBJECT_PAYMENT, f"{spell.base.name} has no {word}: nothing may pay its cost "
                                                         "in its place", rules=rules_[:1])
        if len(set(named)) != len(named):
            raise Illegal(Reason.INVALID_OBJECT_PAYMENT, f"an object is named twice for {word}: each pays once",
                          rules=rules_[:1])
        parts.append(part(tuple(named)))
    count = len(delve) + len(improvise)
    if not parts:
        return (), total
    if count > total.generic:
        raise Illegal(Reason.INVALID_OBJECT_PAYMENT,
                      f"{count} object(s) named to pay generic mana, but the locked total {concrete_text(total)} has "
                      f"only {total.generic} generic mana: they pay no coloured or colourless mana",
                      rules=("601.2h", *(DELVE_RULES if delve else ()), *(IMPROVISE_RULES if improvise else ())))
    rest = replace(total, generic=total.generic - count)
    trace.add(("601.2h", *(DELVE_RULES if delve else ()), *(IMPROVISE_RULES if improvise else ())),
              f"the locked total {concrete_text(total)} stays; {count} generic mana of it is paid with objects, "
              f"{concrete_text(rest)} with mana")
    return tuple(parts), rest


def check_delve(state: State, part: DelvePart, player: str, spell: str) -> None:
    """702.66a: each is a card in the payer's own graveyard (not the spell itself)."""
    for oid in part.cards:
        obj = state.objects.get(oid)
        if obj is None or obj.zone != "graveyard" or obj.owner != player or obj.kind is not CARD or oid == spell:
            where = "gone" if obj is None else f"in {obj.owner}'s {obj.zone}"
            raise Illegal(Reason.INVALID_OBJECT_PAYMENT, f"{oid} is not a card in {player}'s graveyard ({where}): "
                                                         "delve exiles cards from its caster's graveyard",
                          rules=("702.66a", "601.2h"))


def pay_delve(state: State, part: DelvePart, trace: Trace) -> State:
    for oid in part.cards:
        state = move(state, oid, "exile", trace, note="exiled for delve, paying {1}", rules=("702.66a", "601.2h"))
    return state


def check_improvise(state: State, part: ImprovisePart, player: str) -> None:
    """702.126a: each is an untapped artifact the payer controls (summoning sickness is no
    matter: improvise is not a {T} cost, 302.6)."""
    for oid in part.artifacts:
        obj = state.objects.get(oid)
        if (obj is None or obj.zone != "battlefield" or obj.controller != player or obj.tapped
                or not chars(state, obj).is_("Artifact")):
            why = "tapped" if obj is not None and obj.tapped else "not an artifact permanent it controls"
            raise Illegal(Reason.INVALID_OBJECT_PAYMENT, f"{oid} can't be tapped for improvise: {why} "
                                                         f"({player} taps untapped artifacts they control)",
                          rules=("702.126a", "601.2h"))


def tap_for_improvise(state: State, part: ImprovisePart, trace: Trace) -> State:
    state = state.with_objs(replace(state.obj(oid), tapped=True) for oid in part.artifacts)
    trace.add(("702.126a", "601.2h"), f"tapped for improvise, each paying {{1}}: {', '.join(part.artifacts)}")
    return state
