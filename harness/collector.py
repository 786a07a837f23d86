"""The garbage collector's settings for a process that runs many cases.

What such a process loads (the suite, the catalog, the engine's code) and what the oracle keeps
between cases (cards read by content, parsed costs) lives as long as the process and forms no
cycles, yet CPython's full collection walks every tracked object again each tenth collection of
the middle generation: on the suite, one or two full collections a pass over ~130,000 objects
cost 0.1-0.3 s of a 1.3 s pass, more than the young collections that find the actual garbage
(measured with ``gc.callbacks``). So once the long-lived part is loaded it is moved out of the
collector's sight (``gc.freeze``), and full collections are made ten times rarer; the young
generations, where a case's cyclic garbage dies, are collected as before.
"""

from __future__ import annotations

import gc

FULL_EVERY = 100    # middle-generation collections between full ones (CPython's default: 10)


def settle() -> None:
    """What exists now lives for the run: collected once (garbage frozen would never be freed),
    frozen, and full collections held to every ``FULL_EVERY`` middle-generation collections (a
    higher threshold someone set is kept, as is a disabled collector). Only for a process
    castrules owns (``castrules run``, ``serve``, a worker, fuzz, bench): the pytest route runs
    in the user's own pytest process, whose settings are the user's (``suite.shared_suite`` only
    freezes the suite it loaded there)."""
    freeze_what_lives()
    young, middle, full = gc.get_threshold()
    if full < FULL_EVERY:
        gc.set_threshold(young, middle, FULL_EVERY)


def freeze_what_lives() -> None:
    """Collect once, then freeze what is left: everything that exists now is kept out of the
    collector's sight, and no garbage with it (frozen garbage would never be freed). The
    collector's thresholds are left as they are (the pytest route's use, in the user's process)."""
    gc.collect()
    gc.freeze()
