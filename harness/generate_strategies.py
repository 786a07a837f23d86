"""The hypothesis strategies the generator draws from, each built once per distinct arguments.

A generated case takes about a hundred small draws (``integers(0, 5)``, ``sampled_from(pool)``,
``lists(...)``), and building a new strategy object for each draw, which hypothesis then
validates again, cost about as much as all the drawing: `castrules fuzz` spent a third of its
time there. The same arguments give the same strategy object, so the values drawn, and the
cases generated for a seed, are exactly those of plain ``hypothesis.strategies``; anything
else is passed through to it unchanged.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

from hypothesis import strategies as _st
from hypothesis.strategies import SearchStrategy

_CACHE: dict[Hashable, SearchStrategy] = {}
CACHE_LIMIT = 4096     # distinct strategies kept; beyond that the cache starts again (memory stays bounded)


def _key(value: Any) -> Hashable:
    return tuple(value) if isinstance(value, list) else value


def _cached(make: Callable[..., SearchStrategy], name: str) -> Callable[..., SearchStrategy]:
    def build(*args: Any, **kwargs: Any) -> SearchStrategy:
        key = (name, tuple(_key(a) for a in args), tuple(sorted(kwargs.items())))
        try:
            found = _CACHE.get(key)
        except TypeError:            # unhashable arguments (a list of dicts): built anew, as before
            return make(*args, **kwargs)
        if found is None:
            if len(_CACHE) >= CACHE_LIMIT:
                _CACHE.clear()
            found = _CACHE[key] = make(*args, **kwargs)
        return found

    build.__doc__ = f"``hypothesis.strategies.{name}``, built once per distinct arguments."
    return build


integers = _cached(_st.integers, "integers")
sampled_from = _cached(_st.sampled_from, "sampled_from")
lists = _cached(_st.lists, "lists")
booleans = _cached(_st.booleans, "booleans")


def __getattr__(name: str) -> Any:
    """Every other strategy (``composite``, ``one_of``, ...) straight from hypothesis."""
    return getattr(_st, name)
