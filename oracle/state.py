"""The game state: frozen values with structural sharing. Every action builds a new `State` with
`replace` (frozen.py: `dataclasses.replace`, cheaper) and shallow dict copies, so an illegal action is
rewound (601.2e, 730) by simply keeping the old state: nothing is deep copied. Characteristics are
derived (see characteristics.py) and cached per state."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Iterable, Mapping

from castrules.model.abilities import Ability
from castrules.model.effects import Animate, BecomeColor, Pump, SetBasePT
from castrules.model.steps import ChangeTypes

from .cards import WATCHING_TYPES, CardDef, watching_of
from .costs import ManaPool
from .frozen import make, read_fast, replace
from .objmap import LayeredObjects, Objects, updated
from .static_copy import StaticCopy
from .turn_grants import GraveyardTurn

STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
         "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end", "cleanup")
MAIN_STEPS = frozenset({"precombat_main", "postcombat_main"})
ZONES = frozenset({"battlefield", "hand", "graveyard", "library", "exile", "stack", "command"})
GONE = "gone"   # a token or copy that ceased to exist (707.10a, 111.7), or an object that left the game


@dataclass(frozen=True)
class Player:
    name: str
    life: int = 20
    pool: ManaPool = field(default_factory=ManaPool)
    in_game: bool = True
    # 106.6: mana with a spending restriction, kept apart from `pool` (which it is not part of):
    # (type letter, spell filter, the controller the filter is relative to, source id)
    restricted: tuple[tuple[str, object, str, str], ...] = ()
    # 704.5b: tried to draw from an empty library since state-based actions were last checked
    drew_from_empty: bool = False


@dataclass(frozen=True)
class Turn:
    active: str
    step: str = "precombat_main"
    number: int = 1


@dataclass(frozen=True)
class DamageEvent:
    """One instance of damage dealt to a player, remembered for the turn (prowl, 702.76a).

    `controller` and `creature_types` are the source's values AS IT DEALT the damage
    (608.2i looks back; 113.7a last known information if it left before)."""

    source: str
    source_name: str
    player: str
    amount: int
    combat: bool
    controller: str
    creature_types: frozenset[str]
    all_creature_types: bool


@dataclass(frozen=True)
class CastRecord:
    """A spell cast this turn (601.2i) with its card types then: counted by cost modifiers (601.2f),
    surge (702.117a), permissions limited per turn (`permission`: its source, incarnation)."""

    player: str
    spell: str
    types: frozenset[str]
    permission: tuple[str, int] | None = None


@dataclass(frozen=True)
class GrantedFlashback:
    """An until-end-of-turn effect on a card in a graveyard: it has flashback, its cost the card's
    mana cost (702.34a; oracle.granted_flashback); `source` is the object whose ability granted it."""

    source: str


@dataclass(frozen=True)
class Awakened:
    """A land an awaken spell animated (702.113a): a 0/0 Elemental creature with haste that is
    still a land; the effect has no end (`TimedEffect.lasting`)."""


TimedDoes = Pump | Animate | ChangeTypes | BecomeColor | SetBasePT | GrantedFlashback | Awakened | GraveyardTurn


@dataclass(frozen=True)
class TimedEffect:
    """A continuous effect from a resolved ability or a test action, until end of turn: what it
    does is the model's value that made it (a pump, an animation, a creature-type change).

    It applies to one object incarnation (`obj`, `incarnation`): after a zone change the
    card is a new object (400.7) and the effect no longer applies."""

    timestamp: int
    obj: str
    incarnation: int
    does: TimedDoes
    lasting: bool = False       # no end: it outlasts the turn (an awakened land, 702.113a)


@dataclass(frozen=True)
class DelayedTrigger:
    """A delayed triggered ability created by a resolving spell (603.7): it triggers at the
    beginning of the next `step` and does `effects`; X is the creating spell's (107.3n)."""

    source: str
    source_name: str
    card: CardDef
    controller: str
    step: str
    effects: tuple
    x: int | None
    targets: tuple[str | None, ...] = ()
    # objects it is about, with their incarnation when it was created: one that has since left
    # its zone is a new object (400.7) and is not affected (a dashed permanent, 702.109a)
    tracked: tuple[tuple[str, int], ...] = ()


class ObjKind(StrEnum):
    """What an object on the stack or in a zone is: a card (or token, or copy), a triggered
    ability or an activated ability (113.1)."""

    CARD = "card"
    TRIGGER = "trigger"
    ABILITY = "ability"


CARD = ObjKind.CARD     # a module global: an Enum class's attribute goes through EnumType's __getattr__ hook in 3.11


@dataclass(frozen=True)
class FaceUp:
    """Which face of a card with several faces is up (202.3b-d): a split spell's half (None: the
    whole card, or both halves when fused), a transforming permanent's back face, a melded pair."""

    half: int | None = None                 # a split card on the stack: the half cast
    fused: bool = False                     # a fused split spell (202.3d)
    transformed: bool = False               # a transforming double-faced permanent showing its back face
    melded_with: CardDef | None = None      # a melded permanent: the partner card that also represents it
    face_down: bool = False                 # a card exiled face down (406.3): turned face up as it is cast (406.3a)
    may_look: tuple[str, ...] = ()          # the players allowed to look at it while it is face down (406.3)


@dataclass(frozen=True)
class Announced:
    """What was chosen for a spell or an ability as it was put on the stack (601.2b-d, 602.2b):
    the spell's copies carry it over (707.10), a resolving spell keeps it as it becomes a
    permanent (107.3m), any other zone change forgets it (400.7)."""

    cast: bool = False                      # it was cast (not put on the stack otherwise)
    prowl_paid: bool = False
    alt_cost: str | None = None
    x: int | None = None
    y: int | None = None                    # 107.3p: Y and Z work like X
    z: int | None = None
    kicked: int = 0                         # times kicked (702.33d): 1 for kicker, N for multikicker paid N times
    bought_back: bool = False               # 702.27a: its buyback cost was paid
    modes: tuple[int, ...] = ()
    mode_chooser: str | None = None         # 601.6: the opponent who chose the modes ("that player")
    targets: tuple[str, ...] = ()
    target_controllers: tuple[str | None, ...] = ()   # per-opponent targets: who must control each
    division: tuple[tuple[str, int], ...] = ()        # 601.2d: (target, amount) announced while casting
    etb_x: int | None = None                # a permanent's (or its trigger's) X as the spell resolved (107.3m)
    emerge: str | None = None               # the creature chosen to sacrifice for emerge (702.119c)
    tapper: str | None = None               # a tapped-for-mana trigger's "that player", who tapped (106.12a)


NOTHING_ANNOUNCED, PLAIN_FACE = make(Announced), make(FaceUp)    # shared by every object with nothing else (frozen)


@dataclass(frozen=True)
class Combat:
    """A permanent's part in the current combat (506.4: removed from combat, it has none)."""

    attacking: str | None = None            # the player it attacks
    blocked: bool = False
    blocking: str | None = None             # the attacker it blocks


NOT_IN_COMBAT = make(Combat)


@dataclass(frozen=True)
class StackAbility:
    """What a triggered or activated ability on the stack does (113.1b-c): the id of its source,
    the ability (a gained one too, 107.3j), or a delayed trigger's effects (603.7, 107.3n)."""

    source: str
    ability: Ability | None = None
    delayed: tuple = ()


@read_fast
@dataclass(frozen=True)
class Obj:
    """A card, token, copy, or ability on the stack. The case id stays the same across zone
    changes (a convention of the case format); `incarnation` counts the new objects (400.7)."""

    id: str
    card: CardDef
    zone: str
    owner: str
    controller: str
    kind: ObjKind = CARD
    incarnation: int = 0
    timestamp: int = 0
    token: bool = False
    copy_of: CardDef | None = None          # a copy: the copiable values of what it copies (707.2)
    tapped: bool = False
    summoning_sick: bool = False
    counters: tuple[tuple[str, int], ...] = ()
    damage: int = 0
    deathtouched: bool = False
    prototyped: bool = False
    announced: Announced = NOTHING_ANNOUNCED   # decisions made while casting or activating (601.2b-d)
    combat: Combat = NOT_IN_COMBAT
    face: FaceUp = PLAIN_FACE               # cards with several faces (202.3b-d)
    stack_ability: StackAbility | None = None   # a triggered or activated ability on the stack: what it does
    attached: tuple[str, int] | None = None    # an Aura: the object it is attached to, and that object's incarnation

    if TYPE_CHECKING:
        base: CardDef       # set by __post_init__ (frozen.make and replace call it too): not a field

    def __post_init__(self) -> None:
        """Sets ``base``, the copiable values (707.2) of the face that is up: what it copies, or its own card; a
        split spell's half (202.3d), a transformed permanent's back face (202.3b), a melded one's melded face (202.3c,
        707.8). Not a property, which re-entered the interpreter at each of ~100,000 reads a pass (3.11)."""
        base = card = self.copy_of or self.card
        face = self.face
        if face is not PLAIN_FACE:      # the common case is the plain face (no face turned): the card
            if face.half is not None and card.halves and self.zone == "stack":
                base = card.halves[face.half]
            elif self.copy_of is not None:      # a copy effect overrides the face that is up (707.2, 707.8),
                if face.transformed and self.token and card.back_face is not None:     # but a 707.8a token's
                    base = card.back_face
            elif face.transformed and card.back_face is not None:
                base = card.back_face
            elif face.melded_with is not None:
                base = card.melded_face or face.melded_with.melded_face or card
        object.__setattr__(self, "base", base)

    @property
    def is_copy(self) -> bool:
        """A copy of a spell or a permanent, or a permanent that became a copy (707)."""
        return self.copy_of is not None

    def with_x(self, x: int | None) -> "Obj":
        """The object as it would be with X announced as `x` (601.2b; 601.3e), itself if X is that already."""
        return self if self.announced.x is x else replace(self, announced=replace(self.announced, x=x))

    def counter(self, name: str) -> int:
        return dict(self.counters).get(name, 0)


def _watching(o: Obj) -> tuple:
    return watching_of(o.base) if o.zone == "battlefield" and o.kind is CARD else ()


def _updated(objects: Mapping[str, Obj], changed: Iterable[Obj]) -> Objects | LayeredObjects:
    """A new map of ``objects`` with ``changed`` in it (oracle.objmap); the index of watching abilities carried
    over when still valid (each changed object has the same watching abilities as before, so the order holds),
    the sources token when no changed object has any watching ability, before or after (what chars looks at)."""
    changed = tuple(changed)
    index = getattr(objects, "watching", None)
    sources = getattr(objects, "sources", None)
    for o in changed:
        if index is None and sources is None:
            break
        old = objects.get(o.id)
        if old is not None and old.zone == o.zone and old.kind is o.kind and old.card is o.card \
                and old.copy_of is o.copy_of and old.face is o.face:
            if sources is None:     # what _watching reads is the same (a permanent tapped, say): the index holds
                continue
            before = after = _watching(o)
        else:
            after = _watching(o)
            before = _watching(old) if old is not None else ()
        if before != after:
            index = None
        if before or after:
            sources = None
    out = updated(objects, [(changed[0].id, changed[0])] if len(changed) == 1 else [(o.id, o) for o in changed])
    out.watching = index
    if sources is not None:
        out.sources = sources
    return out


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    objects: Mapping[str, Obj]
    turn: Turn
    stack: tuple[str, ...] = ()
    choices: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    effects: tuple[TimedEffect, ...] = ()
    damage_log: tuple[DamageEvent, ...] = ()
    cast_log: tuple[CastRecord, ...] = ()           # spells cast this turn (601.2i), cleared as the turn ends
    clock: int = 1
    pending: tuple[tuple, ...] = ()   # triggered abilities waiting for the stack: (source, ability[, tapper])
    game_over: bool = False                     # 104.1: a player won or the game is a draw; nothing more happens
    delayed: tuple["DelayedTrigger", ...] = ()  # delayed triggered abilities waiting to trigger (603.7, 107.3n)
    static_copies: tuple[StaticCopy, ...] = ()  # copy effects of Auras' static abilities (707.2c)
    _cache: dict = field(default_factory=dict, compare=False, repr=False, init=False)
    # objects' characteristics computed in this state or those it was made from (characteristics.chars): replace()
    # hands the dict on; an entry is used only with the very object, timed effects, choices, watching permanents
    chars_cache: dict = field(default_factory=dict, compare=False, repr=False)

    # -- players --------------------------------------------------------------------------
    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def has_player(self, name: str) -> bool:
        return any(p.name == name for p in self.players)

    def opponents(self, name: str) -> tuple[str, ...]:
        """Players in the game other than `name` (two-player and multiplayer alike)."""
        return tuple(p.name for p in self.players if p.name != name and p.in_game)

    def with_player(self, player: Player) -> "State":
        return replace(self, players=tuple(player if p.name == player.name else p for p in self.players))

    # -- objects --------------------------------------------------------------------------
    def obj(self, oid: str) -> Obj:
        return self.objects[oid]

    def with_obj(self, obj: Obj) -> "State":
        return replace(self, objects=_updated(self.objects, (obj,)))

    def with_objs(self, objs: Iterable[Obj]) -> "State":
        return replace(self, objects=_updated(self.objects, objs))

    def watching_abilities(self, kind: type[Ability]) -> tuple[tuple[Obj, Ability], ...]:
        """(permanent, ability) for each printed (copiable) ability of one of WATCHING_TYPES on the battlefield,
        in battlefield order. Every object's characteristics and every mana ability's event look for them;
        scanning the battlefield each time made a game with thousands of permanents quadratic: the index is
        built once per set of objects and carried over by ``with_obj`` while the changed objects keep them."""
        if kind not in WATCHING_TYPES:
            raise ValueError(f"{kind.__name__} abilities are not indexed")
        index = getattr(self.objects, "watching", None)
        entries = (self._watching_index() if index is None else index).get(kind)
        if not entries:
            return ()
        found = self._cache.get(kind)       # this state's permanents for the kind (its objects never change)
        if found is None:
            objects = self.objects
            found = self._cache[kind] = tuple((objects[oid], ab) for oid, ab in entries)
        return found

    def watches_nothing(self) -> bool:
        """No permanent has a watching ability (WATCHING_TYPES): nothing changes or watches the
        objects from outside (characteristics.chars shares its work between like objects then)."""
        index = getattr(self.objects, "watching", None)
        return not (self._watching_index() if index is None else index)

    def _watching_index(self) -> dict:
        """Ability type -> (object id, ability) of the watching abilities on the battlefield,
        for objects that do not carry it yet: built once per set of objects."""
        index = self._cache.get("watching")
        if index is None:
            found: dict[type, list[tuple[str, Ability]]] = {}
            for o in self.objects.values():
                for ab in _watching(o):
                    found.setdefault(type(ab), []).append((o.id, ab))
            index = {k: tuple(v) for k, v in found.items()}
            if isinstance(self.objects, (Objects, LayeredObjects)):
                self.objects.watching = index
            else:
                self._cache["watching"] = index
        return index

    def in_zone(self, zone: str) -> list[Obj]:   # a list: cheaper to walk than a generator
        return [o for o in self.objects.values() if o.zone == zone]

    def battlefield(self) -> list[Obj]:     # a loop: a comprehension makes a function each call
        found = []
        for o in self.objects.values():
            if o.zone == "battlefield":
                found.append(o)
        return found

    def tick(self) -> tuple["State", int]:     # a fresh timestamp (613.7)
        return replace(self, clock=self.clock + 1), self.clock

    def with_timed_effect(self, obj: Obj, does: "TimedDoes", lasting: bool = False) -> "State":
        """The state with an until-end-of-turn effect (or, `lasting`, one with no end) on `obj`'s
        current incarnation, stamped now (613.7)."""
        state, ts = self.tick()
        return replace(state, effects=state.effects + (TimedEffect(ts, obj.id, obj.incarnation, does, lasting),))
