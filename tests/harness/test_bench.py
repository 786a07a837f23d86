"""``castrules bench`` prints every figure of issue 16 and names it in ``--json``.

Only the figures' presence is checked, never their values: speed is printed by the bench and
read by people (no test times anything). One ``--quick`` run (a sample of the suite, one
repetition) serves every test of the module.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from castrules.harness.bench import FIGURES, PARTS, print_figures

# the figure inside each part that the README's Speed table reports
NESTED = {
    "machine": ("python", "cpus", "reference_ms", "reference_end_ms"),
    "load_validate": ("seconds",),
    "in_process": ("cases_per_s", "seconds"),
    "protocol_persistent": ("cases_per_s", "first_pass_cases_per_s"),
    "protocol_isolate": ("cases_per_s",),
    "engine_startup": ("seconds",),
    "worker_process": ("worker_cases_per_s", "in_process_cases_per_s", "ratio", "startup_s"),
    "pytest_route_replay": ("per_item_route_ms", "per_item_empty_ms", "marginal_ratio", "ratio"),
    "pytest_route_engine": ("per_item_route_ms", "per_item_empty_ms", "per_item_route_minus_engine_ms"),
    "fuzz": ("examples_per_s", "examples"),
    "growth": ("copies", "ratio", "load_ratio", "run_ratio", "cases", "cases_copied"),
    "parallel": ("jobs", "speedup", "speedup_with_start", "serial", "parallel"),
    "solver": ("figures", "text"),
}


@pytest.fixture(scope="module")
def figures() -> dict:
    done = subprocess.run([sys.executable, "-m", "castrules", "bench", "--quick", "--json"],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("{"), done.stdout[:2000]
    return json.loads(done.stdout)


def test_the_json_has_every_figure(figures):
    assert [key for key in FIGURES if key not in figures] == []
    for key, inner in NESTED.items():
        assert figures[key] is not None, key
        assert [name for name in inner if name not in figures[key]] == [], key
    assert "error" not in figures["protocol_persistent"] and "error" not in figures["protocol_isolate"]


def test_the_reference_workload_is_the_same_work_each_time():
    """The machine's reference depends on no castrules code and always does the same work."""
    from castrules.harness.bench_scale import _reference_work, describe_reference

    # the digits of 0..99,999 (488,890) plus the distinct (i % 97, i % 13) pairs seen so far after
    # each i: 97 and 13 are coprime, so i + 1 until all 1,261 pairs are seen, then 1,261
    digits = 10 * 1 + 90 * 2 + 900 * 3 + 9_000 * 4 + 90_000 * 5
    pairs = 1_261 * 1_262 // 2 + (100_000 - 1_261) * 1_261
    assert _reference_work() == _reference_work() == digits + pairs
    assert "at the end" in describe_reference({"reference_ms": 40.0, "reference_end_ms": 44.0})
    assert describe_reference({}) == "not measured"


def test_the_growth_copy_holds_ten_times_the_cases(figures):
    growth = figures["growth"]
    assert growth["copies"] == 10 and growth["cases_copied"] == 10 * growth["cases"]
    assert growth["one"]["problems"] == 0 and growth["many"]["problems"] == 0   # the copy is a valid suite
    assert growth["many"]["passed"] == 10 * growth["one"]["passed"]


def test_the_parallel_run_reports_what_the_serial_one_does(figures):
    parallel = figures["parallel"]
    assert parallel["parallel"]["lanes"] == parallel["jobs"] == 2
    assert parallel["parallel"]["passed"] == parallel["serial"]["passed"] == figures["cases"]


def test_the_text_prints_a_line_for_every_figure(figures):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_figures(figures)
    text = out.getvalue()
    for label in ("load + validate", "in process", "protocol, persistent process", "protocol / in-process rate",
                  "protocol, --isolate", "worker process (py: engine)", "engine start-up", "--isolate per case / start-up", "pytest route, harness only",
                  "ms/empty item", "the engine's own time (loading it, a first pass) taken out", "examples/s", "growth: suite x10", "-j 2 / serial",
                  "payment solver"):
        assert label in text, label


def test_every_part_can_be_skipped():
    from castrules.harness.bench_cli import register
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    assert set(parser.parse_args(["bench", "--skip", ",".join(PARTS)]).skip) == set(PARTS)


def test_a_failed_pytest_run_is_an_error_never_a_figure(tmp_path):
    """A pytest run of the bench that does not run its items (here: an engine that cannot be
    loaded) gives the figure an error, printed as such, and makes ``castrules bench`` exit 1:
    its time (pytest stopping at once) once made a negative cost per item."""
    from castrules.harness import paths
    from castrules.harness.bench import failed_figures, measure_pytest

    case = sorted((paths.cases_dir() / "prowl").glob("*.yaml"))[0]
    figure = measure_pytest("py:no_such_castrules_engine:Engine", 1, 1, [str(case)])
    assert set(figure) == {"items", "error"}
    assert "run 0 of 1 items" in figure["error"] and "no_such_castrules_engine" in figure["error"]
    figures = {"machine": {"python": "3", "cpus": 2}, "cases": 1, "pytest_route_engine": figure}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        print_figures(figures)
    assert "pytest route, with engine" in out.getvalue() and "FAILED, no figure" in out.getvalue()
    assert "ms/item" not in out.getvalue()
    assert failed_figures(figures) == ["pytest_route_engine"]


def test_pytest_counts_read_the_last_line():
    from castrules.harness.bench import _pytest_counts

    assert _pytest_counts("....\n889 passed in 12.94s\n") == {"passed": 889}
    assert _pytest_counts("F.\n1 failed, 1 passed, 2 warnings in 0.1s\n") == {"failed": 1, "passed": 1, "warnings": 2}
    assert _pytest_counts("ERROR: usage\n") == {}
    assert _pytest_counts("") == {}
