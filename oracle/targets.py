"""Choosing and checking targets (601.2c, 115, 608.2b)."""
from __future__ import annotations

from typing import Sequence

from castrules.model import is_player

from .cards import TargetSpec
from .characteristics import chars, matches
from .errors import Illegal, RequestError
from .reasons import Reason
from .seams import rules
from .state import CARD, State


def is_player_ref(state: State, ref: str) -> bool:
    """A capitalised reference names a player (the model's convention, coded once there)."""
    return is_player(ref)


def check_ref(state: State, ref: str) -> None:
    if is_player_ref(state, ref):
        if not state.has_player(ref):
            raise RequestError(f"unknown player {ref!r}")
    elif ref not in state.objects:
        raise RequestError(f"unknown object {ref!r}")


def legal_target(state: State, spec: TargetSpec, ref: str, controller: str, source_id: str | None,
                 required_controller: str | None = None) -> bool:
    """Is `ref` a legal target for `spec` now (115.1, 608.2b)?"""
    if ref == source_id:
        return False                          # 115.5: a spell or ability can't target itself
    if is_player_ref(state, ref):
        if not state.has_player(ref) or not state.player(ref).in_game:
            return False
        if spec.what == "player" or spec.what == "any":
            return True
        if spec.what == "opponent":
            return ref != controller
        return False
    obj = state.objects.get(ref)
    if obj is None:
        return False
    if spec.what == "spell":
        return obj.zone == "stack" and obj.kind is CARD and matches(chars(state, obj), obj, spec.filter, controller)
    if spec.what == "card_in_your_graveyard":       # Snapcaster Mage: a card in its controller's own graveyard
        return obj.zone == "graveyard" and obj.owner == controller and matches(chars(state, obj), obj, spec.filter,
                                                                                controller)
    if obj.zone != "battlefield":
        return False
    c = chars(state, obj)
    if spec.what == "creature" and not c.is_creature:
        return False
    if spec.what == "any" and not (c.is_creature or c.is_("Planeswalker") or c.is_("Battle")):
        return False
    if spec.what not in ("creature", "permanent", "any"):
        return False
    if required_controller is not None and obj.controller != required_controller:
        return False
    return matches(c, obj, spec.filter, controller)


def assign_targets(state: State, specs: Sequence[TargetSpec], chosen: Sequence[str], controller: str,
                   source_id: str | None, chooser: str | None = None) -> list[tuple[TargetSpec, str, str | None]]:
    """Match the announced targets to the requirements in order (601.2c); a requirement of the
    mode an opponent chose for the spell may ask that player to control the target (`chooser`, 601.6).

    Returns (spec, target, required controller) triples; raises Illegal with
    wrong_number_of_targets or invalid_target."""
    for ref in chosen:
        check_ref(state, ref)
    out: list[tuple[TargetSpec, str, str | None]] = []
    picked: list[int] = []          # the index in `specs` of each entry of `out`
    rest = list(chosen)
    for index, spec in enumerate(specs):
        if spec.per_opponent:
            # one "up to one" requirement per opponent: each target must be controlled by a
            # different opponent (Enigma Thief)
            used: set[str] = set()
            while rest:
                ref = rest[0]
                obj = state.objects.get(ref)
                owner = obj.controller if obj is not None else None
                if owner is None or owner == controller or owner in used:
                    break
                used.add(owner)
                out.append((spec, rest.pop(0), owner))
                picked.append(index)
            continue
        if not rest:
            if spec.up_to:
                continue
            raise Illegal(Reason.WRONG_NUMBER_OF_TARGETS,
                          f"{len(chosen)} target(s) chosen, the spell needs {sum(1 for s in specs if not s.up_to)}", rules=("601.2c",))
        out.append((spec, rest.pop(0), chooser if spec.chooser_controls else None))
        picked.append(index)
    if rest:
        raise Illegal(Reason.WRONG_NUMBER_OF_TARGETS,
                      f"{len(chosen)} target(s) chosen; only {len(chosen) - len(rest)} can be used", rules=("601.2c",))
    for spec, ref, req in out:
        if not legal_target(state, spec, ref, controller, source_id, req):
            raise Illegal(Reason.INVALID_TARGET, f"{ref} is not a legal target ({spec.what})", rules=("601.2c", "115.1"))
        if spec.per_kick and sum(1 for _, r, _ in out if r == ref) > 1:
            raise Illegal(Reason.INVALID_TARGET, f"{ref} is chosen twice, but each target chosen for a kick must be "
                                                 "another one", rules=("601.2c", "702.33c"))
    rules().one_target_word(specs, picked, [ref for _, ref, _ in out])
    return out


def check_one_word_once(specs: Sequence[TargetSpec], picked: Sequence[int], refs: Sequence[str]) -> None:
    """601.2c: the requirements chained by `another` are one instance of the word "target" ("up to
    two target creatures"), for which the same object or player can't be chosen twice; separate
    instances may share it."""
    word: list[int] = []
    for index, spec in enumerate(specs):
        word.append(word[-1] if index and spec.another else index)
    seen: set[tuple[int, str]] = set()
    for index, ref in zip(picked, refs):
        if (word[index], ref) in seen:
            raise Illegal(Reason.INVALID_TARGET, f"{ref} is chosen twice for one instance of the word \"target\"",
                          rules=("601.2c",))
        seen.add((word[index], ref))


def auto_targets(state: State, specs: Sequence[TargetSpec], controller: str, source_id: str | None) -> list[str]:
    """The engine's choice when a case does not name the targets: the first legal object or
    player in setup order for each requirement (opponents before you for players)."""
    chosen: list[str] = []
    players = list(state.opponents(controller)) + [controller]
    for spec in specs:
        if spec.per_opponent:
            for opp in state.opponents(controller):
                for obj in state.objects.values():
                    if obj.id not in chosen and legal_target(state, spec, obj.id, controller, source_id, opp):
                        chosen.append(obj.id)
                        break
            continue
        pick = None
        for p in players:
            if legal_target(state, spec, p, controller, source_id):
                pick = p
                break
        if pick is None:
            for obj in state.objects.values():
                if obj.id not in chosen and legal_target(state, spec, obj.id, controller, source_id):
                    pick = obj.id
                    break
        if pick is not None:
            chosen.append(pick)
    return chosen
