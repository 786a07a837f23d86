"""Installing castrules puts one import name, ``castrules``, into the environment (issue 11).

The wheel is built from this checkout and installed into a fresh environment beside a scratch
engine project that has its own ``harness.py`` and ``oracle.py`` (very common names). That
project's own tests must still import its own modules, and ``pytest --engine=oracle`` there
must run the shipped suite on the embedded oracle.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

from castrules.harness.bench import PARTS

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not (REPO / "pyproject.toml").is_file(), reason="needs a source checkout to build the wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(REPO)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot build a wheel here (pip wheel: {done.stderr.strip()[-300:]})")
    return next(out.glob("castrules-*.whl"))


@pytest.fixture(scope="module")
def fresh_python(wheel, tmp_path_factory) -> Path:
    """A new environment holding only the wheel (see ``_environment``)."""
    return _environment(wheel, tmp_path_factory.mktemp("env") / "venv")


def _environment(wheel: Path, where: Path) -> Path:
    """A new environment at ``where`` holding only the wheel; its dependencies come from this test's
    environment through a path file (whose own .pth files, among them an editable install of
    castrules, are deliberately not processed)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(purelib), str(wheel)],
                   check=True, capture_output=True)
    ours = {sysconfig.get_paths()["purelib"], *site.getsitepackages()}
    (purelib / "zz_castrules_test_deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python


def test_the_wheel_has_one_top_level_name(wheel):
    names = {n.split("/", 1)[0] for n in zipfile.ZipFile(wheel).namelist()}
    tops = {n for n in names if not n.endswith(".dist-info")}
    assert tops == {"castrules"}, tops
    listed = zipfile.ZipFile(wheel).read(next(n for n in zipfile.ZipFile(wheel).namelist()
                                              if n.endswith(".dist-info/top_level.txt"))).decode().split()
    assert listed == ["castrules"]


def _scratch_project(root: Path) -> Path:
    project = root / "engine-project"
    (project / "tests").mkdir(parents=True)
    (project / "oracle.py").write_text("ANSWER = 'the project oracle'\n")
    (project / "tests" / "harness.py").write_text("def harness_helper():\n    return 'the project harness'\n")
    (project / "tests" / "test_own.py").write_text(textwrap.dedent("""
        import harness
        import oracle
        from harness import harness_helper

        def test_own_harness():
            assert harness_helper() == 'the project harness'
            assert oracle.ANSWER == 'the project oracle'
    """))
    (project / "pyproject.toml").write_text('[tool.pytest.ini_options]\npythonpath = ["."]\n')
    return project


def _pytest(python: Path, project: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CASTRULES_SUITE")}
    return subprocess.run([str(python), "-m", "pytest", "-p", "no:cacheprovider", *args],
                          capture_output=True, text=True, cwd=project, env=env, timeout=600)


def test_scratch_project_keeps_its_own_harness_and_oracle(fresh_python, tmp_path):
    project = _scratch_project(tmp_path)
    where = subprocess.run([str(fresh_python), "-c", "import castrules.harness, castrules.oracle; print(castrules.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert str(REPO) not in where.stdout, "the fresh environment must use the installed wheel, not this checkout"
    done = _pytest(fresh_python, project, "-q", "tests")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout


def test_scratch_project_runs_the_shipped_suite_on_the_oracle(fresh_python, tmp_path):
    project = _scratch_project(tmp_path)
    done = _pytest(fresh_python, project, "-q", "--engine=oracle", "-k", "prowl and raptor")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "failed" not in done.stdout


def test_bench_runs_the_pytest_route_from_an_environment_inside_a_checkout(wheel, tmp_path):
    """castrules installed (not editable) into an environment inside a source checkout, as
    ``git clone`` then ``python -m venv .venv`` then ``pip install .`` leaves it. The installed suite
    then lies under the checkout, whose pyproject.toml pytest took as its settings when bench
    gave it that folder: its ``pythonpath = ["."]`` put the checkout's ``castrules`` folder (no
    ``harness`` in it) before the installed package, the plugin failed to load, and bench printed
    a negative cost per item. Bench's pytest runs must run every item and print real figures."""
    checkout = tmp_path / "clone"
    shutil.copytree(REPO / "castrules", checkout / "castrules", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", checkout / "pyproject.toml")
    python = _environment(wheel, checkout / ".venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CASTRULES_SUITE")}
    others = ",".join(part for part in PARTS if part != "pytest")
    done = subprocess.run([str(python), "-m", "castrules", "bench", "--quick", "--json", "--skip", others],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(done.stdout)
    for key in ("pytest_route_replay", "pytest_route_engine"):
        assert "error" not in figures[key], figures[key]
        assert figures[key]["items_run"] == figures[key]["items"] == figures["cases"]
    assert figures["machine"]["suite"].startswith(str(checkout / ".venv")), "bench must measure the installed suite"
