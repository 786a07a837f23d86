"""A `cast` step with every choice spelled out, read from the step (601.2): a document or the
model's typed `Cast`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from castrules import model

from .errors import RequestError
from .frozen import make


@dataclass(frozen=True)
class CastSpec:
    """A `cast` step, every choice spelled out (docs/case-format.md)."""

    player: str
    object: str
    from_zone: str | None = None
    alternative: tuple[str, ...] = ()
    permission: str | None = None
    prototype: bool = False
    kicker: bool = False
    multikicker: int = 0                                     # 702.33c: times the multikicker cost is paid
    buyback: bool = False                                    # 702.27a: pay the buyback cost
    entwine: bool = False                                    # 702.42a: pay the entwine cost, every mode
    sacrifice: tuple[str, ...] = ()
    x: int | None = None
    y: int | None = None                                     # 107.3p: Y and Z are announced like X
    z: int | None = None
    modes: tuple[int, ...] = ()
    mode_chooser: str | None = None                          # 601.6, 601.6a: the opponent who chooses the modes
    hybrid: tuple[str, ...] | None = None
    phyrexian: tuple[str, ...] | None = None
    targets: tuple[str, ...] = ()
    reductions: tuple[tuple[str, str | None], ...] = ()
    mana_abilities: tuple[tuple[str, int, str | None], ...] = ()
    auto_pay: bool = True
    division: tuple[tuple[str, int], ...] | None = None     # 601.2d: (target, amount), as announced
    mana_sacrifices: tuple[tuple[str, ...] | None, ...] = ()  # per listed activation: what it sacrifices
    half: int | None = None                                  # a split card: the half cast (202.3d)
    fuse: bool = False                                       # a split card with fuse cast fused (202.3d)
    reveal: tuple[str, ...] = ()                             # cards revealed from hand for an additional cost
    discard: tuple[str, ...] = ()                            # cards discarded from hand for a discard cost (118.8)
    instructed_by: str | None = None                         # a resolving spell instructing this cast (608.2g)
    flash_cost: str | None = None                            # the flash permission whose extra cost is paid (601.3c)
    mana_replacements: tuple[tuple[str, ...] | None, ...] = ()  # per listed activation: replacement order (616.1)
    delve: tuple[str, ...] = ()                              # 702.66a: graveyard cards exiled to pay generic mana
    improvise: tuple[str, ...] = ()                          # 702.126a: artifacts tapped to pay generic mana
    emerge: str | None = None                                # 702.119a: the creature sacrificed for emerge
    returned: str | None = None                              # 118.9: the permanent returned for return_permanent
    life_for_mana: tuple[tuple[str, int], ...] = ()           # 601.2h: (colour, symbols paid with life instead)


# A typed step -> its spec, by the step's identity (both frozen): the runs of a case read each
# of its steps once (oracle.by_content), so they get the same typed Cast, and this spares them
# spelling it out again. Entries hold their step, so an id is never reused while its entry lives.
_SPECS: dict[int, tuple[model.Cast, CastSpec]] = {}
_BOUND = 4096


def parse_cast(raw: Mapping[str, Any] | model.Cast) -> CastSpec:
    """A cast step (a document, or the model's typed `Cast`) as the oracle's CastSpec."""
    if type(raw) is model.Cast:
        hit = _SPECS.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        spec = _parse_cast(raw)
        if len(_SPECS) >= _BOUND:
            _SPECS.clear()
        _SPECS[id(raw)] = (raw, spec)
        return spec
    return _parse_cast(raw)


def _parse_cast(raw: Mapping[str, Any] | model.Cast) -> CastSpec:
    try:
        step = raw if isinstance(raw, model.Cast) else model.Cast.from_document(raw, "cast")
    except model.ModelError as exc:
        raise RequestError(f"cast: {exc}") from exc
    activations = step.mana_abilities
    sacs = tuple(m.sacrifice for m in activations)
    reps = tuple(m.replacements for m in activations)
    return make(
        CastSpec, player=step.player, object=step.object, from_zone=_plain(step.from_zone),
        alternative=step.alternative_cost, permission=step.permission,
        prototype=step.prototype, kicker=step.kicker, multikicker=step.multikicker, buyback=step.buyback,
        entwine=step.entwine,
        sacrifice=step.sacrifice, x=step.x, y=step.y, z=step.z,
        modes=step.modes, mode_chooser=step.mode_chooser, hybrid=step.hybrid,
        phyrexian=step.phyrexian,
        targets=step.targets, reductions=tuple((r.source, r.choice) for r in step.reductions),
        mana_abilities=tuple((m.object, m.ability, _plain(m.produce)) for m in activations),
        auto_pay=step.auto_pay,
        division=tuple((str(k), v) for k, v in step.division.items()) if step.division is not None else None,
        mana_sacrifices=sacs if any(x is not None for x in sacs) else (),
        half=step.half, fuse=step.fuse, reveal=step.reveal, discard=step.discard, flash_cost=step.flash_cost,
        delve=step.delve, improvise=step.improvise, emerge=step.emerge, returned=step.returned,
        mana_replacements=reps if any(r is not None for r in reps) else (),
        life_for_mana=tuple(sorted((step.life_for_mana or {}).items())))


def _plain(value: Any) -> Any:
    """An enum member of the model as its plain string (the oracle's values are strings)."""
    return getattr(value, "value", value)
