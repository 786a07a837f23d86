"""The GitHub Actions recipe (examples/ci/castrules.yml) works as written.

The workflow is parsed and its jobs played locally, in order: every matrix value, every step's
``run:`` command as written (expressions substituted, through bash as on a runner), the
actions it uses emulated (checkout copies a scratch engine project, artifacts are folders, the
JUnit action parses its file). Only the engine is swapped, through the workflow's own
CASTRULES_ENGINE variable, for an in-process fake with known bugs. Install steps are checked
(a path, no network) but not run: the castrules under test is already importable.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree import ElementTree

import pytest
import yaml

from tests.conftest import good_case

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
RECIPE = REPO / "examples" / "ci" / "castrules.yml"
FAKE_ENGINE = "py:fake_inprocess_engine:Engine"   # right about ids ending in "bears", wrong otherwise
EXPECTATIONS = "castrules-expectations.yaml"


def recipe() -> dict:
    return yaml.safe_load(RECIPE.read_text(encoding="utf-8"))


@dataclass
class Runner:
    """Plays a workflow's jobs; ``project`` is what actions/checkout checks out."""

    tmp: Path
    project: Path
    suite: Path
    artifacts: Path = field(init=False)
    junit: list = field(default_factory=list)
    steps: list = field(default_factory=list)      # (job, step, succeeded)
    output: list = field(default_factory=list)     # (command, exit status, stdout tail, stderr tail)

    def __post_init__(self) -> None:
        self.artifacts = self.tmp / "artifacts"
        self.artifacts.mkdir()
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        shim = self.bin / "castrules"     # the installed command, for the castrules under test
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m castrules "$@"\n')
        shim.chmod(0o755)

    def run(self, workflow: dict) -> dict[str, bool]:
        """Every job, in the order its ``needs`` allow; job name (with its matrix) -> success."""
        outcome: dict[str, bool] = {}
        done: dict[str, list[bool]] = {}
        for name, job in workflow["jobs"].items():
            needs = job.get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            assert all(n in done for n in needs), f"job {name} needs a later job"
            upstream_ok = all(all(done[n]) for n in needs)
            condition = job.get("if")
            if condition not in (None, "always()"):
                raise AssertionError(f"job {name}: condition {condition!r} is not one this test can play")
            if condition is None and not upstream_ok:
                done[name] = [False]
                continue
            done[name] = []
            for matrix in self.matrices(job):
                ok = self.job(f"{name}{matrix or ''}", job, workflow.get("env", {}), matrix)
                outcome[f"{name}{matrix or ''}"] = ok
                done[name].append(ok)
        return outcome

    @staticmethod
    def matrices(job: dict) -> list[dict]:
        matrix = job.get("strategy", {}).get("matrix")
        if not matrix:
            return [{}]
        (key, values), = matrix.items()   # one dimension is all the recipe uses
        return [{key: v, "_total": len(values)} for v in values]

    def job(self, label: str, job: dict, env: dict, matrix: dict) -> bool:
        workspace = self.tmp / "jobs" / re.sub(r"\W+", "-", label)
        workspace.mkdir(parents=True)
        summary = workspace.parent / f"{workspace.name}.summary.md"
        environment = {**os.environ, **{k: str(v) for k, v in env.items()}, **{k: str(v) for k, v in job.get("env", {}).items()},
                       "CASTRULES_ENGINE": FAKE_ENGINE, "CASTRULES_SUITE": str(self.suite), "GITHUB_STEP_SUMMARY": str(summary),
                       "PATH": os.pathsep.join([str(self.bin), os.environ.get("PATH", "")]),
                       "PYTHONPATH": os.pathsep.join([str(HERE / "fake_inprocess"), str(REPO)])}
        failed = False
        for step in job["steps"]:
            if not self.wanted(step.get("if"), failed, workspace):
                continue
            ok = self.step(step, workspace, environment, matrix)
            self.steps.append((label, step.get("name") or step.get("uses"), ok))
            failed = failed or not ok
        return not failed

    @staticmethod
    def wanted(condition: str | None, failed: bool, workspace: Path) -> bool:
        if condition is None:
            return not failed
        if condition == "always()":
            return True
        found = re.fullmatch(r"hashFiles\('([^']+)'\) == ''", condition)
        if found:
            return not failed and not list(workspace.glob(found.group(1)))
        raise AssertionError(f"condition {condition!r} is not one this test can play")

    def step(self, step: dict, workspace: Path, env: dict, matrix: dict) -> bool:
        if "run" in step:
            return self.command(expand(step["run"], matrix), workspace, env)
        action, _, version = step["uses"].partition("@")
        assert version, f"{action} is not pinned to a version"
        given = {k: expand(str(v), matrix) for k, v in step.get("with", {}).items()}
        if action == "actions/checkout":
            shutil.copytree(self.project, workspace, dirs_exist_ok=True)
        elif action == "actions/setup-python":
            assert given["python-version"].startswith("3.")
        elif action == "actions/upload-artifact":
            target = self.artifacts / given["name"]
            assert not target.exists(), f"artifact {given['name']} uploaded twice"
            target.mkdir()
            for path in workspace.glob(given["path"]):
                (shutil.copytree if path.is_dir() else shutil.copy)(path, target / path.name)
        elif action == "actions/download-artifact":
            for artifact in sorted(self.artifacts.iterdir()):
                if fnmatch.fnmatchcase(artifact.name, given["pattern"]):
                    shutil.copytree(artifact, workspace / given["path"] / artifact.name)
        elif action == "mikepenz/action-junit-report":
            report = workspace / given["report_paths"]
            if not report.exists():
                return False
            self.junit.append(ElementTree.parse(report).getroot())   # the action needs well-formed XML
        else:
            raise AssertionError(f"action {action} is not one this test can play")
        return True

    def command(self, script: str, workspace: Path, env: dict) -> bool:
        if re.match(r"python -m pip install ", script):
            target = script.split()[-1]
            assert target.startswith("./") and "://" not in script and "@" not in script, script
            return True
        done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=workspace, env=env,
                              capture_output=True, text=True, timeout=300)
        self.output.append((script, done.returncode, done.stdout[-2000:], done.stderr[-2000:]))
        return done.returncode == 0


def expand(text: str, matrix: dict) -> str:
    """The expressions the recipe uses; anything else fails the test, so it stays playable."""
    values = {"matrix.shard": matrix.get("shard"), "strategy.job-total": matrix.get("_total")}

    def one(found: re.Match) -> str:
        key = found.group(1).strip()
        assert values.get(key) is not None, f"expression ${{{{ {key} }}}} is not one this test can play"
        return str(values[key])

    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


@pytest.fixture
def ci(suite_builder, tmp_path):
    b = suite_builder
    for name in ("bears", "other-bears", "wrong", "also-wrong"):
        b.case(f"cases/casting/{name}.yaml", good_case(f"casting/fixture/{name}"))
    b.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    project = tmp_path / "myengine"
    (project / "third_party" / "castrules").mkdir(parents=True)
    (project / "README.md").write_text("an engine project\n")
    return fresh_runner(tmp_path / "ci", project, b.root)


def fresh_runner(folder: Path, project: Path, suite: Path) -> Runner:
    folder.mkdir()
    return Runner(folder, project, suite)


def test_the_recipe_has_what_a_matrix_with_junit_needs():
    workflow = recipe()
    assert workflow["permissions"]["checks"] == "write"      # the JUnit action publishes a check run
    assert workflow["jobs"]["conformance"]["strategy"]["fail-fast"] is False
    assert workflow["jobs"]["merge"]["needs"] == "conformance" and workflow["jobs"]["merge"]["if"] == "always()"
    text = RECIPE.read_text()
    assert "git+" not in text and "https://" not in text       # installs from a path only


def test_first_run_creates_the_expectations_file_and_goes_green(ci):
    outcome = ci.run(recipe())
    assert outcome == {"conformance{'shard': 1, '_total': 2}": True, "conformance{'shard': 2, '_total': 2}": True,
                       "merge": True}, ci.output
    created = ci.artifacts / "castrules-shard-1" / EXPECTATIONS
    entries = yaml.safe_load(created.read_text())["cases"]
    assert sorted(entries) == ["casting/fixture/also-wrong", "casting/fixture/wrong"]   # the whole suite, not one shard
    merged = (ci.artifacts / "castrules-report" / "castrules-report.jsonl").read_text().splitlines()
    assert len(merged) == 1 + 5 + 1                             # header, every case of both shards, footer
    assert '"known_failure"' in "".join(merged) and (ci.artifacts / "castrules-report" / "castrules-report.html").exists()
    assert sum(int(suite.get("tests")) for root in ci.junit for suite in root.iter("testsuite")) == 5


def test_a_regression_turns_one_shard_red_and_the_merge_still_reports_every_case(ci, tmp_path):
    first = ci.run(recipe())
    assert all(first.values())
    # the project commits the file the first run created; then a case its engine gets wrong appears
    shutil.copy(ci.artifacts / "castrules-shard-1" / EXPECTATIONS, ci.project / EXPECTATIONS)
    (ci.suite / "cases" / "casting" / "new-wrong.yaml").write_text(
        yaml.safe_dump(good_case("casting/fixture/new-wrong"), sort_keys=False))
    second = fresh_runner(tmp_path / "ci2", ci.project, ci.suite)
    outcome = second.run(recipe())
    assert sorted(outcome.values()) == [False, False, True], second.output   # one red shard, the other green, merge red
    merged = second.artifacts / "castrules-report"
    summary = (merged / "castrules-report.jsonl").read_text()
    assert summary.count('"type": "case"') == 6 and '"id": "casting/fixture/new-wrong", "status": "fail"' in summary
    assert not any(step.startswith("Create the expectations") for _, step, _ in second.steps)   # the committed file is used


def test_the_readme_shows_the_recipe_file_as_it_is():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## In another project's CI", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```yaml\n(.*?)```", section, flags=re.S)
    assert RECIPE.read_text(encoding="utf-8") in blocks, "the README's CI section must show examples/ci/castrules.yml as it is"
