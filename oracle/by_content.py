"""Model values read from a request's documents, kept by the documents' exact content.

Every run of a case reads its setup and its steps through the model again (``Setup``,
``read_step``), though the suite's cases send the same documents run after run. The model's
reading is a pure function of the document (the pointer only names the place in an error),
and what it builds is frozen and never changed by the oracle, so a document is read once per
distinct content: the key is ``marshal``'s bytes, which keep every value's exact type (a tuple
is not a list, 1 not 1.0 nor true), as for the request's cards (``cards.read_cards``). A
document ``marshal`` cannot write (a value of another type, a subclass of str) and any
document whose reading fails are read by the model itself, so the errors, with their pointers,
are exactly the model's.
"""
from __future__ import annotations

import functools
import marshal
from typing import Any, Callable, TypeVar

T = TypeVar("T")

CACHE_SIZE = 8192   # distinct documents kept per reader: the suite's setups or steps, and more


def by_content(read: Callable[[Any, str], T], size: int = CACHE_SIZE) -> Callable[[Any, str], T]:
    """``read(doc, where)``, its value kept for each distinct content of ``doc``."""

    @functools.lru_cache(maxsize=size)
    def cached(content: bytes) -> T:
        return read(marshal.loads(content), "")     # its own copy of the data: nothing shared with a request

    def reader(doc: Any, where: str = "") -> T:
        try:
            content = marshal.dumps(doc, 2)   # version 2: no back-references, so equal documents give equal bytes
        except ValueError:
            return read(doc, where)
        try:
            return cached(content)
        except Exception:       # read again, uncached: the model's own error, with its pointer
            return read(doc, where)

    reader.cache_clear = cached.cache_clear     # type: ignore[attr-defined]
    return reader
