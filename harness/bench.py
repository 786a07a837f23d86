"""What the suite costs (``castrules bench``), measured on this machine, as ratios where possible.

Figures: loading and validating the suite; cases per second in process, through the protocol
with a persistent ``castrules serve`` and with ``--isolate``; the pytest route's cost per item
against pytest's own floor (the same number of empty tests); the payment solver's growth.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from castrules.harness import paths


def best(repeat: int, action) -> float:
    times = []
    for _ in range(max(1, repeat)):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


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
    from castrules.harness.runner import run_case

    return best(repeat, lambda: [run_case(engine, c, catalog) for c in cases])


def measure_pytest(engine_spec: str, items: int, repeat: int) -> dict:
    """Wall time of the suite through pytest vs the same number of empty tests, startup removed."""
    env = dict(os.environ)  # bytecode caches allowed, as in any real run
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "test_empty.py").write_text("".join(f"def test_{i}():\n    pass\n" for i in range(items)))
        (folder / "test_one.py").write_text("def test_0():\n    pass\n")
        (folder / "pytest.ini").write_text("[pytest]\n")

        def run(args) -> float:
            return best(repeat, lambda: subprocess.run(base + args, cwd=folder, env=env, capture_output=True))

        startup = run(["test_one.py"])
        empty = run(["test_empty.py"])
        route = run([f"--castrules-engine={engine_spec}", str(paths.cases_dir())])
    floor = max(empty - startup, 1e-9)
    # ratio: the whole run against pytest's floor for the same number of items (the target);
    # marginal_ratio: the same with pytest's start-up removed from both (the stricter figure)
    return {"items": items, "startup_s": startup, "empty_s": empty, "route_s": route,
            "per_item_empty_ms": 1000 * floor / items, "per_item_route_ms": 1000 * (route - startup) / items,
            "ratio": route / empty, "marginal_ratio": (route - startup) / floor}


def measure_solver() -> dict | None:
    """The solver benchmark lives beside the oracle (benchmarks/), run as its own process so
    that the harness never imports oracle internals; available from a source checkout."""
    try:
        done = subprocess.run([sys.executable, "-m", "benchmarks.bench_solver", "--json"],
                              capture_output=True, text=True, cwd=paths.suite_root(), timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    try:
        figures = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None
    return {"text": str(figures.pop("text", "")).rstrip(), "figures": figures}


def collect_figures(engine_spec: str = "oracle", repeat: int = 3, isolate_sample: int = 20,
                    skip: frozenset[str] | set[str] = frozenset()) -> dict:
    """Every figure not in ``skip`` (load, inprocess, protocol, isolate, pytest, solver)."""
    from castrules.harness.engine import close, load_engine
    from castrules.harness.suite import load_suite

    suite = load_suite()
    cases = list(suite.cases)
    figures: dict = {"machine": {"python": sys.version.split()[0], "cpus": os.cpu_count()}, "cases": len(cases)}
    if "load" not in skip:
        figures["load_validate"] = measure_load(repeat)
    if "inprocess" not in skip:
        engine = load_engine(engine_spec)
        seconds = measure_engine(engine, cases, suite.catalog, repeat)
        figures["in_process"] = {"engine": engine.name, "seconds": seconds, "cases_per_s": len(cases) / seconds}
        close(engine)
        from castrules.harness.bench_engines import ReplayEngine

        replay = ReplayEngine()
        overhead = measure_engine(replay, cases, suite.catalog, repeat)
        figures["harness_overhead"] = {"seconds": overhead, "cases_per_s": len(cases) / overhead}
        if "load_validate" in figures:
            figures["load_vs_run_ratio"] = figures["load_validate"]["seconds"] / seconds
    serve = [sys.executable, "-m", "castrules", "serve", "--engine", engine_spec]
    if "protocol" not in skip:
        figures["protocol_persistent"] = _protocol(serve, cases, suite, repeat, isolate=False)
        if figures["protocol_persistent"] and "in_process" in figures:
            figures["protocol_vs_in_process_ratio"] = figures["protocol_persistent"]["cases_per_s"] / figures["in_process"]["cases_per_s"]
    if "isolate" not in skip:
        figures["protocol_isolate"] = _protocol(serve, cases[: isolate_sample], suite, 1, isolate=True)
    if "pytest" not in skip:
        figures["pytest_route_replay"] = measure_pytest("castrules.harness.bench_engines:ReplayEngine", len(cases), repeat)
        figures["pytest_route_engine"] = measure_pytest(engine_spec if engine_spec != "oracle" else "oracle", len(cases), 1)
    if "solver" not in skip:
        figures["solver"] = measure_solver()
    return figures


def _protocol(command: list[str], cases, suite, repeat: int, isolate: bool) -> dict | None:
    import shlex

    from castrules.harness.engine import close, load_engine

    try:
        engine = load_engine(shlex.join(command), timeout=30, isolate=isolate)
    except Exception as exc:  # the protocol route is optional in a bench: say why it is missing
        return {"error": f"{type(exc).__name__}: {exc}"}
    try:
        seconds = measure_engine(engine, cases, suite.catalog, repeat)
    finally:
        close(engine)
    return {"cases": len(cases), "seconds": seconds, "cases_per_s": len(cases) / seconds}


def print_figures(f: dict) -> None:
    print(f"castrules bench: {f['cases']} cases, Python {f['machine']['python']}, {f['machine']['cpus']} CPUs\n")
    if "load_validate" in f:
        print(f"load + validate the suite      {f['load_validate']['seconds'] * 1000:8.1f} ms")
    if "in_process" in f:
        ip = f["in_process"]
        print(f"in process ({ip['engine']})  {ip['cases_per_s']:8.0f} cases/s  ({ip['seconds'] * 1000:.1f} ms for the suite)")
        print(f"harness overhead (replay)      {f['harness_overhead']['cases_per_s']:8.0f} cases/s")
    if "load_vs_run_ratio" in f:
        print(f"load+validate / oracle run     {f['load_vs_run_ratio']:8.2f}   (target <= 1)")
    for key, label in (("protocol_persistent", "protocol, persistent process"), ("protocol_isolate", "protocol, --isolate")):
        value = f.get(key)
        if value is None:
            continue
        if "error" in value:
            print(f"{label:30} unavailable: {value['error']}")
        else:
            print(f"{label:30} {value['cases_per_s']:8.0f} cases/s  ({value['cases']} cases)")
    if "protocol_vs_in_process_ratio" in f:
        print(f"protocol / in-process rate     {f['protocol_vs_in_process_ratio']:8.2f}   (target >= 0.5)")
        print(f"{'':30} also the cost of a worker process, where castrules run puts every module:Class\n"
              f"{'':30} engine but the oracle so a timeout can stop it (--in-process: no worker)")
    for key, label in (("pytest_route_replay", "pytest route, harness only"), ("pytest_route_engine", "pytest route, with engine")):
        value = f.get(key)
        if value:
            print(f"{label:30} {value['route_s']:6.2f} s vs {value['empty_s']:.2f} s for {value['items']} empty tests: "
                  f"ratio {value['ratio']:.2f}" + ("   (target <= 1.5)" if key.endswith("replay") else ""))
            print(f"{'':30} beyond start-up: {value['per_item_route_ms']:.3f} ms/item vs {value['per_item_empty_ms']:.3f} ms/empty item: "
                  f"ratio {value['marginal_ratio']:.2f}")
    solver = f.get("solver")
    if solver:
        print("\npayment solver (python -m benchmarks.bench_solver):")
        print(solver.get("text") or json.dumps(solver, indent=1))
    elif "solver" in f:
        print("\npayment solver: unavailable (run from a source checkout: python -m benchmarks.bench_solver)")
