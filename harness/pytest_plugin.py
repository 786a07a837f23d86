"""pytest plugin: every case is a pytest item (pytest's "non-python tests" convention).

``pytest --castrules-engine=ENGINE`` (or ``--engine=ENGINE``) runs the suite on that engine; in
this repository plain ``pytest`` runs the project's tests and every case on the oracle.

The plugin is registered in every pytest session of the environment, so it claims only names
of its own: the options are ``--castrules-*`` and the ini keys ``castrules_*``; the short
``--engine`` and ``--expectations`` are added as aliases only when no conftest.py or other
plugin has taken them (an engine project's own ``--engine`` wins, and castrules is reached
through the prefixed name). Markers are ``castrules`` and ``castrules_<feature>``
(``-m castrules_prowl``). Node ids are ``castrules/<area>/<file>::<case id>`` wherever the
suite is installed, so JUnit class names do not carry a site-packages path. An engine that
cannot load or an expectations file that is missing or bad stops the session once, as a usage
error, before any case runs.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from castrules.harness import paths
from castrules.harness.console import describe_result
from castrules.harness.engine import close, oracle_explainer
from castrules.harness.engine_errors import EngineLoadError
from castrules.harness.values import seconds
from castrules.harness.expectations import ExpectationsError, default_expectations
from castrules.harness.local_cases import CATALOG, check_folders, display_name
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.suite import METADATA_DIRS, Suite, shared_suite
from castrules.harness.textsafe import safe_line
from castrules.harness.vocabulary import load as load_vocabulary

MARKER_PREFIX = "castrules_"
NODE_PREFIX = "castrules"
# short aliases, each added only when nobody else has the name: (alias, dest, help)
ALIASES = (("--engine", "castrules_engine", "the same as --castrules-engine"),
           ("--expectations", "castrules_expectations", "the same as --castrules-expectations"))


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("castrules", "castrules conformance suite")
    group.addoption("--castrules-engine", dest="castrules_engine", default=None,
                    help="engine for the castrules cases: oracle (default), module:Class or a command line")
    group.addoption("--castrules-expectations", dest="castrules_expectations", type=Path, default=None,
                    help="castrules expectations file (known failures); missing or invalid: a usage error")
    group.addoption("--castrules-timeout", type=seconds, default=10.0, help="seconds per case for protocol engines and engines in a worker process")
    group.addoption("--castrules-isolate", action="store_true", help="protocol engines: a fresh process per case")
    group.addoption("--castrules-cases", dest="castrules_cases", action="append", type=Path, default=[], metavar="DIR",
                    help="add your own case files from DIR (cards from DIR/catalog/), ids prefixed 'local:' (repeatable)")
    group.addoption("--castrules-in-process", action="store_true",
                    help="run a module:Class engine in the pytest process, not in its worker process (no timeout can stop it)")
    parser.addini("castrules_engine", "engine for the castrules cases when --castrules-engine is not given", default="")
    parser.addini("castrules_expectations", "castrules expectations file when --castrules-expectations is not given",
                  default="")


@pytest.hookimpl(wrapper=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]):
    """After the project's conftest.py files and the other plugins have added their options,
    add the short aliases they left free."""
    result = yield
    group = parser.getgroup("castrules")
    for alias, dest, text in ALIASES:
        if not _option_taken(parser, alias):
            group.addoption(alias, dest=dest, type=Path if dest.endswith("expectations") else None,
                            default=None, help=text)
    return result


def _option_taken(parser: pytest.Parser, name: str) -> bool:
    groups = [getattr(parser, "_anonymous", None), *getattr(parser, "_groups", [])]
    return any(name in option.names() for group in groups if group is not None for option in group.options)


def engine_spec(config: pytest.Config) -> str | None:
    """The engine asked for: the option, else the ini key; None when neither names one."""
    return config.getoption("castrules_engine", None) or config.getini("castrules_engine") or None


def expectations_path(config: pytest.Config) -> Path | None:
    given = config.getoption("castrules_expectations", None)
    if given is None and config.getini("castrules_expectations"):
        given = Path(str(config.getini("castrules_expectations")))
        if not given.is_absolute():
            given = config.rootpath / given
    return given


def pytest_configure(config: pytest.Config) -> None:
    vocabulary = load_vocabulary()
    for feature, description in vocabulary.features.items():
        config.addinivalue_line("markers", f"{MARKER_PREFIX}{feature}: castrules cases needing {description}")
    config.addinivalue_line("markers", "castrules: every castrules case")
    _check_markers(config, vocabulary.features)
    state = config.stash[_STATE] = _State(config)
    if config.getoption("help", False) or config.getoption("version", False):
        return
    try:
        state.local = tuple(p.resolve() for p in check_folders(config.getoption("castrules_cases", None) or ()))
    except ValueError as exc:
        raise pytest.UsageError(f"castrules: {exc}".replace("--cases", "--castrules-cases")) from None
    config.args.extend(str(folder) for folder in state.local if str(folder) not in config.args)
    if engine_spec(config) or expectations_path(config) is not None:
        try:
            state.load()   # an explicit engine or file: checked now, once, before anything runs
        except (EngineLoadError, ExpectationsError) as exc:
            raise pytest.UsageError(f"castrules: {safe_line(exc)}") from None
        for warning in state.warnings():
            config.issue_config_time_warning(pytest.PytestConfigWarning(f"castrules: {warning}"), stacklevel=2)
        if not hasattr(config, "workerinput") and config.getoption("numprocesses", None):
            state.close()  # an xdist controller runs no case: its workers load their own engine
    cases = paths.cases_dir()
    if engine_spec(config) and not any(_inside(Path(str(a).split("::")[0]), cases) for a in config.args):
        # Installed in another project: `pytest --castrules-engine=...` brings the shipped suite along.
        if config.args == [str(config.invocation_params.dir)] or not config.args:
            config.args[:] = [str(cases)]
        else:
            config.args.append(str(cases))


def _check_markers(config: pytest.Config, features) -> None:
    """``-m castrules_prowel`` would deselect everything quietly: a usage error with the closest."""
    import re

    from castrules.harness.names import suggestion

    expression = config.getoption("markexpr", "") or ""
    known = {f"{MARKER_PREFIX}{f}" for f in features}
    for name in re.findall(rf"\b{MARKER_PREFIX}\w+", expression):
        if name not in known:
            raise pytest.UsageError(f"castrules: -m {expression!r}: unknown marker {name!r}{suggestion(name, known)}")


def pytest_unconfigure(config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is not None:
        state.close()


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix not in (".yaml", ".yml", ".json"):
        return None
    state = parent.config.stash.get(_STATE, None)
    local = state.local_name(file_path) if state is not None and state.local else None
    if local is not None:   # a --castrules-cases file: named by its folder, like the suite's files
        return CaseFile.from_parent(parent, path=file_path, nodeid="/".join((NODE_PREFIX, "local", local)))
    relative = _relative_to_cases(file_path)
    if relative is None or len(relative) < 2 or relative[0] in METADATA_DIRS:
        return None
    # the node id names the case file inside the suite, never where the suite is installed
    return CaseFile.from_parent(parent, path=file_path, nodeid="/".join((NODE_PREFIX, *relative)))


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
        self._resolved: dict[str, list] | None = None
        self._problems: dict[str, list] | None = None
        self._explainer = None
        self.local: tuple[Path, ...] = ()       # the --castrules-cases folders, resolved

    def local_name(self, path: Path) -> str | None:
        """A case file of a --castrules-cases folder as problems name it (``folder/inside``), or None
        (outside every folder, or in a folder's catalog/)."""
        for folder in self.local:
            if path.is_relative_to(folder) or path.resolve().is_relative_to(folder):
                inside = path.resolve().relative_to(folder).parts if not path.is_relative_to(folder) else path.relative_to(folder).parts
                return None if inside[0] == CATALOG else display_name(path, folder)
        return None

    @property
    def suite(self) -> Suite:
        if self._suite is None:
            self._suite = shared_suite(local=self.local)
            self._by_file = {}
            for case in self._suite.cases:   # by the path the suite found it at: no resolving per case
                self._by_file.setdefault(str(case.path), []).append(case)
        return self._suite

    def cases_in(self, path: Path) -> list:
        self.suite
        found = self._by_file.get(str(path))
        if found is None:   # reached through another spelling of the path (a symlink): resolve both sides
            if self._resolved is None:
                self._resolved = {}
                for case in self._suite.cases:
                    self._resolved.setdefault(str(case.path.resolve()), []).append(case)
            found = self._resolved.get(str(path.resolve()), [])
        return found

    def problems_in(self, path: Path) -> list:
        if self._problems is None:
            self._problems = {}
            for problem in self.suite.problems:
                self._problems.setdefault(problem.file, []).append(problem)
        local = self.local_name(path) if self.local else None
        if local is not None:
            return self._problems.get(local, [])
        relative = _relative_to_cases(path)
        return self._problems.get("/".join(("cases", *relative)), []) if relative else []

    def load(self) -> None:
        """The engine and the expectations; EngineLoadError or ExpectationsError when they cannot be."""
        if self._engine is not None:
            return
        from castrules.harness.execution import open_engines  # a module:Class engine in its worker, as in castrules run

        options = {"timeout": self.config.getoption("castrules_timeout"),
                   "isolate": self.config.getoption("castrules_isolate")}
        engine = open_engines(engine_spec(self.config) or "oracle", 1, 1, options,
                              in_process=self.config.getoption("castrules_in_process"))[0]
        try:
            self._expectations = default_expectations(engine, expectations_path(self.config))
        except ExpectationsError:
            close(engine)
            raise
        self._engine = engine
        self._explainer = oracle_explainer(engine)

    def warnings(self) -> list[str]:
        """Stale expectations entries and unknown engine features, as the CLI reports them."""
        from castrules.harness.run_checks import warnings_before_a_run

        return [text for _, text in warnings_before_a_run(self._expectations, self._engine, self.suite)]

    @property
    def engine(self):
        if self._engine is None:
            try:
                self.load()
            except (EngineLoadError, ExpectationsError) as exc:
                # one clear stop, not one traceback per case
                pytest.exit(f"castrules: {safe_line(exc)}", returncode=pytest.ExitCode.USAGE_ERROR)
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
                item.add_marker(getattr(pytest.mark, MARKER_PREFIX + feature))
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
            pytest.skip(safe_line(f"{status.value}: {result.message}"))
        if status is Status.KNOWN_FAILURE:
            pytest.xfail(safe_line(result.message.splitlines()[0]))
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
