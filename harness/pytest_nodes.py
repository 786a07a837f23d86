"""The pytest plugin's state (the suite and the engine, once per process) and its nodes.

A case file is a ``CaseFile`` holding one ``CaseItem`` per case, or one ``BrokenCaseItem`` when
it does not load. When the cases folder is collected whole (no argument names anything inside
it), ``CasesFolder`` gives every item directly, with the node ids, paths, markers and ``-k``
names the per-file collectors give, without a node per folder and per file (issue 16 point 2:
those nodes were about a sixth of the route's own cost).
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
from castrules.harness.expectations import ExpectationsError, default_expectations
from castrules.harness.local_cases import CATALOG, display_name
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.suite import METADATA_DIRS, Suite, shared_suite
from castrules.harness.textsafe import safe_line

MARKER_PREFIX = "castrules_"
NODE_PREFIX = "castrules"


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


@cache
def _cases_prefixes() -> tuple[str, ...]:
    folder = paths.cases_dir()
    return tuple({str(folder) + os.sep, str(folder.resolve()) + os.sep})


def relative_to_cases(file_path: Path) -> tuple[str, ...] | None:
    """The parts of a path below cases/, or None; string work only (this runs for every file)."""
    text = str(file_path)
    for prefix in _cases_prefixes():
        if text.startswith(prefix):
            return tuple(text[len(prefix):].split(os.sep))
    return None


class State:
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
        relative = relative_to_cases(path)
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


STATE = pytest.StashKey[State]()


class CaseFile(pytest.File):
    """One case file (what pytest's own walk finds when an argument names something inside the
    cases folder, and for ``--castrules-cases`` folders)."""

    def collect(self):
        state = self.config.stash[STATE]
        problems = state.problems_in(self.path)
        if problems:
            yield BrokenCaseItem.from_parent(self, name=self.path.stem, problems=problems)
            return
        for case in state.cases_in(self.path):
            yield case_item(self, case)


class CaseFailure(Exception):
    def __init__(self, result):
        super().__init__(result.case_id)
        self.result = result


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        state = self.config.stash[STATE]
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


class CasesFolder(pytest.Directory):
    """The suite's cases folder collected whole: its items in the order pytest's walk gives
    them (names sorted at each level), each with the node id, path and ``-k`` names (its folders'
    and its file's) that the per-file collectors give. pytest's ``--ignore``, ``--ignore-glob``,
    ``collect_ignore`` and ``norecursedirs`` still apply (``pytest_ignore_collect``, asked once
    per folder and file); other plugins' file collectors are not asked about these files."""

    def collect(self):
        state = self.config.stash[STATE]
        suite = state.suite
        prefix = str(suite.root / "cases") + os.sep
        files: list[tuple[tuple[str, ...], Any]] = []
        for case in suite.cases:
            files.append((tuple(str(case.path)[len(prefix):].split(os.sep)), case))
        for rel in suite.bad_files:
            parts = tuple(rel.split(os.sep))
            if parts[0] == "cases" and len(parts) > 2 and parts[1] not in METADATA_DIRS:
                files.append((parts[1:], None))
        files.sort(key=lambda entry: entry[0])
        ignored = _Ignored(self)
        for parts, case in files:
            path = self.path.joinpath(*parts)
            if ignored(path, len(parts)):
                continue
            nodeid = "/".join((NODE_PREFIX, *parts))
            if case is None:
                item = BrokenCaseItem.from_parent(self, name=path.stem, path=path, nodeid=f"{nodeid}::{path.stem}",
                                                  problems=state.problems_in(path))
            else:
                item = case_item(self, case, path=path, nodeid=f"{nodeid}::{case.id}")
            item.extra_keyword_matches.update(parts)   # -k matched the folders' and the file's names
            item.keywords.update(dict.fromkeys(parts, 1))
            yield item


# Implementations of pytest_ignore_collect known to ignore a file only through the settings
# `_files_may_be_ignored` reads (pytest's own), or to look at folders only (hypothesis's).
_FILE_RULES_KNOWN = frozenset({"_pytest.main", "_hypothesis_pytestplugin"})


class _Ignored:
    """pytest's ignore rules for a file and the folders above it inside the cases folder: each
    folder asked once; each file asked only when something could ignore a file (asking for
    every file was over half of collecting the suite)."""

    def __init__(self, folder: CasesFolder) -> None:
        self.hook, self.config = folder.ihook, folder.config
        self.known: dict[Path, bool] = {}
        self.files = _files_may_be_ignored(folder.config)

    def __call__(self, path: Path, depth: int) -> bool:
        for parent in reversed(path.parents[: depth - 1]):   # the folders below the cases folder, outermost first
            if parent not in self.known:
                self.known[parent] = bool(self.hook.pytest_ignore_collect(collection_path=parent, config=self.config))
            if self.known[parent]:
                return True
        return self.files and bool(self.hook.pytest_ignore_collect(collection_path=path, config=self.config))


def _files_may_be_ignored(config: pytest.Config) -> bool:
    """Whether any setting or plugin could ignore a single file: ``--ignore``, ``--ignore-glob``,
    a conftest's ``collect_ignore`` or ``collect_ignore_glob``, or an implementation of the hook
    not known to look only at those (any unknown plugin counts)."""
    if config.getoption("ignore", None) or config.getoption("ignore_glob", None):
        return True
    plugins = config.pluginmanager.get_plugins()
    if any(getattr(p, "collect_ignore", None) or getattr(p, "collect_ignore_glob", None) for p in plugins):
        return True
    return any(getattr(impl.plugin, "__name__", None) not in _FILE_RULES_KNOWN
               for impl in config.pluginmanager.hook.pytest_ignore_collect.get_hookimpls())


@cache
def _markers(features: tuple[str, ...]) -> tuple:
    """The markers of a case with these features (built once per set of features)."""
    return (pytest.mark.castrules, *(getattr(pytest.mark, MARKER_PREFIX + feature) for feature in features))


def case_item(parent: pytest.Collector, case, **where: Any) -> "CaseItem":
    item = CaseItem.from_parent(parent, name=case.id, case=case, **where)
    for marker in _markers(case.features):
        item.add_marker(marker)
    return item


def collects_whole(config: pytest.Config) -> bool:
    """Whether no argument names anything inside the cases folder (a file, a sub-folder, a node
    id): then the folder, if collected, is collected whole by ``CasesFolder``."""
    base = config.invocation_params.dir
    for arg in config.args:
        target = Path(os.path.abspath(base / str(arg).split("::")[0]))
        if relative_to_cases(target) is not None or relative_to_cases(target.resolve()) is not None:
            return False
    return True


def is_cases_folder(path: Path) -> bool:
    return str(path) + os.sep in _cases_prefixes()
