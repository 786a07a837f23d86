"""An in-process engine run in a worker process of its own, so that it can be contained.

Running an engine's Python code inside the harness means trusting it: a ``sys.exit``, an
endless loop or a mutated global would be the run's problem. ``worker_engine`` starts the
engine in a child process (a session of its own, ``harness.worker_server``) that speaks
protocol v1, so the per-case timeout kills it, a crash is that case's error and the worker is
restarted, and nothing it does reaches the harness but its JSON answers.

The worker also judges each case itself (``WorkerEngine.result_of``, called by
``runner.run_case``): the harness sends the case and gets back the finished result, so the
reply's parsing, checks and comparison run in the worker, in parallel under ``-j``, and the
harness process does little per case. The next case is sent before the last result is read
(``submit_case`` / ``collect_case``, driven by ``harness.pipelining``): the worker declares
``pipeline`` as ``castrules serve`` does, and a case sent ahead of one the worker was lost on
is sent again to its restart. As an ``Engine`` (``run``) it answers requests too.

``castrules run`` uses a worker for every in-process engine but the oracle and its mutants
(castrules' own code), and for every engine with ``-j``; ``--in-process`` opts out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Collection, Mapping, Sequence

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.child_python import child_env, python_argv
from castrules.harness.engine_errors import EngineProtocolError
from castrules.harness.engine_pipeline import pipeline_depth
from castrules.harness.engine_spec import ORACLE_TARGET, EngineSpec
from castrules.harness.results import Mismatch, Result, Status
from castrules.harness.subprocess_engine import SubprocessEngine

WORKER_PIPELINE = 8             # cases a worker is sent ahead: it never waits while the harness gathers answers
TRUSTED_PREFIX = "castrules."   # castrules' own engines (the oracle, its mutants) need no worker
# what a worker may answer: the result before the expectations file (applied by the harness)
WORKER_STATUSES = {s.value: s for s in (Status.PASS, Status.FAIL, Status.ERROR, Status.TIMEOUT,
                                        Status.UNSUPPORTED, Status.SKIPPED)}


def is_trusted(spec: EngineSpec) -> bool:
    """Whether an in-process engine is castrules' own code (run in process by default)."""
    return spec.target == ORACLE_TARGET or spec.module.startswith(TRUSTED_PREFIX)


@dataclass(frozen=True)
class Inherited:
    """What a forked worker holds from the fork on (``harness.forked_workers``): the run's cases,
    sent to it by position, and its catalog, never sent."""

    cases: tuple[Case, ...]
    catalog: Catalog
    positions: Mapping[int, int] = field(default_factory=dict)   # id(case) -> its position in cases

    @classmethod
    def of(cls, cases: Sequence[Case], catalog: Catalog) -> "Inherited":
        held = tuple(cases)
        return cls(held, catalog, {id(case): n for n, case in enumerate(held)})

    def position(self, case: Case) -> int | None:
        """Where the worker finds ``case``, if it holds this very case."""
        n = self.positions.get(id(case))
        return n if n is not None and self.cases[n] is case else None


def worker_engine(spec: EngineSpec, launched: Any = None, **options: Any) -> "WorkerEngine":
    """The in-process engine ``spec``, served in a worker process of its own: ``launched`` if
    given (forked, ``harness.forked_workers``), else started, as every later one, from the command line."""
    argv = python_argv("castrules.harness.worker_server", f"py:{spec.target}")
    # the worker imports what this process can import (the current directory first), and the
    # same castrules (castrules.harness.child_python)
    engine = WorkerEngine(argv, env=child_env(), launched=launched, **options)
    engine.reference = spec.target == ORACLE_TARGET  # served oracle: its known failures apply
    return engine


class WorkerEngine(SubprocessEngine):
    """A protocol engine that is castrules' own worker: it also runs and judges whole cases."""

    judges_cases = True   # runner.run_case hands it the case (result_of), not a request
    reference = False

    def __init__(self, argv: list[str], **options: Any) -> None:
        super().__init__(argv, **options)
        # deeper than an external engine's: the harness may then let answers gather (parallel.COALESCE)
        self.pipeline = pipeline_depth(self.hello, self.isolate, WORKER_PIPELINE)
        self._primed: tuple[object, Catalog] | None = None
        # cases whose passing result keeps the engine's trace: those an expectations file lists
        # (an unexpected pass shows it); no output shows another passing case's trace, and
        # sending it back was a third of what the harness read per case
        self.passing_traces: Collection[str] = ()

    @property
    def forked(self) -> bool:
        """Whether its live process was forked from the harness (``harness.forked_workers``)."""
        proc = self._supervisor.current()
        return proc is not None and proc.inherited is not None

    def result_of(self, base: Result, case: Case, catalog: Catalog) -> Result:
        """The case run and judged in the worker; its result completes ``base`` (id, file, rules,
        features). A worker that crashes, hangs or garbles its answer raises, as in ``run``."""
        return self.collect_case(self.submit_case(case, catalog), base)

    def submit_case(self, case: Case, catalog: Catalog) -> int:
        """Send the case to be run and judged (the catalog first, once per process); its ticket
        for ``collect_case``, which may come after more cases were sent (``pipeline``)."""
        def build(proc: Any, seq: int) -> dict:
            inherited: Inherited | None = proc.inherited
            if self._primed is None or self._primed[0] is not proc or self._primed[1] is not catalog:
                if inherited is None or inherited.catalog is not catalog:   # a forked worker holds its own
                    proc.send({"type": "catalog", "cards": dict(catalog.cards)})   # once per process (and catalog)
                self._primed = (proc, catalog)
            position = inherited.position(case) if inherited is not None else None
            message: dict[str, Any] = ({"type": "case", "seq": seq, "case": case_to_wire(case)} if position is None
                                       else {"type": "case", "seq": seq, "ref": position})
            if case.id in self.passing_traces:
                message["trace"] = True
            return message

        return self._send(build)

    def collect_case(self, seq: int, base: Result) -> Result:
        """The result of the case sent as ``seq`` (the oldest not collected), completing ``base``."""
        message, proc = self._answer(seq)
        try:
            result = result_from_wire(base, message.get("result"))
        except (KeyError, TypeError, ValueError) as exc:
            error = self._supervisor.lose(proc, EngineProtocolError,
                                          f"the worker's answer is not a result ({type(exc).__name__}: {exc})")
            self._flight.lose_rest(error, seq)
            raise error from None
        self._supervisor.case_done(proc, answered=True)
        if self.case_stderr:
            return replace(result, diagnostics="\n".join(t for t in (result.diagnostics, "[engine stderr]\n"
                                                                     + self.case_stderr) if t))
        return result


def case_to_wire(case: Case) -> dict:
    """A case as the worker needs it (``worker_server.case_from_wire``)."""
    return {"id": case.id, "title": case.title, "path": str(case.path), "file": case.file, "rules": list(case.rules),
            "features": list(case.features), "doc": case.doc}


def result_to_wire(result: Result, passing_trace: bool = True) -> dict:
    """A finished result as JSON data (the case's id, file, rules and features stay behind; a
    passing result's trace too, unless ``passing_trace``)."""
    data: dict[str, Any] = {"status": result.status.value, "duration": result.duration}
    for name in ("message", "diagnostics", "issue_url"):
        if getattr(result, name):
            data[name] = getattr(result, name)
    if result.engine_lost:
        data["engine_lost"] = True
    if result.mismatches:
        data["mismatches"] = [[m.where, m.path, m.expected, m.observed] for m in result.mismatches]
    if result.trace and (passing_trace or result.status is not Status.PASS):
        data["trace"] = list(result.trace)
    return data


def result_from_wire(base: Result, data: Any) -> Result:
    """``base`` completed by a worker's answer; ``ValueError`` (or ``TypeError``, ``KeyError``)
    for anything that is not a result as ``result_to_wire`` writes one."""
    if not isinstance(data, dict):
        raise ValueError(f"a JSON {type(data).__name__}")
    status = WORKER_STATUSES[data["status"]]
    duration = data.get("duration", 0.0)
    texts = {name: data.get(name, "") for name in ("message", "diagnostics")}
    issue_url, lost = data.get("issue_url"), data.get("engine_lost", False)
    mismatches, trace = data.get("mismatches", []), data.get("trace", [])
    if (type(duration) not in (int, float) or not all(isinstance(t, str) for t in texts.values())
            or not isinstance(issue_url, (str, type(None))) or type(lost) is not bool
            or not isinstance(trace, list) or not isinstance(mismatches, list)
            or not all(isinstance(m, list) and len(m) == 4 and isinstance(m[0], str) and isinstance(m[1], str)
                       for m in mismatches)):
        raise ValueError("a field of the wrong type")
    return Result(base.case_id, status, file=base.file, rules=base.rules, features=base.features,
                  mismatches=tuple(Mismatch(*m) for m in mismatches) if mismatches else (), duration=float(duration),
                  trace=tuple(trace), issue_url=issue_url, engine_lost=lost, **texts)
