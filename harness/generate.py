"""Generated cases: hypothesis strategies building valid case documents over the catalog.

``case_documents(catalog, features)`` draws a whole case: players and turn, cost modifiers,
mana sources in every state (tapped, summoning sick), creatures for combat (Rogues,
changelings, others), a combat-damage history (attack, block, combat damage, then the source
destroyed, bounced or retyped; noncombat damage; a new turn), mana abilities activated
beforehand, and one or two casts with every choice drawn: alternative costs (prowl, without
paying, two at once), prototype, kicker, sacrifices, X, hybrid and Phyrexian choices,
targets, reduction order, listed or automatic payment; then resolving and copying. Choices
are drawn mostly legal, sometimes not, so illegal casts and rewinds are exercised too.

The documents validate against schema/case.schema.json and pass ``harness.checks`` (a test
says so). Their only expectation is a placeholder that holds by construction; ``castrules
fuzz`` replaces it with observations. Knows nothing of the rules: it reads the catalog's data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from hypothesis import strategies as st

from castrules.harness.catalog import Catalog
from castrules.harness.contract import load_contract, needs

PLAYERS = ("A", "B", "C")
MANA_LETTERS = ("W", "U", "B", "R", "G", "C")
CREATURE_TYPES = ("Rogue", "Elf", "Goblin", "Dinosaur", "Faerie", "Bear", "Human", "Wizard")
GENERATED_RULES = ["601.2"]
_SYMBOL = re.compile(r"\{([^{}]*)\}")


# ---- what the catalog offers -----------------------------------------------------------------

def _abilities(card: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [a for a in card.get("abilities") or () if isinstance(a, Mapping)]


def _cost_parts(cost: Any) -> set[str]:
    """{"tap", "untap", "mana", "sacrifice"...} for a mana ability's cost, string or mapping."""
    if isinstance(cost, str):
        out = set()
        for sym in _SYMBOL.findall(cost):
            out.add({"T": "tap", "Q": "untap"}.get(sym, "mana"))
        return out
    if isinstance(cost, Mapping):
        return {k for k, v in cost.items() if v}
    return set()


def symbols(cost: str | None) -> list[str]:
    return _SYMBOL.findall(cost or "")


def hybrid_halves(sym: str) -> tuple[str, ...]:
    """The 601.2b halves of a hybrid symbol ('W/U' -> W, U; '2/W' -> 2, W); () otherwise."""
    parts = sym.split("/")
    if parts[-1] == "P":
        parts = parts[:-1]
    return tuple(parts) if len(parts) == 2 else ()


def is_phyrexian(sym: str) -> bool:
    return sym.endswith("/P")


@dataclass(frozen=True)
class CardInfo:
    name: str
    types: frozenset[str]
    mana_cost: str | None
    prototype_cost: str | None
    prowl: str | None
    kicker: str | None
    targets: tuple[str, ...]             # per target: player / opponent / creature / permanent / any / spell
    sacrifices: int
    mana_abilities: tuple[frozenset[str], ...] = ()   # per mana ability: cost parts (+ "choice" if it needs a produce)
    abilities: frozenset[str] = frozenset()           # kinds of its abilities
    keywords: frozenset[str] = frozenset()
    alternative_costs: tuple[str, ...] = ()
    divide: int = 0                                   # the amount a spell divides among its targets (601.2d)

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def castable(self) -> bool:
        return "Land" not in self.types and (self.mana_cost is not None or self.prototype_cost is not None)


def card_info(card: Mapping[str, Any]) -> CardInfo:
    type_line = str(card.get("type_line", ""))
    types = frozenset(type_line.split("—")[0].split())
    proto = card.get("prototype")
    targets = tuple(str(t.get("what", "any")) for t in card.get("targets") or () if isinstance(t, Mapping))
    sacrifices = sum(int(a.get("count", 1)) if isinstance(a, Mapping) else 1 for a in card.get("additional_costs") or ())
    mana: list[frozenset[str]] = []
    for ab in _abilities(card):
        if ab.get("kind") != "mana":
            continue
        parts = _cost_parts(ab.get("cost"))
        add = ab.get("add")
        if not isinstance(add, str) or "/" in add:
            parts.add("choice")
        mana.append(frozenset(parts))
    alternatives = card.get("alternative_costs") or {}
    return CardInfo(
        name=str(card["name"]), types=types, mana_cost=card.get("mana_cost"),
        prototype_cost=proto.get("mana_cost") if isinstance(proto, Mapping) else None,
        prowl=card.get("prowl"), kicker=card.get("kicker"), targets=targets, sacrifices=sacrifices,
        mana_abilities=tuple(mana), abilities=frozenset(str(a.get("kind")) for a in _abilities(card)),
        keywords=frozenset(str(k).lower() for k in card.get("keywords") or ()),
        alternative_costs=tuple(alternatives) if isinstance(alternatives, Mapping) else (),
        divide=card.get("divide") if isinstance(card.get("divide"), int) else 0)


_SYMBOL_YZ = re.compile(r"\{[YZ]\}")   # 107.3p variables: the generator announces only x
                                         # (cards with text_x, 107.3c/f, are left out too)

_MULTI_FACE = frozenset({"halves", "back_face", "meld"})   # cards with several faces (202.3b-d) and
_GRANTS_OR_DELAYS = re.compile(r"'(grant_ability|delayed|suspend|reveal|cast_if_able"
                               r"|flash_permission|conditional_flash)'")  # gained abilities / delayed
# triggers are left out, and cards needing steps or choices the generator doesn't make (suspend, a
# special action; reveal costs; effects that instruct a cast on resolution; flash permissions, whose
# extra cost (601.3c) the generator doesn't announce)

_POOLS: dict[int, tuple[Catalog, "Pools"]] = {}


@dataclass(frozen=True)
class Pools:
    """The catalog sorted by role."""

    cards: Mapping[str, CardInfo]
    spells: tuple[str, ...]
    modifiers: tuple[str, ...]         # static abilities that change costs, types, mana, permissions
    sources: tuple[str, ...]           # permanents with mana abilities
    creatures: tuple[str, ...]
    rogues: tuple[str, ...]            # creatures of a type prowl cards care about, and changelings

    @classmethod
    def of(cls, catalog: Catalog) -> "Pools":
        cached = _POOLS.get(id(catalog))
        if cached is not None and cached[0] is catalog:
            return cached[1]
        pools = cls._build(catalog)
        _POOLS[id(catalog)] = (catalog, pools)
        return pools

    @classmethod
    def _build(cls, catalog: Catalog) -> "Pools":
        infos = {name: card_info(card) for name, card in sorted(catalog.cards.items())
                 if isinstance(card, Mapping) and "modes" not in card and "text_x" not in card
                 and not _SYMBOL_YZ.search(str(card.get("mana_cost") or ""))
                 and not _MULTI_FACE.intersection(card) and not _GRANTS_OR_DELAYS.search(str(card))}
        static = {"cost_modifier", "cost_floor", "cast_permission", "type_change", "grant_prowl",
                  "mana_replacement", "keyword_grant", "cast_prohibition"}
        spells = tuple(n for n, i in infos.items() if i.castable)
        modifiers = tuple(n for n, i in infos.items() if i.abilities & static and not i.is_creature)
        sources = tuple(n for n, i in infos.items() if i.mana_abilities)
        creatures = tuple(n for n, i in infos.items() if i.is_creature and i.mana_cost is not None)
        prowl_types = {"Rogue", "Dinosaur"}
        rogues = tuple(n for n in creatures
                       if prowl_types & set(str(catalog.cards[n].get("type_line", "")).split())
                       or "changeling" in infos[n].keywords)
        return cls(infos, spells, modifiers, sources, creatures, rogues or creatures)


# ---- drawing a case ----------------------------------------------------------------------------

@dataclass
class _Builder:
    pools: Pools
    players: list[str]
    objects: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    choices: dict = field(default_factory=dict)
    features: set[str] = field(default_factory=set)
    counter: int = 0

    def new_id(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def add(self, card: str, zone: str, player: str, prefix: str, **state: Any) -> str:
        oid = self.new_id(prefix)
        obj = {"id": oid, "card": card, "zone": zone}
        obj["controller" if zone == "battlefield" else "owner"] = player
        obj.update({k: v for k, v in state.items() if v})
        self.objects.append(obj)
        return oid

    def on_battlefield(self, player: str | None = None, creatures: bool | None = None) -> list[str]:
        out = []
        for o in self.objects:
            if o["zone"] != "battlefield" or (player and o.get("controller") != player):
                continue
            if creatures is not None and self.pools.cards[o["card"]].is_creature != creatures:
                continue
            out.append(o["id"])
        return out

    def card(self, oid: str) -> CardInfo:
        return self.pools.cards[next(o["card"] for o in self.objects if o["id"] == oid)]


def chance(draw, n: int) -> bool:
    """True with probability 1/n; shrinks to False (the common, simpler path)."""
    return draw(st.integers(0, n - 1)) == 1


def _pool_text(draw, max_size: int) -> str:
    letters = draw(st.lists(st.sampled_from(MANA_LETTERS), max_size=max_size))
    return "".join("{%s}" % t for t in sorted(letters, key=MANA_LETTERS.index))


@st.composite
def case_documents(draw, catalog: Catalog, vocabulary_features: Iterable[str] = (), case_id: str = "fuzz/generated/case") -> dict:
    """One valid case document over `catalog` (see the module docstring)."""
    pools = Pools.of(catalog)
    n_players = draw(st.sampled_from((2, 2, 2, 3)))
    names = list(PLAYERS[:n_players])
    b = _Builder(pools, names)
    me, foe = "A", "B"
    players: dict[str, dict] = {}
    for name in names:
        entry: dict[str, Any] = {}
        if chance(draw, 5):
            entry["life"] = draw(st.integers(1, 20))
        pool = _pool_text(draw, 8 if name == me else 2) if draw(st.booleans()) else ""
        if pool:
            entry["mana_pool"] = pool
            b.features.add("mana_pool")
        players[name] = entry
    step = "precombat_main"
    if chance(draw, 6):
        step = draw(st.sampled_from(("postcombat_main", "beginning_of_combat", "end")))

    # permanents: modifiers, mana sources, creatures
    for card in draw(st.lists(st.sampled_from(pools.modifiers), max_size=3)) if pools.modifiers else ():
        oid = b.add(card, "battlefield", draw(st.sampled_from((me, me, foe))), "mod", tapped=draw(st.booleans()) and draw(st.booleans()))
        info = pools.cards[card]
        if "type_change" in info.abilities and not chance(draw, 4):
            b.choices[oid] = {"creature_type": draw(st.sampled_from(CREATURE_TYPES))}
    for card in draw(st.lists(st.sampled_from(pools.sources), max_size=6)) if pools.sources else ():
        b.add(card, "battlefield", draw(st.sampled_from((me,) * 5 + (foe,))), "src",
              tapped=chance(draw, 5), summoning_sick=chance(draw, 4))
    for card in draw(st.lists(st.sampled_from(pools.rogues), max_size=2)) if pools.rogues else ():
        b.add(card, "battlefield", draw(st.sampled_from((me, me, me, foe))), "cr",
              summoning_sick=chance(draw, 6))
    for card in draw(st.lists(st.sampled_from(pools.creatures), max_size=2)) if pools.creatures else ():
        b.add(card, "battlefield", draw(st.sampled_from((me, foe))), "cr",
              summoning_sick=chance(draw, 6), tapped=chance(draw, 7))
    # the spells
    hand = [b.add(card, "hand", me, "spell") for card in draw(st.lists(st.sampled_from(pools.spells), min_size=1, max_size=2))]
    if not chance(draw, 4):
        _lands_for(draw, b, b.card(hand[0]), me)
    if chance(draw, 10):
        hand.append(b.add(draw(st.sampled_from(pools.spells)), draw(st.sampled_from(("graveyard", "exile", "library"))), me, "spell"))
    if chance(draw, 10):
        hand.append(b.add(draw(st.sampled_from(pools.spells)), "hand", foe, "spell"))

    # a history before the cast
    if step == "precombat_main" and draw(st.booleans()):
        _combat(draw, b, me, foe)
    if chance(draw, 8):
        sources = [o["id"] for o in b.objects if o["zone"] == "battlefield"]
        if sources:
            b.steps.append({"deal_damage": {"source": draw(st.sampled_from(sources)), "to": foe,
                                            "amount": draw(st.integers(0, 3))}})
    if chance(draw, 13):
        b.steps.append({"next_turn": {}})
        if not chance(draw, 4):
            b.steps.append({"next_turn": {}})
    for _ in range(draw(st.integers(0, 2)) if chance(draw, 4) else 0):
        mine = [oid for oid in b.on_battlefield(me) if b.card(oid).mana_abilities]
        if mine:
            b.steps.append({"activate_mana": _activation(draw, b, draw(st.sampled_from(mine)), player=me)})
            b.features.update({"mana_abilities", "mana_pool"})

    # the casts
    for oid in draw(st.lists(st.sampled_from(hand), min_size=1, max_size=2, unique=True)):
        b.steps.append({"cast": _cast(draw, b, oid, me)})
        b.features.update({"casting", "timing", "total_cost", "payment", "illegal_rewind"})
        if not chance(draw, 3):
            _after_cast(draw, b, oid)

    _card_features(b)
    known = set(vocabulary_features)
    features = sorted(f for f in b.features if not known or f in known) or ["casting"]
    setup: dict[str, Any] = {"players": players, "turn": {"active": me, "step": step, "number": 1},
                             "objects": b.objects}
    if b.choices:
        setup["choices"] = b.choices
    doc = {
        "id": case_id,
        "title": "Generated case over the catalog",
        "rules": list(GENERATED_RULES),
        "features": features,
        "why": "Generated by castrules fuzz: the expectation is a placeholder that holds by construction.",
        "setup": setup,
        "steps": b.steps,
        "expect": [{"after": 0, "players": {me: {"life": players[me].get("life", 20)}}}],
    }
    # what the case's steps and expectations need by the observation contract (auto payment...)
    needed = {n.feature for n in needs(doc, load_contract())}
    doc["features"] = sorted(set(features) | {f for f in needed if not known or f in known})
    return doc


BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest", "C": "Wastes"}


def _lands_for(draw, b: _Builder, info: CardInfo, me: str) -> None:
    """Basic lands that (about) pay the spell's mana cost or prototype cost, so that most casts
    can be paid: one land per coloured symbol (a hybrid one: either colour), generic from any."""
    cost = info.prototype_cost if info.prototype_cost and draw(st.booleans()) else (info.mana_cost or "")
    letters: list[str] = []
    for sym in symbols(cost):
        if sym.isdigit():
            letters += [draw(st.sampled_from(tuple(BASICS)))] * min(int(sym), 8)
        elif sym == "X":
            letters += [draw(st.sampled_from(tuple(BASICS)))] * draw(st.integers(0, 2))
        else:
            options = [p for p in sym.split("/") if p in BASICS] or list(BASICS)
            letters.append(draw(st.sampled_from(options)))
    for letter in letters:
        if BASICS[letter] in b.pools.cards:
            b.add(BASICS[letter], "battlefield", me, "land")


def _combat(draw, b: _Builder, me: str, foe: str) -> None:
    mine = b.on_battlefield(me, creatures=True)
    if not mine:
        return
    attackers = draw(st.lists(st.sampled_from(mine), min_size=1, max_size=len(mine), unique=True))
    b.steps.append({"attack": {"player": me, "attackers": attackers, "defender": foe}})
    b.features.add("combat")
    theirs = b.on_battlefield(foe, creatures=True)
    if theirs and draw(st.booleans()):
        blockers = draw(st.lists(st.sampled_from(theirs), min_size=1, max_size=len(theirs), unique=True))
        b.steps.append({"block": {"player": foe, "blockers": {x: draw(st.sampled_from(attackers)) for x in blockers}}})
    if not chance(draw, 6):
        b.steps.append({"combat_damage": {}})
    after = draw(st.sampled_from((None, None, "destroy", "return_to_hand", "exile", "blink", "change_types",
                                  "change_control")))
    if after is not None:
        target = draw(st.sampled_from(attackers))
        if after == "change_types":
            mode = draw(st.sampled_from(("set", "add", "remove_all")))
            body: dict[str, Any] = {"object": target, "mode": mode}
            if mode != "remove_all":
                body["creature_types"] = draw(st.lists(st.sampled_from(CREATURE_TYPES), min_size=1, max_size=2, unique=True))
            b.steps.append({"change_types": body})
            b.features.add("type_change")
        elif after == "change_control":
            b.steps.append({"change_control": {"object": target, "to": foe}})
            b.features.add("control_change")
        else:
            b.steps.append({after: {"object": target}})
            b.features.update({"zone_change", "lki"})
    b.steps.append({"move_to": {"step": draw(st.sampled_from(("end_of_combat", "end"))) if chance(draw, 6)
                                else "postcombat_main"}})


def _activation(draw, b: _Builder, oid: str, player: str | None = None) -> dict:
    info = b.card(oid)
    index = draw(st.integers(0, len(info.mana_abilities) - 1)) if info.mana_abilities else 0
    out: dict[str, Any] = {"object": oid}
    if player:
        out = {"player": player, **out}
    if index or chance(draw, 5):
        out["ability"] = index
    parts = info.mana_abilities[index] if info.mana_abilities else frozenset()
    if "choice" in parts and not chance(draw, 4) or chance(draw, 16):
        out["produce"] = draw(st.sampled_from(MANA_LETTERS))
    if "untap" in parts:
        b.features.add("untap_symbol")
    return out


def _cast(draw, b: _Builder, oid: str, me: str) -> dict:
    info = b.card(oid)
    cast: dict[str, Any] = {"player": me, "object": oid}
    if chance(draw, 6):
        cast["from"] = draw(st.sampled_from(("hand", "hand", "graveyard")))
    # alternative costs
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
    # sacrifices
    if info.sacrifices or chance(draw, 21):
        creatures = b.on_battlefield(creatures=True) or b.on_battlefield()
        if creatures:
            n = info.sacrifices if not chance(draw, 6) else draw(st.integers(0, 2))
            cast["sacrifice"] = draw(st.lists(st.sampled_from(creatures), min_size=min(n, len(creatures)),
                                              max_size=min(n, len(creatures)), unique=True))
            b.features.add("additional_cost")
    # the cost being paid decides X, hybrid and Phyrexian choices
    single = alt if not isinstance(alt, list) else (alt[0] if len(alt) == 1 else None)
    if single == "prowl" and info.prowl:
        paid = info.prowl
    elif single is not None:
        paid = ""
    else:
        paid = info.prototype_cost if prototyped and info.prototype_cost else (info.mana_cost or "")
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
    hybrid_syms = []
    phy_iter = iter(phy or [])
    for s in syms:
        halves = hybrid_halves(s)
        if is_phyrexian(s):
            choice = next(phy_iter, "mana")
            if halves and choice == "mana":
                hybrid_syms.append(halves)
        elif halves:
            hybrid_syms.append(halves)
    if hybrid_syms and draw(st.booleans()) or chance(draw, 26):
        if not chance(draw, 7):
            cast["hybrid"] = [draw(st.sampled_from(h)) for h in hybrid_syms]
        else:
            cast["hybrid"] = draw(st.lists(st.sampled_from(("W", "U", "B", "R", "G", "C", "2")), max_size=3))
    # targets
    if info.targets or chance(draw, 21):
        targets = [_target(draw, b, what, me) for what in info.targets]
        if chance(draw, 11):
            targets = targets[:-1] if targets and draw(st.booleans()) else targets + [_target(draw, b, "any", me)]
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
    # reduction order and choices
    reducers = [o["id"] for o in b.objects if o["zone"] == "battlefield"
                and "cost_modifier" in b.pools.cards[o["card"]].abilities]
    if reducers and chance(draw, 4):
        order = draw(st.lists(st.sampled_from(reducers), max_size=len(reducers), unique=True))
        cast["reductions"] = [{"source": r, **({"choice": draw(st.sampled_from(("2", "W", "B", "R", "G", "C")))}
                                                 if draw(st.booleans()) else {})} for r in order]
    # payment
    mine = [oid for oid in b.on_battlefield(me) if b.card(oid).mana_abilities]
    plan = draw(st.sampled_from(("default", "default", "listed", "listed", "auto", "auto_listed")))
    if plan in ("listed", "auto_listed") and mine:
        chosen = draw(st.lists(st.sampled_from(mine), max_size=len(mine), unique=True))
        cast["mana_abilities"] = [_activation(draw, b, x) for x in chosen]
        b.features.add("mana_abilities")
        if plan == "auto_listed":
            cast["pay"] = "auto"
        elif draw(st.booleans()):
            cast["pay"] = "listed"
    elif plan == "auto":
        cast["pay"] = "auto"
    elif plan == "listed":
        cast["pay"] = "listed"
    return cast


def _target(draw, b: _Builder, what: str, me: str) -> str | None:
    creatures = b.on_battlefield(creatures=True)
    permanents = b.on_battlefield()
    if what == "opponent":
        options = [p for p in b.players if p != me] + [me]
    elif what == "player":
        options = list(b.players)
    elif what == "creature":
        options = creatures or permanents
    elif what == "permanent":
        options = permanents
    else:
        options = list(b.players) + creatures
    return draw(st.sampled_from(options)) if options else None


def _after_cast(draw, b: _Builder, oid: str) -> None:
    roll = draw(st.integers(0, 5))
    if roll <= 1 or chance(draw, 2):
        b.steps.append({"resolve": {}})
        b.features.add("resolution")
        if roll == 1 and draw(st.booleans()):
            new = b.new_id("tok")
            b.steps.append({"copy_permanent": {"object": oid, "new_id": new}})
            b.features.add("copy")
    elif roll == 2:
        new = b.new_id("copy")
        b.steps.append({"copy_spell": {"object": oid, "new_id": new}})
        b.features.add("copy")
        if draw(st.booleans()):
            b.steps.append({"resolve": {}})
            b.features.add("resolution")
    elif roll == 3:
        b.steps.append({"exile": {"object": oid}})
        b.features.add("zone_change")
    elif roll == 4:
        b.steps.append({"move_to": {"step": "end"}})


def _card_features(b: _Builder) -> None:
    """Features an engine needs for the cards on the table."""
    if len(b.players) > 2:
        b.features.add("multiplayer")
    for o in b.objects:
        info = b.pools.cards[o["card"]]
        kinds = info.abilities
        if "cost_modifier" in kinds:
            b.features.update({"cost_reduction", "cost_increase"})
        if "cost_floor" in kinds:
            b.features.add("cost_floor")
        if "type_change" in kinds:
            b.features.add("type_change")
        if "changeling" in info.keywords or info.name in ("Maskwood Nexus", "Mutavault"):
            b.features.add("changeling")
        if "mana_replacement" in kinds:
            b.features.add("mana_replacement")
        if "mana_trigger" in kinds or "triggered" in kinds:
            b.features.add("mana_trigger")
        if "cast_permission" in kinds:
            b.features.add("alternative_cost")
        if o.get("summoning_sick") or (o["zone"] == "battlefield" and info.is_creature and info.mana_abilities):
            b.features.add("summoning_sickness")
        if any("untap" in parts for parts in info.mana_abilities):
            b.features.add("untap_symbol")
        if info.mana_abilities and o["zone"] == "battlefield":
            b.features.update({"mana_abilities", "could_produce"})
        if info.prototype_cost:
            b.features.add("prototype")
        if info.prowl:
            b.features.add("prowl")
        if info.sacrifices or info.kicker:
            b.features.add("additional_cost")
        if info.targets:
            b.features.add("targets")


# ---- malformed documents (for testing the harness) -------------------------------------------

_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.text(max_size=8),
                  st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def malformed(draw, document: dict) -> Any:
    """`document` broken in one to three places: a key removed, a value of the wrong type, an
    unknown reference or card, an unknown key; sometimes replaced whole by junk."""
    import copy

    if chance(draw, 16):
        return draw(_JUNK)
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = draw(st.sampled_from(("delete", "junk", "unknown_ref", "unknown_key", "empty")))
        if action == "delete":
            del parent[key]
        elif action == "junk":
            parent[key] = draw(_JUNK)
        elif action == "unknown_ref":
            parent[key] = draw(st.sampled_from(("nosuch", "Z", "Nobody Card", "zz_trigger", "")))
        elif action == "empty":
            parent[key] = type(parent[key])() if isinstance(parent[key], (dict, list, str)) else None
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(("extra", "Expect", "object", "0")))] = draw(_JUNK)
    return doc


JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=6),
              st.sampled_from(("ok", "skipped", "errored", "legal", "{1}{B}", "stack", "gone"))),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(("status", "steps", "snapshots", "trace", "legal", "reason",
                                                                "total_cost", "players", "objects", "stack", "0", "1",
                                                                "zone", "life", "message", "x")) | st.text(max_size=4),
                                               children, max_size=5)),
    max_leaves=12)
