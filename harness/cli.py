"""The ``castrules`` command line.

Exit status: 0 when every result is as expected, 1 on unexpected results (fail, error,
timeout, unexpected pass), 2 on usage errors or problems in the suite's own files.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from castrules.harness import __version__, adapter_cli, bench_cli, fuzz_cli, mutants_cli, protocol_cli, report_cli
from castrules.harness.arguments import Parser
from castrules.harness.bundle import build_bundle, bundle_problems
from castrules.harness.cases import Case
from castrules.harness.collector import settle
from castrules.harness.console import describe_result, print_report
from castrules.harness.engine import close, load_engine, oracle_explainer
from castrules.harness.engine_errors import EngineGaveUp, EngineLoadError
from castrules.harness.exits import EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE
from castrules.harness.expectations import ExpectationsError, default_expectations
from castrules.harness.output_paths import (RUN_OUTPUTS, OutputFailures, OutputPath,
                                             check_output_paths, outputs_of)
from castrules.harness.outputs import write_outputs
from castrules.harness.progress import Progress, choose_mode
from castrules.harness.report_jsonl import ReportWriter, header
from castrules.harness.results import Result, Status, trace_line
from castrules.harness.run_checks import check_before_a_run, expectations_to_apply, update_expectations
from castrules.harness.run_details import RunDetails, selection_of
from castrules.harness.session import DEFAULT_MAX_CONSECUTIVE_FAILURES
from castrules.harness.suite import Suite, load_suite, shared_suite
from castrules.harness.textsafe import safe_text
from castrules.harness.values import MAX_JOBS, count, csv, jobs, positive, seconds

__all__ = ["main", "build_parser", "describe_result", "EXIT_OK", "EXIT_UNEXPECTED", "EXIT_USAGE"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.handler(args)
    except (EngineLoadError, ExpectationsError, ValueError) as exc:
        print(f"castrules: error: {safe_text(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt as exc:  # interrupted before any case ran (e.g. while an engine started)
        from castrules.harness.session import interrupt_status

        print("castrules: interrupted", file=sys.stderr)
        return interrupt_status(exc)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: the core commands here, one ``register`` per command module."""
    parser = Parser(prog="castrules", description="Conformance suite for casting spells in Magic: The Gathering.")
    parser.add_argument("--version", action="version", version=f"castrules {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _register_run(sub)
    _register_suite_commands(sub)
    for command_module in (protocol_cli, adapter_cli, report_cli, bench_cli, fuzz_cli, mutants_cli):
        command_module.register(sub)
    return parser


def _selection(p: argparse.ArgumentParser) -> None:
    """The options choosing cases (run, list)."""
    p.add_argument("-k", dest="keyword", help="select cases by id/title/feature substrings with and/or/not")
    p.add_argument("--features-include", type=csv, default=[], metavar="F,..", help="only cases needing any of these features")
    p.add_argument("--features-exclude", type=csv, default=[], metavar="F,..", help="leave out cases needing any of these features")
    p.add_argument("--id", dest="ids", action="append", default=[], metavar="GLOB", help="only cases whose id matches (repeatable)")
    _local_cases(p)


def _local_cases(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cases", action="append", type=Path, default=[], metavar="DIR",
                   help="add your own case files from DIR (and cards from DIR/catalog/), ids prefixed 'local:' (repeatable)")


def _register_run(sub: argparse._SubParsersAction) -> None:
    run = sub.add_parser("run", help="run the suite on an engine and print a summary")
    run.add_argument("--engine", default="oracle", help="oracle (default), module:Class, or a command line for a protocol engine")
    _selection(run)
    run.add_argument("--expectations", type=Path, help="expectations file of known failures (default for the oracle: its own)")
    run.add_argument("--update-expectations", type=Path, metavar="FILE",
                     help="merge this run into FILE: failures added, passes removed, every other entry and "
                          "hand-written field kept (FILE is also the run's expectations when it exists and "
                          "--expectations is not given); exits 0 once written")
    run.add_argument("--strict", action="store_true",
                     help="stale expectations entries (ids of no case) and unknown features an engine "
                          "declares are errors (exit 2), not warnings")
    _run_engine_options(run)
    run.add_argument("--shard", metavar="K/N", help="run only shard K of N (deterministic split for a CI matrix)")
    run.add_argument("--maxfail", type=positive, metavar="N", help="stop after N unexpected results; the rest are not run")
    run.add_argument("-q", "--quiet", action="store_true", help="one line per unexpected result, then the totals and their ids")
    run.add_argument("-v", "--verbose", action="store_true", help="a line per case")
    run.add_argument("--no-tables", action="store_true", help="leave out the tables by feature and by rule")
    _run_outputs(run)
    run.set_defaults(handler=cmd_run)


def _run_engine_options(run: argparse.ArgumentParser) -> None:
    """How the engine is run: timeouts, processes, restarts, lanes."""
    run.add_argument("--timeout", type=seconds, default=10.0, help="seconds per case for protocol engines (default 10)")
    run.add_argument("--isolate", action="store_true", help="protocol engines: a fresh process per case")
    run.add_argument("--max-consecutive-failures", type=count, default=DEFAULT_MAX_CONSECUTIVE_FAILURES, metavar="N",
                     help="give up on the engine after it crashed, hung or broke the protocol on N cases in a row with "
                          f"no answered case between them; the rest are not run (default {DEFAULT_MAX_CONSECUTIVE_FAILURES}, 0: never)")
    run.add_argument("--max-restarts", type=count, dest="max_consecutive_failures", metavar="N",
                     help="the former name of --max-consecutive-failures (same meaning now)")
    run.add_argument("--in-process", action="store_true",
                     help="run a module:Class engine inside the harness process, not in its worker process "
                          "(faster; but no timeout can stop it)")
    run.add_argument("--startup-timeout", type=seconds, default=30.0, help="protocol engines: seconds to answer the handshake (default 30)")
    run.add_argument("-j", "--jobs", type=jobs, default=1, metavar="N",
                     help=f"run cases in N worker processes, 1 to {MAX_JOBS} (same results as serial)")


def _run_outputs(run: argparse.ArgumentParser) -> None:
    outputs = run.add_argument_group("outputs")
    outputs.add_argument("--report", type=Path, metavar="FILE.jsonl", help="JSON-lines report, written as each case finishes")
    outputs.add_argument("--markdown", type=Path, metavar="FILE.md", help="Markdown summary (for $GITHUB_STEP_SUMMARY)")
    outputs.add_argument("--html", type=Path, metavar="FILE.html", help="static HTML page: compliance by feature and rule")
    outputs.add_argument("--badges", type=Path, metavar="DIR", help="one shields.io endpoint badge JSON per feature")
    outputs.add_argument("--junit", type=Path, metavar="FILE.xml", help="JUnit XML of the run")


def _register_suite_commands(sub: argparse._SubParsersAction) -> None:
    """list, validate, export, explain: the suite itself."""
    lst = sub.add_parser("list", help="list the cases")
    _selection(lst)
    lst.add_argument("--json", action="store_true", help="one JSON array of {id, title, file, rules, features}")
    lst.set_defaults(handler=cmd_list)

    val = sub.add_parser("validate", help="check every case and card against the schemas and each other")
    val.add_argument("files", nargs="*", type=Path, help="extra case files to check with the suite")
    val.add_argument("--json", action="store_true", help="problems as JSON")
    val.add_argument("--bundle", type=Path, metavar="FILE.json", help="validate an export bundle instead of the suite")
    _local_cases(val)
    val.set_defaults(handler=cmd_validate)

    exp = sub.add_parser("export", help="write every case and the catalog as one JSON bundle")
    exp.add_argument("--out", type=Path, required=True)
    exp.set_defaults(handler=cmd_export)

    explain = sub.add_parser("explain", help="print the oracle's (or an engine's) trace of a case")
    explain.add_argument("case_id")
    explain.add_argument("--engine", default="oracle")
    _local_cases(explain)
    explain.set_defaults(handler=cmd_explain)


def _load(args: argparse.Namespace) -> tuple[Suite, list[Case]]:
    """The suite and the cases selected; an unknown name or an empty selection is a usage error."""
    from castrules.harness.selection import select_checked

    suite = shared_suite(local=tuple(getattr(args, "cases", ())))
    cases = select_checked(suite, getattr(args, "keyword", None), getattr(args, "features_include", []),
                           getattr(args, "features_exclude", []), getattr(args, "ids", []))
    return suite, cases


def _print_problems(suite: Suite, stream=None) -> None:
    stream = stream or sys.stderr   # looked up when called: stderr may have been replaced since import
    for problem in suite.problems:
        print(str(problem), file=stream)


def cmd_validate(args: argparse.Namespace) -> int:
    if args.bundle:
        return validate_bundle(args.bundle)
    suite = load_suite(extra_files=args.files, local=args.cases)
    if args.json:
        print(json.dumps({"cases": len(suite.cases), "cards": len(suite.catalog.cards),
                          "problems": [p.to_json() for p in suite.problems]}, indent=2))
    else:
        _print_problems(suite, sys.stdout)
        files = len(suite.cases) + len(suite.bad_files)
        print(f"{files} case files, {len(suite.catalog.cards)} cards: "
              + ("all valid" if not suite.problems else f"{len(suite.problems)} problem(s) in {len(suite.bad_files) or 'catalog'} file(s)"))
    return EXIT_USAGE if suite.problems else EXIT_OK


def validate_bundle(path: Path) -> int:
    """Check an export bundle: its problems, one a line, then a verdict line."""
    problems = bundle_problems(path)
    for problem in problems:
        print(problem)
    print(f"{path}: " + ("valid bundle" if not problems else f"{len(problems)} problem(s)"))
    return EXIT_USAGE if problems else EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    suite, cases = _load(args)
    if args.json:
        print(json.dumps([{"id": c.id, "title": c.title, "file": c.file, "rules": list(c.rules),
                           "features": list(c.features)} for c in cases], indent=2))
    else:
        for case in cases:
            print(f"{case.id}  [{', '.join(case.features)}]  {case.title}")
        print(f"{len(cases)} case(s)", file=sys.stderr)
    if suite.problems:
        _print_problems(suite)
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    check_output_paths([OutputPath("--out", args.out)])
    suite = load_suite()
    bundle = build_bundle(suite)
    failures = OutputFailures()
    if not failures.attempt(f"--out {args.out}", lambda: _write_bundle(args.out, bundle)):
        return EXIT_USAGE
    print(f"wrote {len(bundle['cases'])} cases and {len(bundle['catalog'])} cards to {args.out}")
    if suite.problems:
        _print_problems(suite)
        return EXIT_USAGE
    return EXIT_OK


def _write_bundle(path: Path, bundle: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(bundle, indent=1, ensure_ascii=False), encoding="utf-8")


def cmd_run(args: argparse.Namespace) -> int:
    """Run the selection; SIGINT/SIGTERM end it at once, keeping every result (exit 130/143)."""
    from castrules.harness.session import stop_on_signals

    with stop_on_signals():
        return _run_selection(args)


def _run_selection(args: argparse.Namespace) -> int:
    """One run in three stages: the cases, running them, what the run leaves (printed, written)."""
    from castrules.harness import execution

    suite, cases = _cases_to_run(args)
    settle()    # this process runs the cases: what is loaded lives for the run (harness.collector)
    options = {"timeout": args.timeout, "isolate": args.isolate, "startup_timeout": args.startup_timeout}
    engines = execution.open_engines(args.engine, args.jobs, len(cases), options, in_process=args.in_process,
                                     held=(cases, suite.catalog))
    failures = OutputFailures()
    ran = _run_cases(args, suite, cases, engines, failures)
    return _after_the_run(args, suite, ran, failures)


def _cases_to_run(args: argparse.Namespace) -> tuple[Suite, list[Case]]:
    """The selection (and shard), once the output paths are known to be writable."""
    check_output_paths(outputs_of(args, RUN_OUTPUTS))   # before anything runs: a typo costs no run
    suite, cases = _load(args)
    if suite.problems:
        _print_problems(suite)
    if args.shard:
        from castrules.harness.parallel import shard

        cases = shard(cases, args.shard)
    return suite, cases


@dataclass
class _Ran:
    """What running the cases leaves for the rest of the command."""

    engine: Any
    cases: list[Case]
    expectations: Any
    head: dict
    started: float
    run: Any
    results: list[Result] = field(default_factory=list)


def _run_cases(args: argparse.Namespace, suite: Suite, cases: list[Case], engines: list, failures: OutputFailures) -> _Ran:
    """Run the cases on the engines, each result reported as it comes; the engines always closed."""
    from castrules.harness import execution
    from castrules.harness.session import Ending, Policy

    engine, writer, ran, finished = engines[0], None, None, False
    expectations_path = expectations_to_apply(args.expectations, args.update_expectations)
    try:
        expectations = default_expectations(engine, expectations_path)
        check_before_a_run(expectations, engine, suite, args.strict)
        progress = Progress(len(cases), choose_mode(args.quiet, args.verbose, sys.stdout))
        head = header(engine, len(cases), selection=selection_of(args.keyword, args.features_include, args.features_exclude,
                                                                 args.ids, args.shard, args.cases))
        started = time.monotonic()
        if args.report:
            writer = ReportWriter(args.report, head, failures)
        run = execution.session(engines, cases, suite.catalog, expectations,
                                Policy(args.max_consecutive_failures, args.maxfail or 0))
        ran = _Ran(engine, cases, expectations, head, started, run)

        def consume(result: Result) -> None:
            ran.results.append(result)
            if writer:
                writer.add(result)
            progress.update(result)

        try:
            for result in run:
                consume(result)
        except KeyboardInterrupt as exc:  # a signal while a result was being written: the rest is not run
            run.end(Ending.INTERRUPTED, f"interrupted ({exc or 'SIGINT'})", exc)
            for result in run.leftovers():
                consume(result)
        progress.finish()
        finished = True
    finally:  # a footer only for a run that finished; engines killed at once if it was interrupted
        if writer:
            writer.close(complete=finished, ended=ran.run.ending.value if finished else "",
                         reason=ran.run.reason if finished else "")
        execution.close_all(engines, abort=not finished or ran.run.ending is Ending.INTERRUPTED)
    return ran


def _after_the_run(args: argparse.Namespace, suite: Suite, ran: _Ran, failures: OutputFailures) -> int:
    """The report printed and written, the expectations updated, and the exit status."""
    from castrules.harness.session import Ending, interrupt_status

    run, results, engine = ran.run, ran.results, ran.engine
    print_report(results, engine, suite, quiet=args.quiet, tables=not args.no_tables, selected=len(ran.cases))
    details = RunDetails.from_report(ran.head, {"duration": time.monotonic() - ran.started, "ended": run.ending.value})
    write_outputs(args, results, engine, suite, details=details, failures=failures)
    if args.update_expectations and run.ending is Ending.COMPLETED:
        failures.attempt(f"--update-expectations {args.update_expectations}",
                         lambda: update_expectations(args.update_expectations, ran.expectations, results, engine.name))
    if run.ending is not Ending.COMPLETED:
        done = sum(r.status is not Status.NOT_RUN for r in results)
        print(f"castrules: the run ended early ({run.ending.value}) after {done} of {len(ran.cases)} cases; "
              f"{len(ran.cases) - done} case(s) not run: {safe_text(run.reason)}", file=sys.stderr)
        if args.update_expectations:
            print(f"castrules: {args.update_expectations} left as it was: the run did not finish", file=sys.stderr)
        return interrupt_status(run.cause) if run.ending is Ending.INTERRUPTED else EXIT_UNEXPECTED
    if suite.problems or failures:   # an output asked for and not written is no success
        return EXIT_USAGE
    if args.update_expectations:
        return EXIT_OK   # the file now describes this run: writing it is the job, and it is done
    return EXIT_UNEXPECTED if any(r.status.is_unexpected for r in results) else EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    suite = load_suite(local=args.cases)
    case = suite.by_id().get(args.case_id)
    if case is None:
        from castrules.harness.names import closest

        matches = closest(args.case_id, [c.id for c in suite.cases], n=5)
        hint = f"; did you mean: {', '.join(matches)}" if matches else ""
        print(f"castrules: no case with id {args.case_id!r}{hint}", file=sys.stderr)
        return EXIT_USAGE
    engine = load_engine(args.engine)
    try:
        from castrules.harness.runner import run_case

        result = run_case(engine, case, suite.catalog)
    finally:
        close(engine)
    print(f"{case.id}: {case.title}\n  file {case.file}; rules {', '.join(case.rules)}; features {', '.join(case.features)}")
    for n, step in enumerate(case.steps, start=1):
        kind, body = next(iter(step.items()))
        print(f"  step {n}: {kind} {json.dumps(body, separators=(', ', ': '))}")
    print("trace:")
    for entry in result.trace:
        print("  " + trace_line(entry))
    print(f"result: {result.status.value}")
    for mismatch in result.mismatches:
        print(safe_text(f"  {mismatch}"))
    if result.message:
        print("  " + safe_text(result.message))
    return EXIT_OK if not result.status.is_unexpected else EXIT_UNEXPECTED
