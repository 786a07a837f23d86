"""Drawing one cast with every choice (601.2b-h): alternative and additional costs, prototype,
X, hybrid and Phyrexian choices, targets and division, reduction order, the payment plan.
Choices are drawn mostly legal, sometimes not, so illegal casts are generated too. One small
function per group of choices, drawn in a fixed order (a seed gives the same case)."""

from __future__ import annotations

from typing import Any

from castrules.harness import generate_strategies as st

from castrules.harness.generate_catalog import CardInfo, hybrid_halves, is_phyrexian, symbols
from castrules.harness.generate_table import Builder, activation, chance, target


def draw_cast(draw, b: Builder, oid: str, me: str) -> dict:
    info = b.card(oid)
    cast: dict[str, Any] = {"player": me, "object": oid}
    if chance(draw, 6):
        cast["from"] = draw(st.sampled_from(("hand", "hand", "graveyard")))
    alt = _alternative(draw, b, info, cast)
    prototyped, kicked = _prototype_and_kicker(draw, b, info, cast)
    _sacrifices(draw, b, info, cast)
    _mana_choices(draw, b, info, cast, _paid_cost(info, alt, prototyped), kicked)
    _targets(draw, b, info, cast, me)
    _reductions(draw, b, cast)
    _payment(draw, b, cast, me)
    return cast


def _alternative(draw, b: Builder, info: CardInfo, cast: dict) -> Any:
    alternatives = ["prowl"] if info.prowl else []
    alternatives += ["without_paying_mana_cost"] + [a for a in info.alternative_costs
                                                    if a in ("evoke", "test_alternative")]
    alt: Any = None
    attacked = any("attack" in step for step in b.steps)
    free = any("cast_permission" in b.pools.cards[o["card"]].abilities for o in b.objects if o["zone"] == "battlefield")
    if info.prowl and chance(draw, 2 if attacked else 6):
        alt = "prowl"
    elif free and chance(draw, 3):
        alt = "without_paying_mana_cost"
    elif chance(draw, 12):
        alt = draw(st.sampled_from(("prowl", "without_paying_mana_cost", "evoke", *alternatives)))
    elif chance(draw, 15):
        alt = draw(st.lists(st.sampled_from(("prowl", "without_paying_mana_cost", "evoke")), min_size=1, max_size=2))
    if alt is not None:
        cast["alternative_cost"] = alt
        b.features.add("alternative_cost")
        if "prowl" in (alt if isinstance(alt, list) else [alt]):
            b.features.add("prowl")
        permissions = [o["id"] for o in b.objects if o["zone"] == "battlefield"
                       and "cast_permission" in b.pools.cards[o["card"]].abilities]
        if permissions and draw(st.booleans()):
            cast["permission"] = draw(st.sampled_from(permissions))
    return alt


def _prototype_and_kicker(draw, b: Builder, info: CardInfo, cast: dict) -> tuple[bool, bool]:
    prototyped = False
    if info.prototype_cost and draw(st.booleans()) or chance(draw, 26):
        prototyped = draw(st.booleans()) if not info.prototype_cost else True
        cast["prototype"] = prototyped
        b.features.add("prototype")
    elif info.prototype_cost and draw(st.booleans()):
        cast["prototype"] = False
    kicked = False
    if info.kicker and draw(st.booleans()) or chance(draw, 31):
        kicked = cast["kicker"] = True
        b.features.add("additional_cost")
    return prototyped, kicked


def _sacrifices(draw, b: Builder, info: CardInfo, cast: dict) -> None:
    if info.sacrifices or chance(draw, 21):
        creatures = b.on_battlefield(creatures=True) or b.on_battlefield()
        if creatures:
            n = info.sacrifices if not chance(draw, 6) else draw(st.integers(0, 2))
            cast["sacrifice"] = draw(st.lists(st.sampled_from(creatures), min_size=min(n, len(creatures)),
                                              max_size=min(n, len(creatures)), unique=True))
            b.features.add("additional_cost")


def _paid_cost(info: CardInfo, alt: Any, prototyped: bool) -> str:
    """The mana cost being paid, which decides the X, hybrid and Phyrexian choices."""
    single = alt if not isinstance(alt, list) else (alt[0] if len(alt) == 1 else None)
    if single == "prowl" and info.prowl:
        return info.prowl
    if single is not None:
        return ""
    return info.prototype_cost if prototyped and info.prototype_cost else (info.mana_cost or "")


def _mana_choices(draw, b: Builder, info: CardInfo, cast: dict, paid: str, kicked: bool) -> None:
    syms = symbols(paid) + (symbols(info.kicker) if kicked else [])
    all_syms = symbols(info.mana_cost) + symbols(info.prototype_cost)
    if "X" in all_syms:
        b.features.add("x")
    if "X" in syms:
        if not chance(draw, 12):
            cast["x"] = draw(st.integers(0, 4))
        elif chance(draw, 2):
            cast["x"] = -1
    elif chance(draw, 16):
        cast["x"] = draw(st.integers(0, 2))
    phyrexian_syms = [s for s in syms if is_phyrexian(s)]
    if any(is_phyrexian(s) for s in all_syms):
        b.features.add("phyrexian")
    if any(hybrid_halves(s) for s in all_syms):
        b.features.add("hybrid")
    phy: list[str] | None = None
    if phyrexian_syms and draw(st.booleans()) or chance(draw, 26):
        n = len(phyrexian_syms) if not chance(draw, 7) else draw(st.integers(0, 2))
        phy = draw(st.lists(st.sampled_from(("mana", "life")), min_size=n, max_size=n))
        cast["phyrexian"] = phy
    hybrid_syms = _hybrid_symbols(syms, phy or [])
    if hybrid_syms and draw(st.booleans()) or chance(draw, 26):
        if not chance(draw, 7):
            cast["hybrid"] = [draw(st.sampled_from(h)) for h in hybrid_syms]
        else:
            cast["hybrid"] = draw(st.lists(st.sampled_from(("W", "U", "B", "R", "G", "C", "2")), max_size=3))


def _hybrid_symbols(syms: list[str], phyrexian_choices: list[str]) -> list[tuple[str, ...]]:
    """The halves of each hybrid symbol still to choose (a Phyrexian hybrid paid with life has none)."""
    out = []
    choices = iter(phyrexian_choices)
    for s in syms:
        halves = hybrid_halves(s)
        if is_phyrexian(s):
            choice = next(choices, "mana")
            if halves and choice == "mana":
                out.append(halves)
        elif halves:
            out.append(halves)
    return out


def _targets(draw, b: Builder, info: CardInfo, cast: dict, me: str) -> None:
    if not (info.targets or chance(draw, 21)):
        return
    targets = [target(draw, b, what, me) for what in info.targets]
    if chance(draw, 11):
        targets = targets[:-1] if targets and draw(st.booleans()) else targets + [target(draw, b, "any", me)]
    cast["targets"] = [t for t in targets if t is not None]
    b.features.add("targets")
    if info.divide and cast["targets"] and not chance(draw, 5):
        chosen = list(dict.fromkeys(cast["targets"]))
        amounts = [1] * len(chosen)
        for _ in range(max(0, info.divide - len(chosen))):
            amounts[draw(st.integers(0, len(chosen) - 1))] += 1
        if chance(draw, 6):
            amounts[0] += draw(st.sampled_from((-1, 1)))
        cast["division"] = dict(zip(chosen, amounts))


def _reductions(draw, b: Builder, cast: dict) -> None:
    reducers = [o["id"] for o in b.objects if o["zone"] == "battlefield"
                and "cost_modifier" in b.pools.cards[o["card"]].abilities]
    if reducers and chance(draw, 4):
        order = draw(st.lists(st.sampled_from(reducers), max_size=len(reducers), unique=True))
        cast["reductions"] = [{"source": r, **({"choice": draw(st.sampled_from(("2", "W", "B", "R", "G", "C")))}
                                                 if draw(st.booleans()) else {})} for r in order]


def _payment(draw, b: Builder, cast: dict, me: str) -> None:
    mine = [oid for oid in b.on_battlefield(me) if b.card(oid).mana_abilities]
    plan = draw(st.sampled_from(("default", "default", "listed", "listed", "auto", "auto_listed")))
    if plan in ("listed", "auto_listed") and mine:
        chosen = draw(st.lists(st.sampled_from(mine), max_size=len(mine), unique=True))
        cast["mana_abilities"] = [activation(draw, b, x) for x in chosen]
        b.features.add("mana_abilities")
        if plan == "auto_listed":
            cast["pay"] = "auto"
        elif draw(st.booleans()):
            cast["pay"] = "listed"
    elif plan == "auto":
        cast["pay"] = "auto"
    elif plan == "listed":
        cast["pay"] = "listed"
