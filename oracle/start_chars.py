"""The characteristics of a kept starting state's objects, carried into each run's new cache.

Every run of a case starts from the state oracle.setup keeps for its setup, with a new, empty
characteristics cache, and soon looks up the characteristics of its objects again: each lookup a
miss, the object's key built and hashed, the store the runs share looked up (some 14,000
instructions an object, ~1,000 objects a pass over every 8th case). What characteristics.chars
keeps in its cache is a pure function of the object, the timed effects (none at the start), the
choices (each run's a copy of the same) and the permanents with watching abilities (the very same
objects) under one rules table: so they are computed once per kept state, in a state of their own
(the kept state's caches are left alone), and each run's new cache gets the entries chars would
have written, with the run's own choices and sources. Only under the real rules: a variant's table
(a mutant's) is made afresh for each run, so nothing computed under it would serve twice.
"""
from __future__ import annotations

from typing import Mapping

from .characteristics import chars
from .chars_value import Chars
from .frozen import replace
from .seams import real_rules, rules
from .state import Obj, State

Carried = tuple[tuple[tuple[str, str, int], Obj, Chars], ...]   # (chars's key, the object, its characteristics)


def starting_chars(start: State) -> Carried:
    """The characteristics chars keeps for ``start``'s objects, computed in a copy of it with caches
    of its own; an object chars keeps for its state alone (READS_THE_GAME), or whose
    characteristics fail, is left to each run, as before."""
    probe = replace(start, chars_cache={})
    carried = []
    for obj in probe.objects.values():
        try:
            chars(probe, obj)
        except Exception:       # a run that meets the error meets it itself, as before
            continue
        key = (obj.id, obj.zone, obj.incarnation)
        entry = probe.chars_cache.get(key)
        if entry is not None and entry[0] is obj:
            carried.append((key, obj, entry[4]))
    return tuple(carried)


def carry(kept: list, start: State, objects: Mapping[str, Obj], choices: Mapping) -> dict:
    """A new characteristics cache for a run's copy of the kept state ``start`` (its ``objects`` and
    ``choices``) holding its objects' characteristics; ``kept`` is the kept state's slot for them."""
    if rules() is not real_rules():
        return {}
    carried = kept[0]
    if carried is None:
        carried = kept[0] = starting_chars(start)
    effects, sources = start.effects, getattr(objects, "sources", objects)
    cache = {}
    for key, obj, value in carried:
        cache[key] = (obj, effects, choices, sources, value)
    return cache
