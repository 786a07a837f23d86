"""Running cases in several worker processes (``castrules run -j N``) and sharding (``--shard K/N``).

Each worker loads the suite and its own engine once; results come back in suite order, so a
parallel run prints and reports exactly what a serial run does.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator, Sequence

from castrules.harness.cases import Case
from castrules.harness.results import Result

_worker: dict = {}


def shard(cases: Sequence[Case], spec: str) -> list[Case]:
    """Cases of shard K of N ("K/N", 1-based): every N-th case of the id-sorted suite."""
    try:
        k, n = (int(part) for part in spec.split("/"))
    except ValueError as exc:
        raise ValueError(f"--shard expects K/N with 1 <= K <= N, got {spec!r}") from exc
    if not 1 <= k <= n:
        raise ValueError(f"--shard expects K/N with 1 <= K <= N, got {spec!r}")
    ordered = sorted(cases, key=lambda c: c.id)
    return [c for i, c in enumerate(ordered) if i % n == k - 1]


def _init(engine_spec: str, options: dict, expectations_path: str | None) -> None:
    from pathlib import Path

    from castrules.harness.engine import load_engine, oracle_explainer
    from castrules.harness.expectations import default_expectations
    from castrules.harness.suite import shared_suite

    suite = shared_suite()
    engine = load_engine(engine_spec, **options)
    _worker.update(suite=suite, by_id=suite.by_id(), engine=engine, explainer=oracle_explainer(engine),
                   expectations=default_expectations(engine, Path(expectations_path) if expectations_path else None))


def _run(case_id: str) -> Result:
    from castrules.harness.runner import run_case

    return run_case(_worker["engine"], _worker["by_id"][case_id], _worker["suite"].catalog, _worker["expectations"],
                    _worker["explainer"])


def run_parallel(cases: Sequence[Case], jobs: int, engine_spec: str, options: dict,
                 expectations_path: str | None) -> Iterator[Result]:
    context = multiprocessing.get_context("spawn" if multiprocessing.get_start_method(allow_none=True) == "spawn" else "fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init,
                             initargs=(engine_spec, options, expectations_path)) as pool:
        chunk = max(1, min(16, len(cases) // (jobs * 4) or 1))
        yield from pool.map(_run, [c.id for c in cases], chunksize=chunk)
