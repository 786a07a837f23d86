"""Shared fixtures: a throwaway suite root built from the real vocabularies and schemas."""

from __future__ import annotations

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


def castrules(suite, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The castrules command on a throwaway suite, with the in-process fake engines importable."""
    env = {**os.environ, "CASTRULES_SUITE": str(suite.root),
           "PYTHONPATH": os.pathsep.join([str(FAKE_INPROCESS), str(REPO), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "castrules", *args], capture_output=True, text=True, env=env, cwd=cwd)
