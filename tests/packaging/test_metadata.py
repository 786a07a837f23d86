"""What the distribution says about itself (issue 13): an SPDX license with its LICENSE file in
the wheel and the sdist, ``py.typed`` shipped, no project URL that does not exist, and
classifiers only for the Python versions the tests were run on.

The backend pyproject asks for is installed apart, and the sdist and the wheel are built once
for the module through it (PEP 517 hooks), so these tests cost one build.
"""

from __future__ import annotations

import email.parser
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
VERIFIED_PYTHONS = {"3.11", "3.12", "3.13"}   # the full test suite passed on each (see the README)

pytestmark = pytest.mark.skipif(not (REPO / "pyproject.toml").is_file(), reason="needs a source checkout to build")


def pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    # the backend rewrites sys.argv while it builds: keep the output folder aside first
    script = "import sys, setuptools.build_meta as b; out = sys.argv[1]; b.build_sdist(out); b.build_wheel(out)"
    env_dir = tmp_path_factory.mktemp("backend")
    requires = pyproject()["build-system"]["requires"]
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(env_dir), *requires],
                             capture_output=True, text=True)
    if install.returncode != 0:
        pytest.skip(f"cannot install the build backend here: {install.stderr.strip()[-300:]}")
    # a copy of the checkout: the backend writes build folders beside the sources, and two
    # builds in one tree at the same time (parallel test runs) would trip over each other
    source = tmp_path_factory.mktemp("source") / "castrules"
    shutil.copytree(REPO, source, ignore=_leftovers)
    done = subprocess.run([sys.executable, "-c", script, str(out)], cwd=source, capture_output=True, text=True,
                          env={"PYTHONPATH": str(env_dir), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr[-2000:]
    return {"sdist": next(out.glob("castrules-*.tar.gz")), "wheel": next(out.glob("castrules-*.whl"))}


def _leftovers(folder: str, names: list[str]) -> set[str]:
    """What a copy of the checkout leaves out: version control, caches, earlier builds."""
    skipped = {n for n in names if n in {".git", "__pycache__", ".hypothesis", ".venv"} or n.endswith(".egg-info")}
    if Path(folder) == REPO:
        skipped |= {n for n in names if n in {"build", "dist"} or n.startswith("castrules-")}
    return skipped


def wheel_metadata(wheel: Path) -> email.message.Message:
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        return email.parser.Parser().parsestr(archive.read(name).decode("utf-8"))


def test_the_license_is_an_spdx_expression_with_a_backend_that_supports_it():
    project = pyproject()
    assert project["project"]["license"] == "MIT"
    assert project["project"]["license-files"] == ["LICENSE"]
    (requirement,) = project["build-system"]["requires"]
    assert requirement.replace(" ", "").startswith("setuptools>=77"), requirement  # PEP 639 support
    assert "<" in requirement, "an upper bound: a new major of the backend is admitted once tested"
    assert not any(c.startswith("License ::") for c in project["project"]["classifiers"])


def test_the_license_file_is_mit_for_the_castrules_developers():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "castrules developers" in text
    assert "WITHOUT WARRANTY OF ANY KIND" in text


def test_the_wheel_carries_the_license_and_py_typed(built):
    with zipfile.ZipFile(built["wheel"]) as archive:
        names = archive.namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names[-10:]
    assert "castrules/py.typed" in names
    metadata = wheel_metadata(built["wheel"])
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]


def test_the_sdist_carries_the_license(built):
    with tarfile.open(built["sdist"]) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"LICENSE", "pyproject.toml", "castrules/py.typed"} <= names


def test_no_made_up_project_urls(built):
    assert "urls" not in pyproject()["project"]
    metadata = wheel_metadata(built["wheel"])
    assert metadata.get_all("Project-URL") is None and metadata["Home-page"] is None


def test_classifiers_name_only_the_verified_pythons(built):
    classifiers = wheel_metadata(built["wheel"]).get_all("Classifier")
    versions = {c.rsplit("::", 1)[1].strip() for c in classifiers
                if c.startswith("Programming Language :: Python :: 3.")}
    assert versions == VERIFIED_PYTHONS
    assert wheel_metadata(built["wheel"])["Requires-Python"] == ">=3.11"


def test_the_wheel_carries_the_solver_benchmark(built):
    """``python -m castrules.benchmarks.bench_solver`` (and bench's solver figures) from an install."""
    with zipfile.ZipFile(built["wheel"]) as archive:
        names = archive.namelist()
    assert {"castrules/benchmarks/__init__.py", "castrules/benchmarks/bench_solver.py"} <= set(names)
