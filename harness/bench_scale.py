"""Bench figures about how the harness scales (``castrules bench``; no test times any of them).

- the machine: a fixed pure-Python workload timed at the start and at the end of the bench, so
  that figures from other machines, hours or sessions can be compared (a shared machine's speed
  moves by a third between hours) and a run whose machine changed speed midway shows it;
- the engine's start-up (launch to hello), printed beside ``--isolate``: a fresh process per
  case can cost no less than one start-up, so that is its bound;
- ``castrules fuzz`` examples per second (the engine against the oracle, as the command runs);
- growth: the suite and a synthetic copy ten times its size (every case file written ten times
  under new ids in a temporary suite), loaded and run the same way, and the ratio of costs;
- ``-j N`` against a serial run, the engines opened as ``castrules run`` opens them.

``timings`` and ``best`` time every figure of the bench (here, so both modules use the one loop).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence

from castrules.harness import paths

GROWTH_COPIES = 10
_ID_LINE = re.compile(r"^id:[ \t]*([\"']?)([^\"'\s#]+)\1", re.MULTILINE)


REFERENCE_ROUNDS = 5


def machine_figures() -> dict:
    """Python, CPUs, the suite measured and the reference workload's time now (``reference_ms``)."""
    return {"python": sys.version.split()[0], "cpus": os.cpu_count(), "suite": str(paths.cases_dir()),
            "reference_ms": reference_ms()}


def best(repeat: int, action) -> float:
    return min(timings(repeat, action))


def timings(repeat: int, action) -> list[float]:
    """Wall time of each of ``repeat`` runs of ``action``, in order (the first one first)."""
    times = []
    for _ in range(max(1, repeat)):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return times


def reference_ms() -> float:
    """Milliseconds for a fixed workload of what the oracle's time goes to (dict and attribute
    lookups, small tuples and calls, str building), best of ``REFERENCE_ROUNDS``: it depends on
    the machine and the interpreter only, never on castrules' code."""
    return best(REFERENCE_ROUNDS, _reference_work) * 1000


def describe_reference(machine: dict) -> str:
    """The reference workload's line of bench's printout."""
    start, end = machine.get("reference_ms"), machine.get("reference_end_ms")
    if start is None:
        return "not measured"
    moved = f" at the start, {end:.1f} ms at the end" if end is not None else ""
    return (f"{start:.1f} ms for a fixed pure-Python workload{moved} (lower is faster; scale another run's "
            f"figures by the ratio of references before comparing them)")


class _Point:
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y


def _reference_work() -> int:
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for i in range(100_000):
        point = _Point(i % 97, i % 13)
        key = (point.x, point.y)
        counts[key] = counts.get(key, 0) + 1
        total += len(str(i)) + len(counts)
    return total


def measure_startup(command: Sequence[str], repeat: int) -> dict:
    """Seconds from launching a protocol engine to its hello reply, best of ``repeat`` after one
    launch left untimed (it writes the bytecode caches a real run finds there)."""
    from castrules.harness.engine import close
    from castrules.harness.subprocess_engine import SubprocessEngine

    best = float("inf")
    for attempt in range(max(1, repeat) + 1):
        started = time.perf_counter()
        engine = SubprocessEngine(list(command), timeout=30)
        if attempt:
            best = min(best, time.perf_counter() - started)
        close(engine)
    return {"seconds": best}


def measure_fuzz(engine_spec: str, examples: int, seed: int = 0) -> dict:
    """``castrules fuzz --engine ENGINE --examples N --seed S``: distinct generated cases per second
    (each run on the engine and on the oracle and compared), engines' loading left out."""
    from castrules.harness.fuzzing import fuzz

    report = fuzz(engine_spec, examples, seed, out_dir=None)
    seconds = max(report.seconds, 1e-9)
    return {"examples": report.examples, "tried": report.tried, "seconds": report.seconds,
            "examples_per_s": report.examples / seconds, "found": report.finding is not None}


def synthetic_suite(target: Path, copies: int, sample: int | None = None) -> Path:
    """A suite root holding every case file (the first ``sample`` ones) ``copies`` times (ids
    prefixed ``cK/``, files under ``AREA/cK/``), with the same catalog, vocabularies and schemas."""
    source = paths.suite_root()
    from castrules.harness.suite import METADATA_DIRS, case_files

    shutil.copytree(source / "schema", target / "schema")
    cases = target / "cases"
    cases.mkdir(parents=True)
    for entry in (source / "cases").iterdir():
        if entry.is_file():
            shutil.copy2(entry, cases / entry.name)
        elif entry.name in METADATA_DIRS:
            shutil.copytree(entry, cases / entry.name)
    for path in case_files(source / "cases")[:sample]:
        area, *inside = path.relative_to(source / "cases").parts
        text = path.read_text(encoding="utf-8")
        for k in range(copies):
            renamed, found = _ID_LINE.subn(lambda m: f"id: {m.group(1)}c{k}/{m.group(2)}{m.group(1)}", text, count=1)
            if not found:
                continue  # a file whose id is not a plain top-level line (JSON): left out of the copy
            out = cases.joinpath(area, f"c{k}", *inside)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(renamed, encoding="utf-8")
    return target


def measure_growth(engine_spec: str, copies: int = GROWTH_COPIES, sample: int | None = None) -> dict:
    """Load + validate + run of a one-copy synthetic suite and of a ``copies``-copy one, and the
    ratios of their costs (linear growth: about ``copies``)."""
    rows = {}
    with tempfile.TemporaryDirectory(prefix="castrules-bench-") as tmp:
        for n in (1, copies):
            rows[n] = _load_and_run(synthetic_suite(Path(tmp) / f"x{n}", n, sample), engine_spec)
    one, many = rows[1], rows[copies]
    total = lambda row: row["load_s"] + row["run_s"]  # noqa: E731
    return {"copies": copies, "cases": one["cases"], "cases_copied": many["cases"], "one": one, "many": many,
            "ratio": total(many) / max(total(one), 1e-9), "load_ratio": many["load_s"] / max(one["load_s"], 1e-9),
            "run_ratio": many["run_s"] / max(one["run_s"], 1e-9)}


def _load_and_run(root: Path, engine_spec: str) -> dict:
    from castrules.harness.engine import close, load_engine
    from castrules.harness.runner import run_case
    from castrules.harness.suite import shared_suite

    started = time.perf_counter()
    suite = shared_suite(root)   # loaded as castrules run loads it (kept out of the collector's sight)
    loaded = time.perf_counter()
    engine = load_engine(engine_spec)
    try:
        ran = time.perf_counter()
        statuses = [run_case(engine, case, suite.catalog).status.value for case in suite.cases]
        done = time.perf_counter()
    finally:
        close(engine)
    return {"cases": len(suite.cases), "problems": len(suite.problems), "load_s": loaded - started,
            "run_s": done - ran, "passed": statuses.count("pass")}


def measure_parallel(engine_spec: str, cases, catalog, jobs: int = 2, repeat: int = 1) -> dict:
    """A serial run and a ``-j jobs`` run of ``cases`` (engines opened as ``castrules run`` does:
    serial in process for the oracle, each lane a worker process), start-up timed apart, the best
    of ``repeat`` kept for each, as for every figure.

    Every run is a first pass, as one ``castrules run`` is (the oracle keeps per-case work from a
    case's second run, so a run after another in the same process is no fair baseline): each
    runs in a child forked from this process, which has run no case (``forked_workers.in_child``;
    the child forks the lanes' workers itself), so none finds what a run before it left. Where
    nothing can be forked, one of each: the lanes first, then the serial run in this process."""
    from castrules.harness.forked_workers import can_fork, in_child

    def run(lanes: int) -> dict:
        return _session_time(engine_spec, lanes, cases, catalog)

    if not (_quiet() and can_fork()):
        parallel = run(jobs)
        return _parallel_figures(jobs, [run(1)], [parallel])
    serials, parallels = [], []
    for _ in range(max(1, repeat)):
        for lanes, runs in ((1, serials), (jobs, parallels)):
            runs.append(in_child(lambda: run(lanes)) if _quiet() and can_fork() else run(lanes))
    return _parallel_figures(jobs, serials, parallels)


def _parallel_figures(jobs: int, serials: list[dict], parallels: list[dict]) -> dict:
    serial = min(serials, key=lambda run: run["run_s"])
    parallel = min(parallels, key=lambda run: run["run_s"])
    # speedup: the runs alone (engines started once per run, before it); with_start: wall times
    return {"jobs": jobs, "serial": serial, "parallel": parallel, "repeat": len(parallels),
            "speedup": serial["run_s"] / max(parallel["run_s"], 1e-9),
            "speedup_with_start": (serial["start_s"] + serial["run_s"]) / max(parallel["start_s"] + parallel["run_s"], 1e-9),
            "speedups": [s["run_s"] / max(p["run_s"], 1e-9) for s, p in zip(serials, parallels)]}


def describe_parallel(p: dict) -> str:
    """The ``-j`` line of bench's printout."""
    pairs = ", ".join(f"{x:.2f}" for x in p.get("speedups", []))
    return (f"-j {p['jobs']} / serial                   {p['speedup']:8.2f}x  faster (target >= 1.7 on two idle cores); "
            f"{p['speedup_with_start']:.2f}x with the engines' start-up; best of {p.get('repeat', 1)} first passes each "
            f"({p['serial']['run_s']:.3f} s / {p['parallel']['run_s']:.3f} s; pairs {pairs})")


def _quiet(wait: float = 2.0) -> bool:
    """Whether this process is down to its main thread (a run before it may still be ending its
    engines' reader threads), waiting up to ``wait`` seconds for it: a fork needs it."""
    import threading

    deadline = time.monotonic() + wait
    while threading.active_count() > 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    return threading.active_count() == 1


def _session_time(engine_spec: str, jobs: int, cases, catalog) -> dict:
    from castrules.harness.execution import close_all, open_engines, session
    from castrules.harness.session import Policy

    started = time.perf_counter()
    engines = open_engines(engine_spec, jobs, len(cases), {"timeout": 30}, held=(cases, catalog))
    opened = time.perf_counter()
    try:
        results = list(session(engines, cases, catalog, None, Policy()))
        done = time.perf_counter()
    finally:
        close_all(engines)
    return {"lanes": len(engines), "start_s": opened - started, "run_s": done - opened,
            "passed": sum(r.status.value == "pass" for r in results)}
