"""``castrules serve`` starts without the whole command line when it is written plainly
(``castrules/__main__.py``): the same server, reached sooner. Any other form takes the full parser."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from castrules.__main__ import plain_serve

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("args, spec", [
    (["serve"], "oracle"),
    (["serve", "--engine", "oracle"], "oracle"),
    (["serve", "--engine", "pkg.mod:Engine"], "pkg.mod:Engine"),
    (["serve", "--engine=py:pkg.mod:Engine"], "py:pkg.mod:Engine"),
    (["serve", "--help"], None),
    (["serve", "--eng", "oracle"], None),          # an abbreviation: argparse's to judge
    (["serve", "--engine"], None),                 # a usage error: the full parser says so
    (["serve", "--engine", "--help"], None),
    (["serve", "--engine="], None),
    (["serve", "--engine", "a", "b"], None),
    (["run"], None),
    ([], None),
    (["--version", "serve"], None),
])
def test_only_the_plain_forms_of_serve_take_the_short_way(args, spec):
    assert plain_serve(args) == spec


def _hello(*args: str) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "castrules", *args], input='{"type":"hello","protocol":1}\n'
                          '{"type":"stop"}\n', capture_output=True, text=True, env=env, timeout=60)
    return done.returncode, done.stdout, done.stderr


def test_the_short_way_and_the_full_parser_serve_alike():
    short = _hello("serve", "--engine", "oracle")
    full = _hello("serve", "--engine", "oracle", "--engine", "oracle")   # repeated: not plain, the full parser
    assert short[0] == full[0] == 0
    assert short[1] == full[1] and '"type":"hello"' in short[1]
    bad_short, bad_full = _hello("serve", "--engine", "nosuch:Thing"), _hello("serve", "--engine=nosuch:Thing", "--engine", "nosuch:Thing")
    assert bad_short[0] == bad_full[0] == 2 and bad_short[2] == bad_full[2] and "cannot load engine" in bad_short[2]
