"""Card definitions built from plain catalog dicts (schema/card.schema.json).

The harness passes each catalog entry as a plain mapping; `parse_card` turns it into frozen
values the rules code can trust. Unknown ability kinds or effect names raise `RequestError`
(a malformed request), never a silent default.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .creature_types import CREATURE_TYPES
from .errors import RequestError

SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing"})
CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred",
              "Land", "Planeswalker", "Sorcery")
COLORS = ("W", "U", "B", "R", "G")


@dataclass(frozen=True)
class Filter:
    """Which objects (spells or permanents) an effect looks at. Empty = every object."""

    types: tuple[str, ...] = ()          # must have all of these card types
    types_any: tuple[str, ...] = ()      # must have at least one of these card types
    not_types: tuple[str, ...] = ()      # must have none of these card types
    colors: tuple[str, ...] = ()         # any of these colours
    not_colors: tuple[str, ...] = ()     # none of these colours
    subtypes: tuple[str, ...] = ()       # any of these subtypes (all creature types count)
    supertypes: tuple[str, ...] = ()     # all of these supertypes
    controller: str = "any"              # you / opponent / any (relative to the source)
    mana_value: str | None = None        # even / odd
    mana_value_min: int | None = None    # mana value at least / at most (X as announced on the stack)
    mana_value_max: int | None = None
    power_min: int | None = None         # power / toughness at least / at most (only objects that have them)
    power_max: int | None = None
    toughness_min: int | None = None
    toughness_max: int | None = None
    self_only: bool = False              # the object carrying the ability (affinity)


@dataclass(frozen=True)
class ManaCostParts:
    """A cost of an ability: {T}, {Q}, mana, life, sacrificing the source."""

    tap: bool = False
    untap: bool = False
    mana: str | None = None
    life: int = 0
    sacrifice_self: bool = False
    sacrifice: "Filter | None" = None        # sacrifice another permanent matching this


@dataclass(frozen=True)
class Produce:
    """What a mana ability adds. Exactly one shape is used:
    fixed mana (`mana`), one mana of a choice (`one_of`), one mana of a type other lands
    could produce (`could_produce_lands`, 106.7), or `amount_by` power of type `type`."""

    mana: str | None = None
    one_of: tuple[str, ...] = ()
    could_produce_lands: str | None = None   # "you" / "opponents"
    colors_only: bool = False
    amount_by: str | None = None             # "power"
    type: str | None = None


@dataclass(frozen=True)
class TargetSpec:
    """One target requirement (601.2c)."""

    what: str                     # player / opponent / creature / permanent / any / spell
    filter: Filter = Filter()
    up_to: bool = False
    per_opponent: bool = False    # one requirement per opponent, controlled by that opponent
    divided: bool = False         # the card's `divide` amount is split among these targets (601.2d)


@dataclass(frozen=True)
class Effect:
    """One instruction of a spell or ability effect, applied in order on resolution."""

    kind: str
    amount: int | str | None = None          # int, "X" or "power"
    target: int | str | None = None          # index into the targets, or "all"
    player: str | None = None                # you / target:N / each_opponent / target_controller:N
    counter: str | None = None
    power: int | None = None
    toughness: int | None = None
    types: tuple[str, ...] = ()
    all_creature_types: bool = False
    token: "CardDef | None" = None
    condition: str | None = None             # prowl_paid / not_prowl_paid / kicked / cast
    mana: str | None = None                  # add_mana: the mana added
    at: str | None = None                    # delayed: the step at whose beginning it triggers
    effects: "tuple[Effect, ...]" = ()        # delayed: what the delayed triggered ability does


@dataclass(frozen=True)
class Ability:
    """A static, activated, mana or triggered ability; `kind` picks which fields matter."""

    kind: str
    index: int = 0
    cost: ManaCostParts = ManaCostParts()
    produce: Produce | None = None
    effects: tuple[Effect, ...] = ()
    change: str | None = None                # increase / reduce
    amount: str | None = None                # a cost text such as "{1}" or "{R}"
    per: str | None = None                   # artifacts_you_control ...
    spells: Filter = Filter()
    permanents: Filter = Filter()
    whose: str = "you"                       # you / opponents / all
    while_: str | None = None                # untapped
    minimum: int = 0
    prowl_cost: str | None = None
    mode: str | None = None                  # set / add / all
    creature_type: str | None = None         # "chosen" or a type
    replace_with: str | None = None          # mana text for "produces X instead"
    multiply: int = 1
    produced: str | None = None
    add: str | None = None                   # "same" or a mana text
    to: str = "tapper"
    zones: tuple[str, ...] = ()
    without_paying: bool = False
    trigger: bool = True
    condition: str | None = None
    targets: tuple[TargetSpec, ...] = ()
    keyword: str | None = None
    players: str = "all"                     # cast_prohibition: whose casting is prohibited
    spend_only: "Filter | None" = None       # mana: its mana may be spent only on such spells (106.6)
    granted: "Ability | None" = None         # grant_ability: the activated ability matching permanents have (107.3j)
    flash_cost: str | None = None            # flash_permission: only if this extra cost is paid (601.3c)
    flash_alternative: str | None = None     # flash_permission: only if cast for this alternative cost (601.3c)


@dataclass(frozen=True)
class Prototype:
    mana_cost: str
    power: int
    toughness: int


@dataclass(frozen=True)
class AdditionalCost:
    """A mandatory additional cost listed on the card (118.8): sacrifice `count` permanents
    matching `sacrifice`, or reveal `count` cards matching `reveal` from your hand (a cost
    involving cards with a stated quality in a hidden zone, 118.8c)."""

    sacrifice: Filter | None
    count: int = 1
    reveal: Filter | None = None


@dataclass(frozen=True)
class Suspend:
    """Suspend N—cost (702.62a, a special action, 116.2f): exile the card from your hand with N
    time counters; `time_counters` is an int or "X" (the X chosen for the cost, 107.3d)."""

    cost: str
    time_counters: int | str


@dataclass(frozen=True)
class Modes:
    """A modal spell (700.2): choose `choose` different options as it is cast."""

    choose: int
    options: tuple[tuple[Effect, ...], ...]


@dataclass(frozen=True)
class TextX:
    """An X in the card's text that is not in any of its costs: defined by the text (107.3c:
    `count`, the number of permanents on the battlefield matching the filter, relative to the
    spell's controller) or chosen by its controller (107.3f: `choose` is "cast", announced as
    it is put on the stack, or "resolution", chosen as it resolves)."""

    count: Filter | None = None
    choose: str | None = None


@dataclass(frozen=True)
class CardDef:
    """The printed (copiable, 707.2) values of a card or token definition."""

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
    kicker: str | None = None
    alternative_costs: tuple[tuple[str, str], ...] = ()
    additional_costs: tuple[AdditionalCost, ...] = ()
    targets: tuple[TargetSpec, ...] = ()
    spell: tuple[Effect, ...] = ()
    abilities: tuple[Ability, ...] = ()
    modes: "Modes | None" = None
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


def _list(value: Any, what: str) -> list:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    raise RequestError(f"{what} must be a list, got {value!r}")


def _pt(value: Any, card: str) -> int | None:
    if value is None:
        return None
    try:
        return int(str(value))
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


def parse_filter(raw: Any, where: str) -> Filter:
    if raw is None:
        return Filter()
    if raw == "self":
        return Filter(self_only=True)
    if not isinstance(raw, Mapping):
        raise RequestError(f"{where}: a filter must be a mapping or 'self', got {raw!r}")
    known = {"types", "types_any", "not_types", "colors", "not_colors", "subtypes", "supertypes",
             "controller", "type", "subtype", "mana_value", "mana_value_min", "mana_value_max",
             "power_min", "power_max", "toughness_min", "toughness_max"}
    extra = set(raw) - known
    if extra:
        raise RequestError(f"{where}: unknown filter fields {sorted(extra)}")
    return Filter(
        types=tuple(raw.get("types", ())) + ((raw["type"],) if "type" in raw else ()),
        types_any=tuple(raw.get("types_any", ())),
        not_types=tuple(raw.get("not_types", ())), colors=tuple(raw.get("colors", ())),
        not_colors=tuple(raw.get("not_colors", ())),
        subtypes=tuple(raw.get("subtypes", ())) + ((raw["subtype"],) if "subtype" in raw else ()),
        mana_value=raw.get("mana_value"),
        **{k: int(raw[k]) for k in ("mana_value_min", "mana_value_max", "power_min", "power_max", "toughness_min",
                                    "toughness_max") if raw.get(k) is not None},
        supertypes=tuple(raw.get("supertypes", ())), controller=raw.get("controller", "any"))


def parse_cost_parts(raw: Any, where: str) -> ManaCostParts:
    if raw is None:
        return ManaCostParts()
    if isinstance(raw, str):
        # the printed form: "{T}", "{1}, {T}", "{1}{W}, {Q}" (107.5, 107.6)
        import re
        symbols = re.findall(r"\{[^{}]+\}", raw)
        rest = re.sub(r"\{[^{}]+\}|[,\s]", "", raw)
        if rest:
            raise RequestError(f"{where}: cost text {raw!r} may hold only symbols")
        mana = "".join(s for s in symbols if s not in ("{T}", "{Q}"))
        return ManaCostParts(tap="{T}" in symbols, untap="{Q}" in symbols, mana=mana or None)
    if not isinstance(raw, Mapping):
        raise RequestError(f"{where}: an ability cost must be a mapping")
    sac = raw.get("sacrifice")
    sac_self = bool(raw.get("sacrifice_self", False)) or sac == "self"
    sac_filter = None
    if sac == "creature":
        sac_filter = Filter(types=("Creature",))
    elif isinstance(sac, Mapping):
        sac_filter = parse_filter(sac, where)
    return ManaCostParts(tap=bool(raw.get("tap", False)), untap=bool(raw.get("untap", False)),
                         mana=raw.get("mana"), life=int(raw.get("life", 0)),
                         sacrifice_self=sac_self, sacrifice=sac_filter)


def parse_produce(raw: Any, where: str) -> Produce:
    if isinstance(raw, str):
        return Produce(mana=raw)
    if not isinstance(raw, Mapping):
        raise RequestError(f"{where}: 'add' must be mana text or a mapping")
    if "one_of" in raw:
        return Produce(one_of=tuple(raw["one_of"]))
    if "could_produce" in raw:
        cp = raw["could_produce"] or {}
        return Produce(could_produce_lands=cp.get("lands", "you"),
                       colors_only=bool(cp.get("colors_only", False)))
    if "amount" in raw:
        return Produce(amount_by=str(raw["amount"]), type=raw.get("type"))
    raise RequestError(f"{where}: unknown 'add' shape {raw!r}")


def parse_target(raw: Any, where: str) -> TargetSpec:
    if not isinstance(raw, Mapping) or "what" not in raw:
        raise RequestError(f"{where}: a target needs 'what'")
    what = raw["what"]
    if what not in ("player", "opponent", "creature", "permanent", "any", "spell"):
        raise RequestError(f"{where}: unknown target kind {what!r}")
    return TargetSpec(what=what, filter=parse_filter(raw.get("filter"), where),
                      up_to=bool(raw.get("up_to", False)),
                      per_opponent=bool(raw.get("per_opponent", False)),
                      divided=bool(raw.get("divided", False)))


EFFECT_KINDS = frozenset({
    "add_mana", "damage", "lose_life", "gain_life", "draw", "destroy", "return_to_hand", "exile_top",
    "pump", "add_counters", "create_token", "animate", "sacrifice_self", "untap_self", "delayed",
    "cast_if_able",
})


def parse_effect(raw: Any, where: str) -> Effect:
    if isinstance(raw, Mapping) and "add_mana" in raw and set(raw) <= {"add_mana", "to", "if"}:
        body = raw["add_mana"]
        body = dict(body) if isinstance(body, Mapping) else {"mana": body}
        if "to" in raw:
            body["player"] = "target:0" if raw["to"] == "target" else raw["to"]
        if "if" in raw:
            body["if"] = raw["if"]
        raw = {"add_mana": body}
    if isinstance(raw, Mapping) and len(raw) > 1:
        # shorthand: {lose_life: 1, player: each_opponent} = {lose_life: {amount: 1, player: ...}}
        kinds = [k for k in raw if k in EFFECT_KINDS]
        if len(kinds) == 1 and not isinstance(raw[kinds[0]], Mapping):
            k = kinds[0]
            body = {("mana" if k == "add_mana" else "amount"): raw[k], **{a: b for a, b in raw.items() if a != k}}
            raw = {k: body}
    if not isinstance(raw, Mapping) or len(raw) != 1:
        raise RequestError(f"{where}: an effect is a mapping with exactly one key, got {raw!r}")
    (kind, body), = raw.items()
    if kind not in EFFECT_KINDS:
        raise RequestError(f"{where}: unknown effect {kind!r}")
    if body is None:
        body = {}
    elif not isinstance(body, Mapping):
        body = {"mana": body} if kind == "add_mana" else {"amount": body}
    token = parse_card({**body["token"], "real": False}) if kind == "create_token" else None
    if kind == "delayed":
        if body.get("at") != "end":
            raise RequestError(f"{where}: a delayed trigger is modelled only at the beginning of the next end step "
                               "(at: end)")
        return Effect(kind=kind, at="end", effects=_effects(body.get("effect"), where), condition=body.get("if"))
    return Effect(kind=kind, amount=body.get("amount"), target=body.get("target"),
                  player=body.get("player"), counter=body.get("counter"),
                  power=body.get("power"), toughness=body.get("toughness"),
                  types=tuple(body.get("types", ())),
                  all_creature_types=bool(body.get("all_creature_types", False)),
                  token=token, condition=body.get("if"), mana=body.get("mana"))


def _effects(raw: Any, where: str) -> tuple[Effect, ...]:
    if raw is None:
        return ()
    if isinstance(raw, Mapping):
        raw = [raw]
    return tuple(parse_effect(e, where) for e in _list(raw, where))


ABILITY_KINDS = frozenset({
    "mana", "activated", "triggered", "static", "cast_prohibition", "cost_modifier", "cost_floor", "grant_prowl", "type_change",
    "mana_replacement", "mana_trigger", "cast_permission", "etb", "keyword_grant", "grant_ability",
    "flash_permission", "conditional_flash",
})


def parse_ability(raw: Any, index: int, where: str) -> Ability:
    if not isinstance(raw, Mapping) or "kind" not in raw:
        raise RequestError(f"{where}: an ability needs 'kind'")
    kind = raw["kind"]
    if kind not in ABILITY_KINDS:
        raise RequestError(f"{where}: unknown ability kind {kind!r}")
    w = f"{where} ({kind})"
    raw = _normalise_ability(raw, w)
    kind = raw["kind"]
    effects = _effects(raw.get("effect"), w)
    return Ability(
        kind=kind, index=index,
        cost=parse_cost_parts(raw.get("cost"), w) if kind != "grant_prowl" else ManaCostParts(),
        produce=parse_produce(raw["add"], w) if kind == "mana" else None,
        effects=effects, change=raw.get("change"), amount=raw.get("amount"),
        per=raw.get("per"), spells=parse_filter(raw.get("spells"), w),
        permanents=parse_filter(raw.get("permanents"), w), whose=raw.get("whose", "you"),
        while_=raw.get("while"), minimum=int(raw.get("minimum", 0)),
        prowl_cost=raw.get("cost") if kind == "grant_prowl" else None,
        mode=raw.get("mode"), creature_type=raw.get("creature_type"),
        replace_with=raw.get("produce") if kind == "mana_replacement" else None,
        multiply=int(raw.get("multiply", 1)), produced=raw.get("produced"),
        add=raw.get("add") if kind == "mana_trigger" else None,
        to=raw.get("to", "tapper" if kind == "mana_trigger" and raw.get("add") else "you"),
        zones=tuple(raw.get("from", ("hand",))) if kind == "cast_permission" else (),
        without_paying=bool(raw.get("without_paying_mana_cost", False)),
        trigger=bool(raw.get("trigger", True)), condition=raw.get("if"),
        targets=tuple(parse_target(t, w) for t in _list(raw.get("targets"), w)),
        keyword=raw.get("keyword"), players=raw.get("players", "all"),
        spend_only=parse_filter(raw["spend_only"], w) if raw.get("spend_only") is not None else None,
        granted=_granted_ability(raw, w) if kind == "grant_ability" else None,
        flash_cost=raw.get("extra_cost") if kind == "flash_permission" else None,
        flash_alternative=raw.get("alternative_cost") if kind == "flash_permission" else None)


def _granted_ability(raw: Mapping[str, Any], where: str) -> Ability:
    """grant_ability (107.3j): the activated ability that matching permanents have."""
    inner = raw.get("ability")
    if not isinstance(inner, Mapping) or inner.get("kind") != "activated":
        raise RequestError(f"{where}: grant_ability grants one ability of kind activated")
    return parse_ability(inner, -1, where)


def _normalise_ability(raw: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """Spelled-out forms: `static` with one of cost_increase / cost_reduction /
    cast_prohibition, and `triggered` on tapped_for_mana (106.12a)."""
    kind = raw["kind"]
    if kind == "static":
        keys = set(raw) - {"kind"}
        if len(keys) != 1:
            raise RequestError(f"{where}: a static ability names exactly one effect")
        (name,) = keys
        body = dict(raw[name] or {})
        if name in ("cost_increase", "cost_reduction"):
            return {"kind": "cost_modifier", "change": "increase" if name == "cost_increase" else "reduce",
                    "whose": body.pop("whose", "all" if name == "cost_increase" else "you"), **body}
        if name == "cast_prohibition":
            return {"kind": "cast_prohibition", **body}
        raise RequestError(f"{where}: unknown static ability {name!r}")
    if kind == "triggered":
        trig = raw.get("trigger") or {}
        if "tapped_for_mana" not in trig:
            raise RequestError(f"{where}: only tapped_for_mana triggers are modelled")
        t = dict(trig["tapped_for_mana"] or {})
        flt = dict(t.get("filter") or {})
        whose = "you" if flt.pop("controller", None) == "you" else "all"
        return {"kind": "mana_trigger", "permanents": flt, "whose": whose, "produced": t.get("mana_type"),
                "effect": raw.get("effect"), "to": "you"}
    return raw


def parse_card(raw: Mapping[str, Any]) -> CardDef:
    """Build a CardDef from a catalog entry (validated by schema/card.schema.json upstream)."""
    if not isinstance(raw, Mapping) or "name" not in raw:
        raise RequestError(f"a card entry needs a name: {raw!r}")
    name = raw["name"]
    try:
        supers, types, subs = parse_type_line(raw.get("type_line", ""))
        ability_cost = raw.get("abilities")
        if raw.get("prowl") is not None and not isinstance(raw.get("prowl"), str):
            raise RequestError("prowl must be a cost text")
        proto = raw.get("prototype")
        prototype = (Prototype(proto["mana_cost"], int(proto["power"]), int(proto["toughness"]))
                     if proto else None)
        alts = tuple((a["name"], a["cost"]) for a in _list(raw.get("alternative_costs"), name))
        adds = []
        for a in _list(raw.get("additional_costs"), name):
            if ("sacrifice" in a) == ("reveal" in a):
                raise RequestError(f"{name}: an additional cost is a sacrifice or a reveal (from your hand)")
            if "reveal" in a:
                adds.append(AdditionalCost(None, int(a.get("count", 1)), parse_filter(a["reveal"], name)))
            else:
                adds.append(AdditionalCost(parse_filter(a["sacrifice"], name), int(a.get("count", 1))))
        colors = raw.get("colors")
        faces = _faces(raw, name)
        fields = dict(
            name=name, real=bool(raw.get("real", False)), mana_cost=raw.get("mana_cost"),
            supertypes=supers, types=types, subtypes=subs,
            power=_pt(raw.get("power"), name), toughness=_pt(raw.get("toughness"), name),
            keywords=frozenset(str(k).lower() for k in _list(raw.get("keywords"), name)),
            color_indicator=tuple(colors) if colors is not None else None,
            prowl=raw.get("prowl"), prototype=prototype, kicker=raw.get("kicker"),
            alternative_costs=alts, additional_costs=tuple(adds),
            targets=tuple(parse_target(t, name) for t in _list(raw.get("targets"), name)),
            spell=_effects(raw.get("spell"), name),
            abilities=tuple(parse_ability(a, i, name) for i, a in enumerate(_list(ability_cost, name))),
            modes=_modes(raw.get("modes"), name),
            divide=int(raw["divide"]) if raw.get("divide") is not None else None,
            text_x=_text_x(raw.get("text_x"), raw.get("mana_cost"), name),
            suspend=(Suspend(str(raw["suspend"]["cost"]), raw["suspend"]["time_counters"])
                     if raw.get("suspend") is not None else None),
        )
        if "mana_cost_override" in faces:
            fields["mana_cost"] = faces.pop("mana_cost_override")
        fields.update(faces)
        return CardDef(**fields)
    except RequestError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise RequestError(f"card {name!r}: malformed entry ({exc})") from exc


def _face(raw: Any, where: str) -> CardDef:
    if not isinstance(raw, Mapping):
        raise RequestError(f"{where}: a face is a mapping")
    return parse_card({"real": False, "mana_cost": None, "text": "", **raw})


def _faces(raw: Mapping[str, Any], name: str) -> dict[str, Any]:
    """Split halves (`halves`), a transforming card's back face (`back_face`), meld (`meld`).
    A split card's own mana cost is its halves' combined mana cost (202.3d), its targets and
    effects the halves' in order (what a fused split spell does), the right half's target
    references shifted past the left half's targets."""
    out: dict[str, Any] = {}
    halves = raw.get("halves")
    if halves is not None:
        if raw.get("mana_cost") is not None:
            raise RequestError(f"{name}: a split card's mana_cost is null (its halves' costs combine, 202.3d)")
        hs = tuple(_face(h, f"{name} half") for h in _list(halves, name))
        if len(hs) != 2:
            raise RequestError(f"{name}: a split card has exactly two halves")
        from .costs import ManaCost
        combined = ManaCost(())
        for h in hs:
            if h.mana_cost is not None:
                combined = combined + ManaCost.parse(h.mana_cost)
        shift = len(hs[0].targets)
        out.update(halves=hs, mana_cost_override=str(combined) or "{0}",
                   targets=hs[0].targets + hs[1].targets,
                   spell=hs[0].spell + tuple(_shift_targets(e, shift) for e in hs[1].spell),
                   divide=hs[0].divide or hs[1].divide)
    if raw.get("back_face") is not None:
        out["back_face"] = _face(raw["back_face"], f"{name} back face")
    meld = raw.get("meld")
    if meld is not None:
        if not isinstance(meld, Mapping) or not isinstance(meld.get("partner"), str):
            raise RequestError(f"{name}: meld needs the partner card's name")
        out["meld_partner"] = meld["partner"]
        if meld.get("melded") is not None:
            out["melded_face"] = _face(meld["melded"], f"{name} melded face")
    return out


def _shift_targets(e: Effect, shift: int) -> Effect:
    from dataclasses import replace
    target = e.target + shift if isinstance(e.target, int) else e.target
    player = e.player
    if isinstance(player, str) and ":" in player:
        kind, _, idx = player.partition(":")
        player = f"{kind}:{int(idx) + shift}"
    return replace(e, target=target, player=player)


def _text_x(raw: Any, mana_cost: Any, where: str) -> TextX | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or len(raw) != 1 or not set(raw) <= {"count", "choose"}:
        raise RequestError(f"{where}: text_x is {{count: <filter>}} or {{choose: cast | resolution}}")
    if isinstance(mana_cost, str) and any(v in mana_cost for v in ("{X}", "{Y}", "{Z}")):
        raise RequestError(f"{where}: text_x is for an X that is in no cost; this card has one in its mana cost")
    if "count" in raw:
        return TextX(count=parse_filter(raw["count"], where))
    if raw["choose"] not in ("cast", "resolution"):
        raise RequestError(f"{where}: text_x choose is cast or resolution, not {raw['choose']!r}")
    return TextX(choose=raw["choose"])


def _modes(raw: Any, where: str) -> Modes | None:
    if raw is None:
        return None
    options = tuple(_effects(o.get("spell") if isinstance(o, Mapping) else o, where)
                    for o in _list(raw.get("options"), where))
    return Modes(int(raw.get("choose", 1)), options)


def parse_catalog(cards: Mapping[str, Mapping[str, Any]] | Sequence[Mapping[str, Any]]) -> dict[str, CardDef]:
    """Parse the request's `cards` (name -> entry, or a list of entries)."""
    entries = cards.values() if isinstance(cards, Mapping) else cards
    return {c["name"]: parse_card(c) for c in entries}
