"""Model values read from a request's documents, kept by the documents' exact content.

Every run of a case reads its setup and its steps through the model again (``Setup``,
``read_step``), though the suite's cases send the same documents run after run. The model's
reading is a pure function of the document (the pointer only names the place in an error),
and what it builds is frozen and never changed by the oracle, so a document is read once per
distinct content: the key is ``marshal``'s bytes, which keep every value's exact type (a tuple
is not a list, 1 not 1.0 nor true), as for the request's cards (``cards.read_cards``). A
document ``marshal`` cannot write (a value of another type, a subclass of str) and any
document whose reading fails are read by the model itself, so the errors, with their pointers,
are exactly the model's. A document is kept from the second time it is met: a run that sends
each case once (``castrules run``) pays only the key; the suite's mutants, the bench and
every later pass over the suite read it once.
"""
from __future__ import annotations

import functools
import marshal
from typing import Any, Callable, TypeVar

T = TypeVar("T")

CACHE_SIZE = 8192   # distinct documents kept per reader: the suite's setups or steps, and more


def by_content(read: Callable[[Any, str], T], size: int = CACHE_SIZE) -> Callable[[Any, str], T]:
    """``read(doc, where)``, its value kept for each distinct content of ``doc``."""

    seen: dict[bytes, None] = {}        # contents met once: a document is kept from its second sight
    kept: dict[int, Any] = {}           # id -> a value kept (what ``kept`` answers)

    @functools.lru_cache(maxsize=size)
    def cached(content: bytes) -> T:
        value = read(marshal.loads(content), "")    # its own copy of the data: nothing shared with a request
        if len(kept) >= size:
            kept.clear()
        kept[id(value)] = value
        return value

    def reader(doc: Any, where: str = "") -> T:
        try:
            content = marshal.dumps(doc, 2)   # version 2: no back-references, so equal documents give equal bytes
        except ValueError:
            return read(doc, where)
        if content not in seen:     # a run that sends each document once reads it as before
            if len(seen) >= size:
                seen.clear()
            seen[content] = None
            return read(doc, where)
        try:
            return cached(content)
        except Exception:       # read again, uncached: the model's own error, with its pointer
            return read(doc, where)

    def is_kept(value: Any) -> bool:
        """Whether ``value`` is one this reader keeps (and so may hand out again): what is worked
        out from it may be kept by its identity."""
        return kept.get(id(value)) is value

    reader.cache_clear = cached.cache_clear     # type: ignore[attr-defined]
    reader.kept = is_kept                       # type: ignore[attr-defined]
    return reader
