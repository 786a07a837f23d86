"""The command line's parsing: no abbreviations, the subcommand's usage on errors, the closest
names suggested, and ``module:Class`` engines found in the current directory."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from castrules.harness.cli import build_parser, main
from castrules.harness.engine import load_engine

ENGINE_SOURCE = textwrap.dedent('''
    class Engine:
        """Declares only casting and skips every case: a run with it is all skips."""
        name, version = "beside-me", "1"
        features = frozenset({"casting"})

        def run(self, request):
            return {"status": "skipped", "reason": "not written yet"}
''')


def parse_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("argv", [["run", "--engin", "oracle"], ["run", "--features-inc", "prowl"],
                                  ["list", "--js"], ["mutants", "--onl", "X"], ["fuzz", "--engine", "oracle", "--exampl", "3"]])
def test_option_prefixes_are_not_accepted(argv, capsys):
    err = parse_error(argv, capsys)
    assert "unrecognized arguments" in err and argv[-2] in err


def test_every_subcommand_parser_refuses_abbreviations():
    parser = build_parser()
    subcommands = next(a for a in parser._actions if a.dest == "command").choices
    assert len(subcommands) >= 12
    assert parser.allow_abbrev is False
    assert all(p.allow_abbrev is False for p in subcommands.values())


def test_an_unknown_option_prints_the_subcommands_usage_and_the_closest_option(capsys):
    err = parse_error(["run", "--engin", "oracle"], capsys)
    assert err.startswith("usage: castrules run ")
    assert "castrules run: error:" in err and "did you mean --engine?" in err


def test_an_unknown_option_of_another_subcommand(capsys):
    err = parse_error(["mutants", "--onyl", "X"], capsys)
    assert err.startswith("usage: castrules mutants ") and "did you mean --only" in err


def test_an_unknown_command_suggests_the_closest(capsys):
    err = parse_error(["rnu"], capsys)
    assert err.startswith("usage: castrules ") and "did you mean run?" in err


def test_a_bad_value_still_names_the_subcommand(capsys):
    err = parse_error(["run", "-j", "many"], capsys)
    assert err.startswith("usage: castrules run ") and "-j" in err


def test_a_module_beside_the_user_is_importable_in_process(tmp_path, monkeypatch):
    (tmp_path / "beside_me_engine.py").write_text(ENGINE_SOURCE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "beside_me_engine", raising=False)
    engine = load_engine("beside_me_engine:Engine")
    assert engine.name == "beside-me"


def test_castrules_run_finds_mymod_beside_it(tmp_path):
    """The console script's sys.path starts at its own folder, not at the user's directory."""
    script = Path(sys.executable).with_name("castrules" + (".exe" if os.name == "nt" else ""))
    if not script.exists():
        pytest.skip(f"no castrules console script beside {sys.executable}")
    (tmp_path / "mymod.py").write_text(ENGINE_SOURCE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(script), "run", "--engine", "mymod:Engine", "--id", "casting/*", "-q", "--no-tables"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert "No module named" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    assert "beside-me" in done.stdout
