"""Running cases on an engine: requests out, observations in, results with statuses.

One case's trouble never stops the run: an exception, a broken reply or a missing feature
becomes that case's result, and the next case runs.
"""

from __future__ import annotations

import io
import json
import marshal
import sys
import time
import traceback
from dataclasses import replace
from collections.abc import Mapping
from typing import Callable, Iterable, Iterator

from castrules.harness import replies, schemas
from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.compare import compare
from castrules.harness.contract import ReasonDetail
from castrules.harness.engine import Engine
from castrules.harness.engine_errors import EngineGaveUp, is_timeout
from castrules.harness.expectations import Expectations
from castrules.harness.results import Result, Status
from castrules.harness.excerpts import quoted

OnResult = Callable[[Result], None]
_EXACT = ReasonDetail.EXACT     # a module global: an Enum class's attribute goes through EnumType's __getattr__ hook


def run_case(engine: Engine, case: Case, catalog: Catalog, expectations: Expectations | None = None,
             explainer: Engine | None = None) -> Result:
    """Run one case; with an ``explainer`` (the oracle, for other engines), a failure carries the
    explainer's trace of the case beside the diff, saying what the rules do at each step."""
    return finished(_run(engine, case, catalog), case, catalog, expectations, explainer)


def finished(result: Result, case: Case, catalog: Catalog, expectations: Expectations | None = None,
             explainer: Engine | None = None) -> Result:
    """A case's result with the explainer's trace of a failure and the expectations file applied."""
    if explainer is not None and result.status is Status.FAIL:
        result = replace(result, oracle_trace=explanation(explainer, case, catalog))
    return expectations.apply(result) if expectations else result


def explanation(explainer: Engine, case: Case, catalog: Catalog) -> tuple:
    try:
        reply = explainer.run(fresh_request(case, catalog))
    except Exception as exc:  # the explanation is a courtesy: never let it break the run
        return ({"note": f"no explanation: {type(exc).__name__}: {exc}"},)
    return tuple(reply.get("trace", ())) if isinstance(reply, Mapping) else ()


def run_cases(engine: Engine, cases: Iterable[Case], catalog: Catalog, expectations: Expectations | None = None,
              on_result: OnResult | None = None) -> list[Result]:
    results = []
    for result in iter_results(engine, cases, catalog, expectations):
        results.append(result)
        if on_result:
            on_result(result)
    return results


def iter_results(engine: Engine, cases: Iterable[Case], catalog: Catalog,
                 expectations: Expectations | None = None, explainer: Engine | None = None) -> Iterator[Result]:
    for case in cases:
        yield run_case(engine, case, catalog, expectations, explainer)


def _run(engine: Engine, case: Case, catalog: Catalog) -> Result:
    features = engine.features      # a frozenset once loaded (engine.load_engine)
    if not (features if type(features) is frozenset else set(features)).issuperset(case.features):
        return unsupported(engine, case_base(case), case)
    if getattr(engine, "judges_cases", False) is True:   # castrules' own worker runs and judges it itself
        return _judged_elsewhere(engine, case_base(case), case, catalog)
    # an engine in another process gets the request as JSON text and cannot reach this copy
    out_of_process = getattr(engine, "out_of_process", False) is True
    request = case.request(catalog.subset(case.card_names())) if out_of_process else fresh_request(case, catalog)
    started = time.perf_counter()
    out, err = io.StringIO(), io.StringIO()
    try:
        reply = _call(engine, request, out, err)
    except (EngineGaveUp, KeyboardInterrupt):
        raise  # the engine cannot go on, or the user stopped the run: the run keeps its results so far
    except SystemExit as exc:  # an engine's sys.exit is its own end, never the run's exit status
        return replace(case_base(case), status=Status.ERROR, duration=time.perf_counter() - started,
                       diagnostics=captured(out, err), message=f"the engine called sys.exit({quoted(exc.code)}) while running the case")
    except BaseException as exc:  # an engine's bug is a result, not a crash of the run
        return failed(case_base(case), exc, started, captured(out, err))
    return answered(engine, case, request, reply, time.perf_counter() - started, captured(out, err))


def case_base(case: Case) -> Result:
    """A case's result before anything is known: a pass, with the case's facts."""
    return Result(case.id, Status.PASS, case.file, case.rules, case.features)


def unsupported(engine: Engine, base: Result, case: Case) -> Result | None:
    """The case's result when the engine lacks a feature it needs (it is never sent), else None."""
    missing = sorted(set(case.features) - set(engine.features))
    if missing:
        return replace(base, status=Status.UNSUPPORTED, message=f"engine lacks feature(s): {', '.join(missing)}")
    return None


def answered(engine: Engine, case: Case, request: Mapping, reply: object, duration: float, printed: str = "") -> Result:
    """The result of a case the engine answered (``reply``) in ``duration`` seconds, judged."""
    stderr = engine_stderr(engine)
    base = Result.passing(case.id, case.file, case.rules, case.features, duration,
                          _joined(printed, stderr) if printed and stderr else printed or stderr)
    try:
        return judge(base, case, request, reply, reason_detail(engine), checked=getattr(engine, "replies_checked", False) is True)
    except Exception as exc:  # a reply the checks let through must still fail only this case
        return replace(base, status=Status.ERROR, diagnostics="".join(traceback.format_exception(exc)[-3:]).strip(),
                       message=f"the observations could not be compared ({type(exc).__name__}: {exc})")


def failed(base: Result, exc: BaseException, started: float, printed: str = "") -> Result:
    """The result of a case the engine failed on (``exc``): a timeout or an error, with its diagnostics."""
    tail = "".join(traceback.format_exception(exc)[-3:]).strip()
    status = Status.TIMEOUT if is_timeout(exc) else Status.ERROR
    return replace(base, status=status, message=f"{type(exc).__name__}: {exc}",
                   duration=time.perf_counter() - started, engine_lost=bool(getattr(exc, "engine_lost", False)),
                   diagnostics=_joined(printed, getattr(exc, "diagnostics", "") or tail))


def _judged_elsewhere(engine: Engine, base: Result, case: Case, catalog: Catalog) -> Result:
    """A worker (``harness.worker_engine``) that runs the case and judges the reply itself: a
    crash, hang or garbled answer is this case's error here, as for any engine."""
    started = time.perf_counter()
    try:
        return engine.result_of(base, case, catalog)  # type: ignore[attr-defined]
    except (EngineGaveUp, KeyboardInterrupt):
        raise
    except BaseException as exc:  # noqa: B036 - as in _run
        return failed(base, exc, started)


def _call(engine: Engine, request: dict, out: io.StringIO, err: io.StringIO) -> object:
    """``engine.run(request)``; an in-process engine's prints are this case's diagnostics, not the
    harness's output. An engine in another process (``out_of_process``: a protocol engine, a
    worker) cannot print here, and is not wrapped: swapping ``sys.stdout`` is process-wide, so
    ``-j`` lanes (threads, each driving such an engine) swapping it at once could leave it
    pointing at one case's buffer for the rest of the run."""
    if getattr(engine, "out_of_process", False) is True:
        return engine.run(request)
    saved = sys.stdout, sys.stderr      # contextlib's redirect_stdout and redirect_stderr, without their objects
    sys.stdout, sys.stderr = out, err
    try:
        return engine.run(request)
    finally:
        sys.stdout, sys.stderr = saved


CAPTURED_LINES = 200   # the last lines kept of what an engine printed during one case


def captured(out: io.StringIO, err: io.StringIO) -> str:
    """What an in-process engine wrote on stdout and stderr during a case (the last lines)."""
    if not out.getvalue() and not err.getvalue():
        return ""       # the common case: the engine printed nothing
    parts = []
    for label, stream in (("stdout", out), ("stderr", err)):
        lines = stream.getvalue().splitlines()
        if lines:
            parts.append(f"[{label}]\n" + "\n".join(lines[-CAPTURED_LINES:]))
    return "\n".join(parts)


def engine_stderr(engine: Engine) -> str:
    """What a protocol engine (or an in-process one in its worker) wrote on stderr during the case."""
    text = getattr(engine, "case_stderr", "")
    return f"[engine stderr]\n{text}" if isinstance(text, str) and text else ""


def _joined(*texts: str) -> str:
    return "\n".join(t for t in texts if t)


def reason_detail(engine: Engine) -> ReasonDetail:
    """How finely the engine reports why a step is illegal (``reasons``; absent: exact)."""
    reasons = getattr(engine, "reasons", None)
    return _EXACT if reasons is None else ReasonDetail.parse(reasons)   # parse's answer for None, as a global


def fresh_request(case: Case, catalog: Catalog) -> dict:
    """The case's request as new data of its own: an engine that mutates it cannot reach the
    suite, the catalog or the cases after it. What a JSON round trip gives (new maps and lists,
    tuples as lists), copied directly when the request is plain data (the suite's always is:
    half the round trip's cost, every case of every in-process run); anything else takes the
    round trip itself. A plain request is also kept as ``marshal``'s bytes by the case and the
    catalog (both loaded once and never changed, as ``Case.model`` has it), so the next run of
    the case gets its new data from those bytes at C speed, without building and walking the
    request again."""
    hit = _REQUESTS.get(id(case))
    seen = hit is not None and hit[0] is case and hit[1] is catalog
    if seen and hit[2] is not None:
        return marshal.loads(hit[2])
    request = case.request(catalog.subset(case.card_names()))
    try:
        fresh = _plain_copy(request)
    except (_NotPlain, RecursionError):
        return json.loads(json.dumps(request, default=str))
    content = None
    if seen:    # its second run: kept from now on (a run that sends each case once pays no dump)
        try:
            content = marshal.dumps(fresh, 2)
        except ValueError:  # nested too deep for marshal: copied anew every time
            return fresh
    if len(_REQUESTS) >= _REQUESTS_BOUND:
        _REQUESTS.clear()
    _REQUESTS[id(case)] = (case, catalog, content)
    return fresh


# case id() -> (the case, the catalog, its plain request as marshal's bytes once it ran twice);
# an entry holds its case and catalog, so neither id is reused while it lives
_REQUESTS: dict[int, tuple[Case, Catalog, bytes | None]] = {}
_REQUESTS_BOUND = 8192


class _NotPlain(Exception):
    """A value the JSON round trip would change (a non-string key, a type of no JSON value)."""


_SCALARS = frozenset({str, int, bool, float, type(None)})   # immutable: the round trip gives equal values


def _plain_copy(value: object) -> object:
    kind = type(value)
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            out[key] = item if type(item) in _SCALARS else _plain_copy(item)
        return out
    if kind is list or kind is tuple:
        return [item if type(item) in _SCALARS else _plain_copy(item) for item in value]
    if kind in _SCALARS:
        return value
    raise _NotPlain


def judge(base: Result, case: Case, request: Mapping, reply: object,
          reasons: ReasonDetail = ReasonDetail.EXACT, checked: bool = False) -> Result:
    """Turn an engine's reply into a result: plain bounded data, contract check, then comparison
    (of reasons only as finely as the engine reports them). ``checked``: the reply is known to be
    plain bounded data already (a protocol engine's, parsed by ``replies.loads``, which runs the
    same check on the whole message: walking it a second time was the largest single cost of the
    harness's side of a protocol run, and of every ``-j`` lane in this process)."""
    # what the case asks to observe, from the case itself: the engine may have mutated its request
    problems = (not checked and replies.problems(reply)) or contract_problems(reply, len(case.steps), case.observe_points())
    if problems:
        return replace(base, status=Status.ERROR, message="engine broke its contract: " + "; ".join(problems[:5]))
    status = reply["status"]
    if status == "skipped":
        return replace(base, status=Status.SKIPPED, message=reply.get("reason", ""), issue_url=reply.get("issue_url"))
    if status == "errored":
        return replace(base, status=Status.ERROR, message=f"engine reported an error: {reply.get('message', '')}",
                       diagnostics=_joined(base.diagnostics, str(reply.get("context", ""))))
    mismatches = compare(case.expectations, len(case.steps), reply, reasons)
    trace = tuple(reply.get("trace", ()))
    if mismatches:
        return replace(base, status=Status.FAIL, mismatches=tuple(mismatches), trace=trace)
    return base.with_trace(trace)


_RESULT_DEFS = {"ok": "observations", "skipped": "skipped", "errored": "errored"}


def contract_problems(reply: object, steps: int, observe: list[int]) -> list[str]:
    if not isinstance(reply, Mapping):
        return [f"run() returned {type(reply).__name__}, expected a mapping"]
    status = reply.get("status")
    definition = _RESULT_DEFS.get(status) if isinstance(status, str) else None
    if definition is None:
        return [f"status is {quoted(reply.get('status'))}, expected one of {', '.join(map(repr, _RESULT_DEFS))}"]
    found = schemas.def_errors("protocol", definition, dict(reply))
    if found:
        return found
    if reply["status"] == "ok":
        if len(reply["steps"]) != steps:
            found.append(f"{len(reply['steps'])} step results for {steps} steps")
        missing = [str(n) for n in observe if str(n) not in reply["snapshots"]]
        if missing:
            found.append(f"no snapshot after step(s) {', '.join(missing)}")
    return found
