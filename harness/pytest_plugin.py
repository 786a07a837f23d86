"""pytest plugin: every case is a pytest item (pytest's "non-python tests" convention).

``pytest --engine=ENGINE`` runs the suite on that engine; in this repository plain ``pytest``
runs the project's tests and every case on the oracle. Node ids carry the case id, each
feature is a marker (``-m prowl``), ``-k`` and ``--junitxml`` work as usual.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from castrules.harness import paths
from castrules.harness.console import describe_result
from castrules.harness.engine import close, load_engine, oracle_explainer
from castrules.harness.expectations import default_expectations
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.suite import METADATA_DIRS, Suite, shared_suite
from castrules.harness.vocabulary import load as load_vocabulary


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("castrules", "castrules conformance suite")
    group.addoption("--engine", default=None, help="engine for the castrules cases: oracle (default), module:Class or a command line")
    group.addoption("--expectations", type=Path, default=None, help="castrules expectations file (known failures)")
    group.addoption("--castrules-timeout", type=float, default=10.0, help="seconds per case for protocol engines")
    group.addoption("--castrules-isolate", action="store_true", help="protocol engines: a fresh process per case")


def pytest_configure(config: pytest.Config) -> None:
    vocabulary = load_vocabulary()
    for feature, description in vocabulary.features.items():
        config.addinivalue_line("markers", f"{feature}: castrules cases needing {description}")
    config.addinivalue_line("markers", "castrules: every castrules case")
    config.stash[_STATE] = _State(config)
    cases = paths.cases_dir()
    if config.getoption("engine") and not any(_inside(Path(a.split("::")[0]), cases) for a in config.args):
        # Installed in another project: `pytest --engine=...` brings the shipped suite along.
        if config.args == [str(config.invocation_params.dir)] or not config.args:
            config.args[:] = [str(cases)]
        else:
            config.args.append(str(cases))


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix not in (".yaml", ".yml", ".json"):
        return None
    relative = _relative_to_cases(file_path)
    if relative is None or len(relative) < 2 or relative[0] in METADATA_DIRS:
        return None
    return CaseFile.from_parent(parent, path=file_path)


@cache
def _cases_prefixes() -> tuple[str, ...]:
    folder = paths.cases_dir()
    return tuple({str(folder) + os.sep, str(folder.resolve()) + os.sep})


def _relative_to_cases(file_path: Path) -> tuple[str, ...] | None:
    """The parts of a path below cases/, or None; string work only (this runs for every file)."""
    text = str(file_path)
    for prefix in _cases_prefixes():
        if text.startswith(prefix):
            return tuple(text[len(prefix):].split(os.sep))
    return None


class _State:
    """The suite and the engine, loaded once per pytest process."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self._suite: Suite | None = None
        self._engine = None
        self._expectations = None
        self._by_file: dict[str, list] | None = None
        self._problems: dict[str, list] | None = None
        self._explainer = None

    @property
    def suite(self) -> Suite:
        if self._suite is None:
            self._suite = shared_suite()
            self._by_file = {}
            for case in self._suite.cases:
                self._by_file.setdefault(str(case.path.resolve()), []).append(case)
        return self._suite

    def cases_in(self, path: Path) -> list:
        self.suite
        found = self._by_file.get(str(path))
        return found if found is not None else self._by_file.get(str(path.resolve()), [])

    def problems_in(self, path: Path) -> list:
        if self._problems is None:
            self._problems = {}
            for problem in self.suite.problems:
                self._problems.setdefault(problem.file, []).append(problem)
        relative = _relative_to_cases(path)
        return self._problems.get("/".join(("cases", *relative)), []) if relative else []

    @property
    def engine(self):
        if self._engine is None:
            self._engine = load_engine(self.config.getoption("engine") or "oracle",
                                       timeout=self.config.getoption("castrules_timeout"),
                                       isolate=self.config.getoption("castrules_isolate"))
            given = self.config.getoption("expectations")
            self._expectations = default_expectations(self._engine, given)
            self._explainer = oracle_explainer(self._engine)
        return self._engine

    @property
    def expectations(self):
        self.engine
        return self._expectations

    @property
    def explainer(self):
        self.engine
        return self._explainer

    def close(self) -> None:
        if self._engine is not None:
            close(self._engine)
            self._engine = None


_STATE = pytest.StashKey[_State]()


class CaseFile(pytest.File):
    def collect(self):
        state = self.config.stash[_STATE]
        problems = state.problems_in(self.path)
        if problems:
            yield BrokenCaseItem.from_parent(self, name=self.path.stem, problems=problems)
            return
        for case in state.cases_in(self.path):
            item = CaseItem.from_parent(self, name=case.id, case=case)
            item.add_marker(pytest.mark.castrules)
            for feature in case.features:
                item.add_marker(getattr(pytest.mark, feature))
            yield item


class CaseFailure(Exception):
    def __init__(self, result):
        super().__init__(result.case_id)
        self.result = result


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        state = self.config.stash[_STATE]
        result = run_case(state.engine, self.case, state.suite.catalog, state.expectations, state.explainer)
        self.user_properties.append(("rules", " ".join(self.case.rules)))
        status = result.status
        if status is Status.PASS:
            return
        if status in (Status.UNSUPPORTED, Status.SKIPPED):
            pytest.skip(f"{status.value}: {result.message}")
        if status is Status.KNOWN_FAILURE:
            pytest.xfail(result.message.splitlines()[0])
        raise CaseFailure(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFailure):
            return describe_result(excinfo.value.result).lstrip("\n")
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"case {self.case.id}"


class BrokenCaseItem(pytest.Item):
    """A case file that does not load: it fails with every problem found, the others run."""

    def __init__(self, *, problems, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.problems = problems

    def runtest(self) -> None:
        raise CaseFileError(self.problems)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CaseFileError):
            return "invalid case file:\n" + "\n".join(f"  {p}" for p in excinfo.value.problems)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"case file {self.path.name}"


class CaseFileError(Exception):
    def __init__(self, problems):
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = problems


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except (ValueError, OSError):
        return False
