"""Shared fixtures: a throwaway suite root built from the real vocabularies and schemas."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, settings

# Hypothesis must never time a test either (tests/test_no_timed_assertions.py): no deadline,
# and no "too slow" health check, which fails a test that is merely slow on a busy machine.
# Tests' own settings(...) build on this profile.
settings.register_profile("castrules", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("castrules")

REPO = Path(__file__).resolve().parent.parent
FAKE_INPROCESS = REPO / "tests" / "harness" / "fake_inprocess"

FIXTURE_CARDS = [
    {"name": "Forest", "real": True, "mana_cost": None, "type_line": "Basic Land — Forest",
     "text": "Taps for green mana.", "abilities": [{"kind": "mana", "cost": "{T}", "add": "{G}"}]},
    {"name": "Grizzly Bears", "real": True, "mana_cost": "{1}{G}", "type_line": "Creature — Bear",
     "power": "2", "toughness": "2", "text": "A vanilla creature."},
]


def good_case(case_id: str = "casting/fixture/bears", **overrides) -> dict:
    doc = {
        "id": case_id,
        "title": "Grizzly Bears cast with two Forests",
        "rules": ["601.2a"],
        "features": ["casting"],
        "why": "Two Forests pay {1}{G}; the Bears move from hand to the stack as they are cast.",
        "setup": {
            "players": {"A": {}, "B": {}},
            "objects": [
                {"id": "bears", "card": "Grizzly Bears", "zone": "hand", "owner": "A"},
                {"id": "f1", "card": "Forest", "zone": "battlefield", "controller": "A"},
                {"id": "f2", "card": "Forest", "zone": "battlefield", "controller": "A"},
            ],
        },
        "steps": [{"cast": {"player": "A", "object": "bears"}}],
        "expect": [{"after": 1, "legal": True, "total_cost": "{1}{G}"},
                   {"after": "final", "objects": {"bears": {"zone": "stack"}}}],
    }
    doc.update(overrides)
    return doc


@pytest.fixture(autouse=True, scope="session")
def _load_cache_of_the_tests(tmp_path_factory) -> None:
    """The tests' loads keep their checked case files in a folder of their own, not the user's
    cache folder (harness.load_cache)."""
    os.environ.setdefault("CASTRULES_CACHE_DIR", str(tmp_path_factory.mktemp("load-cache")))


class SuiteBuilder:
    def __init__(self, root: Path):
        self.root = root
        (root / "cases" / "catalog").mkdir(parents=True)
        shutil.copytree(REPO / "schema", root / "schema")
        for name in ("features.yaml", "rulings.yaml", "retired-ids.txt"):
            if (REPO / "cases" / name).exists():
                shutil.copy(REPO / "cases" / name, root / "cases" / name)
        self.write("cases/catalog/cards.yaml", yaml.safe_dump(FIXTURE_CARDS, sort_keys=False))

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def case(self, relative: str, doc: dict) -> Path:
        return self.write(relative, yaml.safe_dump(doc, sort_keys=False))


@pytest.fixture
def suite_builder(tmp_path: Path) -> SuiteBuilder:
    return SuiteBuilder(tmp_path / "suite")


def castrules(suite, *args: str, cwd: Path | None = None, process: bool = False) -> subprocess.CompletedProcess:
    """The castrules command on a throwaway suite, with the in-process fake engines importable.

    In this process by default (``cli.main``, its output captured): a Python start and the
    suite's loading per call made the subprocess tests most of the suite's time. Engines that
    are not castrules' own still run in their worker processes, as in a real run. ``process``
    runs a real ``python -m castrules`` for tests about the process boundary itself."""
    if process:
        env = {**os.environ, "CASTRULES_SUITE": str(suite.root),
               "PYTHONPATH": os.pathsep.join([str(FAKE_INPROCESS), str(REPO), os.environ.get("PYTHONPATH", "")])}
        return subprocess.run([sys.executable, "-m", "castrules", *args], capture_output=True, text=True, env=env, cwd=cwd,
                              timeout=PROCESS_TIMEOUT)
    return castrules_in_process(suite.root, list(args), cwd)


PROCESS_TIMEOUT = 120   # seconds: a hung castrules process fails its test instead of the whole session


def run_with_report(suite: SuiteBuilder, cases: int, *args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    """``castrules run --no-tables ARGS`` in a process of its own on ``cases`` passing cases
    (casting/fixture/c0, c1, ...), with its JSON lines report: the run and the report's records
    (header and footer included)."""
    for n in range(cases):
        suite.case(f"cases/casting/c{n}.yaml", good_case(f"casting/fixture/c{n}"))
    report = suite.root.parent / "report.jsonl"
    done = castrules(suite, "run", "--no-tables", "--report", str(report), *args, process=True)
    return done, [json.loads(line) for line in report.read_text().splitlines()] if report.exists() else []


def _forget_the_suite() -> None:
    """Drop what a process caches about its suite root, so each call sees its own suite."""
    from castrules.harness import contract, paths, suite, vocabulary

    for cached in (paths.suite_root, suite.shared_suite, vocabulary.load, contract.load_contract):
        cached.cache_clear()


def castrules_in_process(root: Path, args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``castrules ARGS`` run by ``cli.main`` here, as the subprocess would run it: the suite
    root in CASTRULES_SUITE, the fake engines importable, cwd, stdout and stderr its own."""
    import contextlib
    import io

    from castrules.harness.cli import main

    saved_env, saved_path, saved_cwd = os.environ.get("CASTRULES_SUITE"), list(sys.path), os.getcwd()
    out, err = io.StringIO(), io.StringIO()
    os.environ["CASTRULES_SUITE"] = str(root)
    sys.path[:0] = [str(FAKE_INPROCESS), str(REPO)]
    _forget_the_suite()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(args)
            except SystemExit as exc:   # argparse's usage errors and --help
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    finally:
        os.chdir(saved_cwd)
        sys.path[:] = saved_path
        if saved_env is None:
            os.environ.pop("CASTRULES_SUITE", None)
        else:
            os.environ["CASTRULES_SUITE"] = saved_env
        _forget_the_suite()
    return subprocess.CompletedProcess(["castrules", *args], code, out.getvalue(), err.getvalue())
