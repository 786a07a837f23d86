"""What the suite costs (``castrules bench``), measured on this machine, as ratios where possible.

Figures (``FIGURES`` names every JSON key): loading and validating the suite; cases per second
in process (best pass and first pass), through the protocol with a persistent ``castrules serve``
and with ``--isolate`` (beside the engine's start-up, its bound); a ``py:`` engine in its worker
process against ``--in-process``; the pytest route's cost per item against pytest's own floor;
``castrules fuzz`` examples per second; the suite against a synthetic copy ten times its size;
``-j 2`` against serial; the payment solver's growth. Only this command prints speed."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from castrules.harness import paths
from castrules.harness.child_python import child_env, python_argv
from castrules.harness.collector import settle
from castrules.harness.bench_engines import measure_protocol
from castrules.harness.bench_scale import (best, describe_parallel, describe_reference, machine_figures, measure_fuzz, measure_growth,
                                          measure_parallel, measure_startup, reference_ms, timings)

SOLVER_MODULE = "castrules.benchmarks.bench_solver"
PARTS = ("load", "inprocess", "protocol", "worker", "isolate", "pytest", "fuzz", "growth", "parallel", "solver")
# every top-level key of the figures when no part is skipped (tests/harness/test_bench.py checks them)
FIGURES = ("machine", "cases", "load_validate", "in_process", "harness_overhead", "load_vs_run_ratio",
           "protocol_persistent", "protocol_vs_in_process_ratio", "worker_process", "engine_startup", "protocol_isolate",
           "isolate_vs_startup_ratio", "pytest_route_replay", "pytest_route_engine", "fuzz", "growth", "parallel", "solver")


def measure_load(repeat: int) -> dict:
    from castrules.harness import schemas, vocabulary
    from castrules.harness.suite import load_suite

    def cold() -> None:
        schemas._registry.cache_clear()
        schemas._documents.cache_clear()
        schemas.validator.cache_clear()
        schemas.def_validator.cache_clear()
        schemas._fast.cache_clear()
        vocabulary.load.cache_clear()
        load_suite()

    seconds = best(repeat, cold)
    return {"seconds": seconds, "cases": len(load_suite().cases)}


def measure_engine(engine, cases, catalog, repeat: int) -> float:
    return min(passes(engine, cases, catalog, repeat))


def passes(engine, cases, catalog, count: int) -> list[float]:
    """Wall time of each of ``count`` passes of ``cases`` on ``engine``, the first one first."""
    from castrules.harness import pipelining

    # as a serial run runs them: a protocol engine that takes requests ahead gets them ahead
    return timings(count, lambda: list(pipelining.results(engine, cases, catalog)))


class PytestRunFailed(Exception):
    """A pytest run of the bench did not run what it was given: its time would mean nothing."""


def measure_pytest(engine_spec: str, items: int, repeat: int, targets: list[str] | None = None) -> dict:
    """Wall time of the suite through pytest vs the same number of empty tests, startup removed.

    pytest is started as castrules starts its own children (``child_python``: the parent's
    castrules first) and with the bench's own ini file and root (``-c``, ``--rootdir``): the suite's
    folder may lie inside a project whose own pytest settings would otherwise apply (a source
    checkout of castrules with castrules installed into a virtual environment inside it: its
    ``pythonpath = ["."]`` put the checkout's partial ``castrules`` folder before the installed
    package, and the plugin failed to load). Every run must run all its items, each once; one
    that does not makes the figure an ``error``, never a time."""
    env = child_env()  # bytecode caches allowed, as in any real run
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "test_empty.py").write_text("".join(f"def test_{i}():\n    pass\n" for i in range(items)))
        (folder / "test_one.py").write_text("def test_0():\n    pass\n")
        (folder / "pytest.ini").write_text("[pytest]\n")
        base = [*python_argv("pytest"), "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header",
                "-c", str(folder / "pytest.ini"), "--rootdir", str(folder)]
        runs = {"startup": (["test_one.py"], 1), "empty": (["test_empty.py"], items),
                "route": ([f"--castrules-engine={engine_spec}", *(targets or [str(paths.cases_dir())])], items)}
        times: dict[str, float] = dict.fromkeys(runs, float("inf"))
        ran: dict[str, int] = dict.fromkeys(runs, 0)
        try:
            for _ in range(max(1, repeat)):   # interleaved: a busy spell of the machine hits all three alike
                for name, (args, expected) in runs.items():
                    times[name] = min(times[name], _timed_pytest(base + args, folder, env, expected))
                    ran[name] = expected   # _timed_pytest checked that the run ran them all
        except PytestRunFailed as exc:
            return {"items": items, "error": str(exc)}
        startup, empty, route = times["startup"], times["empty"], times["route"]
    floor = empty - startup
    # ratio: the whole run against pytest's floor for the same number of items;
    # marginal_ratio: the same with pytest's start-up removed from both (the target; None when
    # the machine's noise swallowed the empty items' cost, as it can for a small sample)
    return {"items": items, "items_run": ran["route"], "startup_s": startup, "empty_s": empty, "route_s": route,
            "per_item_empty_ms": 1000 * floor / items, "per_item_route_ms": 1000 * (route - startup) / items,
            "ratio": route / empty, "marginal_ratio": (route - startup) / floor if floor > 0 else None}


def _timed_pytest(argv: list[str], cwd: Path, env: dict[str, str], expected: int) -> float:
    """Seconds one pytest run took; ``PytestRunFailed`` unless it ran ``expected`` items (passed
    or failed: an engine may fail cases, and that run still costs what it costs) and exited 0 or 1."""
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    counts = _pytest_counts(done.stdout)
    ran = counts.get("passed", 0) + counts.get("failed", 0)
    if done.returncode not in (0, 1) or ran != expected or counts.get("error", 0) or counts.get("errors", 0):
        last = (done.stderr.strip() or done.stdout.strip()).splitlines()[-3:]
        raise PytestRunFailed(f"pytest exited {done.returncode} having run {ran} of {expected} items "
                              f"({' '.join(argv[-1:])}): " + " | ".join(last))
    return seconds


def _pytest_counts(output: str) -> dict[str, int]:
    """The counts of pytest's last line (``889 passed, 2 failed in 3.1s``)."""
    lines = [line for line in output.splitlines() if line.strip()]
    counts: dict[str, int] = {}
    for part in (lines[-1] if lines else "").split(" in ")[0].split(","):
        words = part.split()
        if len(words) == 2 and words[0].isdigit():
            counts[words[1]] = int(words[0])
    return counts


def measure_solver(quick: bool = False) -> dict | None:
    """The solver benchmark (``castrules.benchmarks.bench_solver``, shipped in the wheel), run as
    its own process so that the harness never imports oracle internals."""
    try:
        done = subprocess.run(python_argv(SOLVER_MODULE, "--json", *(["--quick"] if quick else [])),
                              capture_output=True, text=True, timeout=600, env=child_env())
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    try:
        figures = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None
    return {"text": str(figures.pop("text", "")).rstrip(), "figures": figures}


@dataclass(frozen=True)
class Plan:
    """What a bench run measures: ``quick`` is a short look (a sample of cases, one repetition,
    small fuzz and solver runs: noisy figures, every one of them printed)."""

    engine_spec: str = "oracle"
    repeat: int = 3
    isolate_sample: int = 20
    skip: frozenset[str] = frozenset()
    quick: bool = False
    fuzz_examples: int = 300
    jobs: int = 2

    @classmethod
    def of(cls, engine_spec: str = "oracle", repeat: int = 3, isolate_sample: int = 20,
           skip: Iterable[str] = (), quick: bool = False) -> "Plan":
        if quick:
            return cls(engine_spec, 1, min(isolate_sample, 3), frozenset(skip), True, 20)
        return cls(engine_spec, repeat, isolate_sample, frozenset(skip))


QUICK_CASES = 40


def collect_figures(engine_spec: str = "oracle", repeat: int = 3, isolate_sample: int = 20,
                    skip: Iterable[str] = frozenset(), quick: bool = False) -> dict:
    """Every figure not in ``skip`` (see ``PARTS``). The suite is loaded as ``castrules run``
    loads it (``shared_suite``: kept out of the garbage collector's sight), so the runs measured
    pay what a user's run pays, not the collector's walks over a suite a run never makes."""
    from castrules.harness.suite import shared_suite

    plan = Plan.of(engine_spec, repeat, isolate_sample, skip, quick)
    suite = shared_suite()
    settle()    # as castrules run settles its process once the suite is loaded
    with child_bytecode_caches() as caches:
        figures = _collect(plan, suite)
    figures["machine"].update(bytecode_caches=caches, reference_end_ms=reference_ms())
    return figures


@contextlib.contextmanager
def child_bytecode_caches() -> Iterator[str]:
    """The processes the bench starts (pytest, engines, workers) keep bytecode caches, as a real run
    does from its second time on, even where the environment turns them off
    (``PYTHONDONTWRITEBYTECODE``, as on the development machine): recompiling every module at
    every start would be charged to each start-up and to the pytest route. The caches go to a
    temporary folder (``PYTHONPYCACHEPREFIX``), never into the installed package or a checkout."""
    saved = {key: os.environ.get(key) for key in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    if saved["PYTHONDONTWRITEBYTECODE"] is None:
        yield "as the environment keeps them"
        return
    with tempfile.TemporaryDirectory(prefix="castrules-bench-pycache-") as folder:
        os.environ.pop("PYTHONDONTWRITEBYTECODE")
        os.environ["PYTHONPYCACHEPREFIX"] = saved["PYTHONPYCACHEPREFIX"] or folder
        try:
            yield "kept for the bench's child processes (PYTHONDONTWRITEBYTECODE is set here)"
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value


def _collect(plan: Plan, suite) -> dict:
    quick, engine_spec = plan.quick, plan.engine_spec
    cases = list(suite.cases[:QUICK_CASES] if quick else suite.cases)
    figures: dict = {"machine": machine_figures(), "cases": len(cases), "quick": quick}
    if "load" not in plan.skip:
        figures["load_validate"] = measure_load(plan.repeat)
    if "parallel" not in plan.skip:   # first: its serial run as cold as its lanes (and as one castrules run)
        figures["parallel"] = measure_parallel(engine_spec, cases, suite.catalog, plan.jobs, plan.repeat)
    if "inprocess" not in plan.skip:
        _in_process(figures, plan, cases, suite.catalog)
    serve = python_argv("castrules", "serve", "--engine", engine_spec)
    if "protocol" not in plan.skip:
        figures["protocol_persistent"] = measure_protocol(serve, len(cases), False, lambda e: passes(e, cases, suite.catalog, plan.repeat + 1))
        if "cases_per_s" in (figures["protocol_persistent"] or {}) and "in_process" in figures:
            figures["protocol_vs_in_process_ratio"] = figures["protocol_persistent"]["cases_per_s"] / figures["in_process"]["cases_per_s"]
    if "worker" not in plan.skip:
        from castrules.harness.bench_engines import worker_cost

        figures["worker_process"] = worker_cost(lambda e: measure_engine(e, cases, suite.catalog, plan.repeat), len(cases))
    if "isolate" not in plan.skip:
        _isolate(figures, plan, serve, cases, suite)
    if "pytest" not in plan.skip:
        _pytest(figures, plan, cases)
    if "fuzz" not in plan.skip:
        figures["fuzz"] = measure_fuzz(engine_spec, plan.fuzz_examples)
    if "growth" not in plan.skip:
        figures["growth"] = measure_growth(engine_spec, sample=QUICK_CASES if quick else None)
    if "solver" not in plan.skip:
        figures["solver"] = measure_solver(quick)
    return figures


def _in_process(figures: dict, plan: Plan, cases, catalog) -> None:
    from castrules.harness.bench_engines import ReplayEngine
    from castrules.harness.engine import close, load_engine

    loading, engine = time.perf_counter(), load_engine(plan.engine_spec)   # its import: the pytest route pays it too
    loaded = time.perf_counter() - loading
    # the process's first pass (what one castrules run pays), then the best of --repeat after it
    # (what a case's later runs pay, finding what the oracle keeps: mutants, fuzz's shrinking)
    times = passes(engine, cases, catalog, plan.repeat + 1)
    seconds, first = min(times[1:]), times[0]
    figures["in_process"] = {"engine": engine.name, "seconds": seconds, "cases_per_s": len(cases) / seconds,
                             "first_pass_seconds": first, "first_pass_cases_per_s": len(cases) / first, "load_s": loaded}
    close(engine)
    overhead = measure_engine(ReplayEngine(), cases, catalog, plan.repeat)
    figures["harness_overhead"] = {"seconds": overhead, "cases_per_s": len(cases) / overhead}
    if "load_validate" in figures:
        figures["load_vs_run_ratio"] = figures["load_validate"]["seconds"] / seconds


def _isolate(figures: dict, plan: Plan, serve: list[str], cases, suite) -> None:
    """``--isolate`` on a sample, beside the engine's start-up (its bound: a process per case)."""
    figures["engine_startup"] = measure_startup(serve, plan.repeat)
    sample = cases[: plan.isolate_sample]
    isolate = figures["protocol_isolate"] = measure_protocol(serve, len(sample), True, lambda e: passes(e, sample, suite.catalog, 1))
    if "cases_per_s" in (isolate or {}):
        figures["isolate_vs_startup_ratio"] = (1 / isolate["cases_per_s"]) / figures["engine_startup"]["seconds"]


def _pytest(figures: dict, plan: Plan, cases) -> None:
    targets = sorted({str(case.path) for case in cases}) if plan.quick else None
    replay = figures["pytest_route_replay"] = measure_pytest("castrules.harness.bench_engines:ReplayEngine",
                                                             len(cases), plan.repeat, targets)
    engine = figures["pytest_route_engine"] = measure_pytest(plan.engine_spec, len(cases), plan.repeat, targets)
    if "in_process" in figures and "error" not in engine:
        # the engine's own time taken out (a first pass's: the route runs each case once, in a new process)
        own = figures["in_process"]["first_pass_seconds"] + figures["in_process"]["load_s"]
        engine["per_item_route_minus_engine_ms"] = 1000 * (engine["route_s"] - engine["startup_s"] - own) / len(cases)
    if "error" not in replay:
        replay["per_item_route_minus_engine_ms"] = replay["per_item_route_ms"]   # the replay engine does no work


def failed_figures(figures: dict) -> list[str]:
    """The figures that could not be measured because their run failed (``castrules bench``
    exits 1 when there is one): the pytest route's, and the protocol's when no engine started."""
    return [key for key, value in figures.items() if isinstance(value, dict) and "error" in value]


# ---- printing ---------------------------------------------------------------------------------

def print_figures(f: dict) -> None:
    quick = "  (--quick: a sample, one repetition; noisy)" if f.get("quick") else ""
    print(f"castrules bench: {f['cases']} cases, Python {f['machine']['python']}, {f['machine']['cpus']} CPUs{quick}")
    print(f"bytecode caches: {f['machine'].get('bytecode_caches', 'as the environment keeps them')}")
    print(f"machine reference: {describe_reference(f['machine'])}\n")
    for part in (_print_run, _print_protocol, _print_pytest, _print_scale, _print_solver):
        part(f)


def _print_run(f: dict) -> None:
    if "load_validate" in f:
        print(f"load + validate the suite      {f['load_validate']['seconds'] * 1000:8.1f} ms")
    if "in_process" in f:
        ip = f["in_process"]
        print(f"in process ({ip['engine']})  {ip['cases_per_s']:8.0f} cases/s  ({ip['seconds'] * 1000:.1f} ms for the suite, "
              f"best pass; the first pass of the process {ip['first_pass_cases_per_s']:.0f} cases/s)")
        print(f"harness overhead (replay)      {f['harness_overhead']['cases_per_s']:8.0f} cases/s")
    if "load_vs_run_ratio" in f:
        print(f"load+validate / oracle run     {f['load_vs_run_ratio']:8.2f}   (target <= 1)")


def _print_protocol(f: dict) -> None:
    for key, label in (("protocol_persistent", "protocol, persistent process"), ("protocol_isolate", "protocol, --isolate")):
        value = f.get(key)
        if value is None:
            continue
        if "error" in value:
            print(f"{label:30} unavailable: {value['error']}")
        else:
            first = (f"; best pass after a first, as in process; its first pass {value['first_pass_cases_per_s']:.0f} cases/s"
                     if key == "protocol_persistent" else "")
            print(f"{label:30} {value['cases_per_s']:8.0f} cases/s  ({value['cases']} cases{first})")
        if key == "protocol_persistent" and "protocol_vs_in_process_ratio" in f:
            print(f"protocol / in-process rate     {f['protocol_vs_in_process_ratio']:8.2f}   (target >= 0.8)")
            print(f"{'':30} also the cost of a worker process, where castrules run puts every module:Class\n"
                  f"{'':30} engine but the oracle so a timeout can stop it (--in-process: no worker)")
    worker = f.get("worker_process")
    if worker:
        print(f"worker process (py: engine)    {worker['worker_cases_per_s']:8.0f} cases/s  vs {worker['in_process_cases_per_s']:.0f} "
              f"with --in-process: ratio {worker['ratio']:.2f}; start-up {worker['startup_s']:.2f} s")
    if "engine_startup" in f:
        print(f"engine start-up (to hello)     {f['engine_startup']['seconds'] * 1000:8.1f} ms")
    if "isolate_vs_startup_ratio" in f:
        print(f"--isolate per case / start-up  {f['isolate_vs_startup_ratio']:8.2f}   (bound: about 1, a process per case)")


def _print_pytest(f: dict) -> None:
    for key, label in (("pytest_route_replay", "pytest route, harness only"), ("pytest_route_engine", "pytest route, with engine")):
        value = f.get(key)
        if not value:
            continue
        if "error" in value:
            print(f"{label:30} FAILED, no figure: {value['error']}")
            continue
        print(f"{label:30} {value['route_s']:6.2f} s vs {value['empty_s']:.2f} s for {value['items']} empty tests: "
              f"ratio {value['ratio']:.2f}")
        marginal = value["marginal_ratio"]
        print(f"{'':30} beyond start-up: {value['per_item_route_ms']:.3f} ms/item vs {value['per_item_empty_ms']:.3f} ms/empty item: "
              + (f"ratio {marginal:.2f}" if marginal is not None else "ratio not measurable (noise)")
              + ("   (target <= 1.5)" if key.endswith("replay") else ""))
        if key.endswith("engine") and "per_item_route_minus_engine_ms" in value:
            print(f"{'':30} the engine's own time (loading it, a first pass) taken out: {value['per_item_route_minus_engine_ms']:.3f} "
                  f"ms/item: ratio {value['per_item_route_minus_engine_ms'] / value['per_item_empty_ms']:.2f}")


def _print_scale(f: dict) -> None:
    if "fuzz" in f:
        fz = f["fuzz"]
        print(f"fuzz (engine vs oracle)        {fz['examples_per_s']:8.1f} examples/s  ({fz['examples']} distinct cases "
              f"in {fz['seconds']:.2f} s)")
    if "growth" in f:
        g = f["growth"]
        print(f"growth: suite x{g['copies']} (synthetic)    {g['ratio']:8.2f}   cost ratio (target <= {g['copies'] + 1}); "
              f"load x{g['load_ratio']:.2f}, run x{g['run_ratio']:.2f} for {g['cases']} -> {g['cases_copied']} cases")
    if "parallel" in f:
        print(describe_parallel(f["parallel"]))


def _print_solver(f: dict) -> None:
    solver = f.get("solver")
    if solver:
        print(f"\npayment solver (python -m {SOLVER_MODULE}):")
        print(solver.get("text") or json.dumps(solver, indent=1))
    elif "solver" in f:
        print(f"\npayment solver: unavailable (python -m {SOLVER_MODULE} failed)")
