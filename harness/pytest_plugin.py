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

from pathlib import Path

import pytest

from castrules.harness import paths
from castrules.harness.collector import freeze_what_lives
from castrules.harness.engine_errors import EngineLoadError
from castrules.harness.values import seconds
from castrules.harness.expectations import ExpectationsError
from castrules.harness.local_cases import check_folders
from castrules.harness.pytest_nodes import (MARKER_PREFIX, NODE_PREFIX, STATE, BrokenCaseItem, CaseFile, CaseItem,
                                            CasesFolder, State, collects_whole, engine_spec, expectations_path, is_cases_folder,
                                            relative_to_cases)
from castrules.harness.suite import METADATA_DIRS
from castrules.harness.textsafe import safe_line
from castrules.harness.vocabulary import load as load_vocabulary

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


def pytest_configure(config: pytest.Config) -> None:
    vocabulary = load_vocabulary()
    for feature, description in vocabulary.features.items():
        config.addinivalue_line("markers", f"{MARKER_PREFIX}{feature}: castrules cases needing {description}")
    config.addinivalue_line("markers", "castrules: every castrules case")
    _check_markers(config, vocabulary.features)
    state = config.stash[STATE] = State(config)
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
    state = config.stash.get(STATE, None)
    if state is not None:
        state.close()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once castrules' cases are collected, what exists now (pytest's nodes, the loaded suite)
    lives as long as the session: after one collection of what is garbage already, it is moved
    out of the collector's sight (``gc.freeze``), so the collections the runs trigger walk only
    what the runs make. Measured on the suite with the replay engine: ~0.1 s less CPU a session
    (collected 86,000 tracked objects -> 30,000). A session with no case of castrules' is left alone."""
    if any(isinstance(item, (CaseItem, BrokenCaseItem)) for item in session.items):
        freeze_what_lives()


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector):
    """The cases folder, when no argument names anything inside it, is collected whole by one
    collector (``pytest_nodes.CasesFolder``); otherwise pytest walks it file by file."""
    if is_cases_folder(path) and parent.config.stash.get(STATE, None) is not None and collects_whole(parent.config):
        return CasesFolder.from_parent(parent, path=path)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix not in (".yaml", ".yml", ".json"):
        return None
    state = parent.config.stash.get(STATE, None)
    local = state.local_name(file_path) if state is not None and state.local else None
    if local is not None:   # a --castrules-cases file: named by its folder, like the suite's files
        return CaseFile.from_parent(parent, path=file_path, nodeid="/".join((NODE_PREFIX, "local", local)))
    relative = relative_to_cases(file_path)
    if relative is None or len(relative) < 2 or relative[0] in METADATA_DIRS:
        return None
    # the node id names the case file inside the suite, never where the suite is installed
    return CaseFile.from_parent(parent, path=file_path, nodeid="/".join((NODE_PREFIX, *relative)))


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except (ValueError, OSError):
        return False
