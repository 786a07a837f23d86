"""The engine spec grammar, the oracle recognised by what it declares, timeouts by type."""

from __future__ import annotations

import pytest

from castrules.harness.engine import is_reference, load_engine, oracle_explainer
from castrules.harness.engine_errors import EngineLoadError, EngineTimeout
from castrules.harness.engine_spec import EngineKind, EngineSpec, parse_engine_spec
from castrules.harness.expectations import default_expectations
from castrules.harness.results import Status
from castrules.harness.runner import run_case
from castrules.harness.suite import load_suite
from tests.conftest import good_case


@pytest.mark.parametrize("text, kind, target, explicit", [
    ("oracle", EngineKind.IN_PROCESS, "castrules.oracle:OracleEngine", False),
    (None, EngineKind.IN_PROCESS, "castrules.oracle:OracleEngine", False),
    ("mypkg.engine:Engine", EngineKind.IN_PROCESS, "mypkg.engine:Engine", False),
    ("py:mypkg.engine:Engine", EngineKind.IN_PROCESS, "mypkg.engine:Engine", True),
    ("py:cmd:Engine", EngineKind.IN_PROCESS, "cmd:Engine", True),
    ("java -jar my-adapter.jar", EngineKind.COMMAND, "java -jar my-adapter.jar", False),
    ("./adapter", EngineKind.COMMAND, "./adapter", False),
    ("cmd:adapter", EngineKind.COMMAND, "adapter", True),
    ("cmd:node engine.js --fast", EngineKind.COMMAND, "node engine.js --fast", True),
    ("engines/run:main", EngineKind.COMMAND, "engines/run:main", False),
])
def test_the_spec_grammar(text, kind, target, explicit):
    assert parse_engine_spec(text) == EngineSpec(kind, target, explicit)


def test_a_bare_word_is_a_command_and_an_explicit_prefix_wins_over_the_guess():
    # "adapter" alone could only be a program; with cmd: a name that reads as module:Class is a program too
    assert parse_engine_spec("adapter").kind is EngineKind.COMMAND
    assert parse_engine_spec("cmd:mymod:Engine") == EngineSpec(EngineKind.COMMAND, "mymod:Engine")


@pytest.mark.parametrize("text", ["", "   ", "py:", "py:not a module:X", "py:mod", "py:mod:not-ident", "cmd:", "cmd:  "])
def test_malformed_specs_are_load_errors_that_say_what_was_expected(text):
    with pytest.raises(EngineLoadError, match="expected|empty"):
        parse_engine_spec(text)


def test_py_prefix_loads_in_process_and_cmd_prefix_runs_a_program():
    engine = load_engine("py:castrules.oracle:OracleEngine")
    assert is_reference(engine) and engine.name == "castrules-oracle"
    with pytest.raises(EngineLoadError, match="no such program"):
        load_engine("cmd:castrules.oracle:OracleEngine")


class NamedLikeTheOracle:
    """Not the oracle, though it takes its name: it must not get the oracle's privileges."""

    name, version = "castrules-oracle", "0"
    features = frozenset({"casting"})

    def run(self, request):
        return {"status": "skipped", "reason": "never mind"}


class DeclaresReference(NamedLikeTheOracle):
    name = "another-name"
    reference = True


def test_the_oracle_is_recognised_by_what_it_declares_not_by_its_name(monkeypatch, tmp_path):
    from castrules.harness import paths

    shipped = tmp_path / "oracle-known-failures.yaml"
    shipped.write_text("engine: castrules-oracle\ncases:\n  casting/x:\n    reason: a known gap\n", encoding="utf-8")
    monkeypatch.setattr(paths, "cases_dir", lambda: tmp_path)
    assert not is_reference(NamedLikeTheOracle())
    assert oracle_explainer(NamedLikeTheOracle()) is not None
    assert not default_expectations(NamedLikeTheOracle(), None).entries
    assert is_reference(DeclaresReference())
    assert oracle_explainer(DeclaresReference()) is None
    assert set(default_expectations(DeclaresReference(), None).entries) == {"casting/x"}


def test_a_subclass_of_the_oracle_is_not_the_reference():
    from castrules.oracle import OracleEngine

    class Tweaked(OracleEngine):
        pass

    assert is_reference(OracleEngine()) and not is_reference(Tweaked())


class Raising:
    name, version = "raising", "1"
    features = frozenset({"casting"})

    def __init__(self, error: BaseException) -> None:
        self.error = error

    def run(self, request):
        raise self.error


class EngineTimeoutLookalike(Exception):
    """Has the class name the runner used to compare, but is not a timeout."""


EngineTimeoutLookalike.__name__ = "EngineTimeout"


@pytest.fixture
def one_case(suite_builder):
    suite_builder.case("cases/casting/good.yaml", good_case())
    return load_suite(suite_builder.root)


@pytest.mark.parametrize("error, status", [
    (EngineTimeout("slow"), Status.TIMEOUT),
    (TimeoutError("socket to my engine timed out"), Status.TIMEOUT),
    (EngineTimeoutLookalike("just named so"), Status.ERROR),
    (RuntimeError("boom"), Status.ERROR),
])
def test_timeouts_are_recognised_by_type(one_case, error, status):
    result = run_case(Raising(error), one_case.cases[0], one_case.catalog)
    assert result.status is status, result.message


def test_the_protocol_timeout_is_the_shared_type():
    from castrules.harness import subprocess_engine

    assert subprocess_engine.EngineTimeout is EngineTimeout


def test_smoke_takes_the_cmd_prefix_and_refuses_an_in_process_spec():
    import io

    from castrules.harness.smoke import smoke

    out = io.StringIO()
    assert smoke("py:castrules.oracle:OracleEngine", out=out) == 1
    assert "castrules serve --engine" in out.getvalue()
    out = io.StringIO()
    assert smoke("cmd:no-such-program-castrules-test", timeout=2, startup_timeout=2, out=out) == 1
    assert "no such program 'no-such-program-castrules-test'" in out.getvalue()
