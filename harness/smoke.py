"""``castrules smoke --engine CMD``: check an engine's side of protocol v1, check by check.

Talks to the engine directly (not through ``SubprocessEngine``) so that each check can say
exactly what was expected and what came back. Prints PASS/FAIL lines; exit 0 when all pass.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import sys
import time
from dataclasses import dataclass
from typing import IO

from castrules.harness import __version__, schemas
from castrules.harness.textsafe import safe_text
from castrules.harness.engine_errors import EngineStartError
from castrules.harness.engine_process import EndOfOutput, EngineProcess, ReadTimeout, decode_line, preview
from castrules.model import public_document
from castrules.model.protocol import PROTOCOL_VERSION

FOREST = {"name": "Forest", "real": True, "mana_cost": None, "type_line": "Basic Land — Forest",
          "text": "Taps for green mana.", "abilities": [{"kind": "mana", "cost": "{T}", "add": "{G}"}]}

TRIVIAL_CASE = {
    "id": "smoke/trivial/forest-on-the-battlefield",
    "title": "A player with a Forest; nothing happens",
    "rules": ["601.2a"],
    "features": ["casting"],
    "setup": {"players": {"A": {"life": 20}, "B": {"life": 20}},
              "turn": {"active": "A", "step": "precombat_main", "number": 1},
              "objects": [{"id": "forest", "card": "Forest", "zone": "battlefield", "controller": "A"}]},
    "steps": [],
    "expect": [{"after": 0, "players": {"A": {"life": 20}}, "objects": {"forest": {"zone": "battlefield"}}}],
}


@dataclass
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'PASS' if self.ok else 'FAIL'} {self.name}: {self.detail}"


class CheckLog:
    """The checks made so far, each printed as a PASS/FAIL line as it is made."""

    def __init__(self, out: IO[str]) -> None:
        self.out = out
        self.checks: list[Check] = []

    def check(self, name: str, ok: bool, detail: str) -> bool:
        entry = Check(name, ok, detail)
        self.checks.append(entry)
        print(safe_text(entry.line()), file=self.out, flush=True)   # an engine's bytes shown, not obeyed
        return ok

    @property
    def all_passed(self) -> bool:
        return all(c.ok for c in self.checks)

    def show_stderr(self, tail: str) -> None:
        """The engine's last stderr lines, when a check failed (they often say why)."""
        if tail and not self.all_passed:
            print("engine stderr (last lines):", file=self.out)
            for line in tail.splitlines():
                print("    " + safe_text(line), file=self.out)


class Exchange:
    """The engine's process, spoken to one message at a time; what goes wrong is a FAIL in the log."""

    def __init__(self, proc: EngineProcess, log: CheckLog) -> None:
        self.proc, self.log = proc, log

    def send(self, message: dict) -> None:
        self.proc.send(message)

    def receive(self, name: str, timeout: float, what: str) -> dict | None:
        """The next message as a dict, or None after recording a FAIL that says why."""
        try:
            line = self.proc.receive(time.monotonic() + timeout)
        except ReadTimeout:
            self.log.check(name, False, f"no answer to {what} within {timeout:g} s")
            return None
        except EndOfOutput:
            status = self.proc.exit_status()
            how = f"exited with status {status}" if status is not None else "closed its stdout"
            self.log.check(name, False, f"the engine {how} instead of answering {what}")
            return None
        try:
            message = decode_line(line)
        except ValueError as exc:
            self.log.check(name, False, f"the answer to {what} is not JSON ({exc}): {preview(line)}")
            return None
        if not isinstance(message, dict):
            self.log.check(name, False, f"the answer to {what} is a JSON {type(message).__name__}, not an object: "
                                        f"{preview(line)}")
            return None
        return message

    def stop(self) -> None:
        """``stop`` and the end of input: the engine exits soon, writing nothing more."""
        self.proc.send({"type": "stop"})
        self.proc.close_stdin()
        status = self.proc.exit_status(wait=5.0)
        extra = []
        while True:
            try:
                extra.append(self.proc.receive(time.monotonic() + 0.2))
            except (ReadTimeout, EndOfOutput):
                break
        if status is None:
            self.log.check("stop", False, "the engine was still running 5 s after 'stop' and the end of its input")
        elif extra:
            self.log.check("stop", False, f"exited ({status}) but wrote {len(extra)} unexpected line(s) on stdout, "
                                          f"first: {preview(extra[0])}")
        else:
            self.log.check("stop", True, f"exited with status {status} after 'stop'")


def check_hello(log: CheckLog, reply: dict) -> None:
    """The hello reply's content: protocol version, shape, engine name and version, features."""
    version = reply.get("protocol")
    log.check("protocol version", version == PROTOCOL_VERSION,
              f"engine speaks protocol {version!r}" + ("" if version == PROTOCOL_VERSION else
                                                     f", this harness speaks protocol {PROTOCOL_VERSION}"))
    problems = schemas.def_errors("protocol", "hello_reply", reply)
    log.check("hello shape", not problems, "matches #/$defs/hello_reply" if not problems else "; ".join(problems[:5]))
    engine = reply.get("engine") if isinstance(reply.get("engine"), dict) else {}
    name, version_text = engine.get("name"), engine.get("version")
    log.check("engine name", isinstance(name, str) and bool(name.strip()),
              f"{name!r}" if isinstance(name, str) and name.strip() else f"engine.name must be a non-empty string, got {name!r}")
    log.check("engine version", isinstance(version_text, str) and bool(version_text.strip()),
              f"{version_text!r}" if isinstance(version_text, str) and version_text.strip()
              else f"engine.version must be a non-empty string (e.g. a release or a commit), got {version_text!r}")
    features = reply.get("features")
    if isinstance(features, list) and all(isinstance(f, str) for f in features):
        from castrules.harness.vocabulary import load

        known = load().features
        unknown = [f for f in features if f not in known]
        if unknown:
            log.check("features", False, f"unknown feature(s) {', '.join(map(repr, unknown))}: not in cases/features.yaml")
        else:
            log.check("features", True, f"{len(features)} known feature(s)" + (f": {', '.join(features)}" if features else
                                                                              " (none declared: every case will be unsupported)"))
    else:
        log.check("features", False, f"features must be a list of strings from cases/features.yaml, got {features!r}")


def trivial() -> tuple[dict, dict]:
    """(request, case document) of the built-in trivial case: a Forest, no steps, observe the setup."""
    doc = copy.deepcopy(TRIVIAL_CASE)
    cards = {"Forest": FOREST}
    try:  # the suite's own Forest when the catalog has one
        from castrules.harness import paths
        from castrules.harness.catalog import load_catalog

        catalog, _ = load_catalog(paths.catalog_dir(), paths.suite_root(), validate=False)
        cards = catalog.subset(["Forest"]) or cards
    except Exception:  # a broken checkout must not break the smoke test
        pass
    return {"case": public_document(doc), "cards": cards, "observe": [0]}, doc


def check_answers(log: CheckLog, answers: list[tuple[int, dict]], request: dict, doc: dict) -> None:
    """Two answers to the same run: sequence numbers echoed, shape, contract, determinism, the case."""
    echoed = [(seq, a.get("seq")) for seq, a in answers]
    wrong = [f"answered seq {got!r} to run seq {sent}" for sent, got in echoed if got != sent]
    log.check("sequence echo", not wrong, "seq 7 and 3 echoed" if not wrong else "; ".join(wrong))
    seq, answer = answers[0]
    problems = schemas.def_errors("protocol", "result_message", answer)
    log.check("answer shape", not problems, "matches #/$defs/result_message" if not problems else "; ".join(problems[:5]))
    if problems:
        return
    result = answer["result"]
    from castrules.harness.runner import contract_problems

    contract = contract_problems(result, len(doc["steps"]), request["observe"])
    if contract:
        log.check("answer contract", False, "; ".join(contract))
        return

    def untraced(r: object) -> str:
        return json.dumps({k: v for k, v in r.items() if k != "trace"} if isinstance(r, dict) else r, sort_keys=True)

    same = untraced(answers[1][1].get("result")) == untraced(result)
    log.check("deterministic", same, "the same request got the same result twice" if same
              else "the same request got two different results (seq 7 and seq 3)")
    _check_trivial_case(log, result, doc)


def _check_trivial_case(log: CheckLog, result: dict, doc: dict) -> None:
    label = f"case {doc['id']!r}"
    status = result["status"]
    if status == "skipped":
        log.check("trivial case", True, f"{label} skipped: {result.get('reason', '')!r} "
                                        "(allowed; an engine that skips everything tests nothing)")
    elif status == "errored":
        log.check("trivial case", False, f"{label}: the engine reported an error: {result.get('message', '')}")
    else:
        from castrules.harness.compare import compare

        mismatches = compare(doc.get("expect", []), len(doc["steps"]), result)
        log.check("trivial case", not mismatches, f"{label}: observations match" if not mismatches
                  else f"{label}: " + "; ".join(str(m) for m in mismatches[:5]))


class Smoke:
    """The checks in order: start, handshake, two runs of the trivial case, stop."""

    def __init__(self, argv: list[str], timeout: float, startup_timeout: float, out: IO[str]) -> None:
        self.argv, self.timeout, self.startup_timeout = argv, timeout, startup_timeout
        self.log = CheckLog(out)

    @property
    def checks(self) -> list[Check]:
        return self.log.checks

    def run(self) -> bool:
        try:
            proc = EngineProcess(self.argv)
        except EngineStartError as exc:
            self.log.check("start", False, str(exc))
            return False
        self.log.check("start", True, f"started {shlex.join(self.argv)} (pid {proc.popen.pid})")
        exchange = Exchange(proc, self.log)
        try:
            hello = self.handshake(exchange)
            if hello is not None and self.runs(exchange, pipelined=type(hello.get("pipeline")) is int
                                                   and hello["pipeline"] >= 2):
                exchange.stop()
        finally:
            proc.kill()
            self.log.show_stderr(proc.stderr_tail(15))
        return self.log.all_passed

    def handshake(self, exchange: Exchange) -> dict | None:
        exchange.send({"type": "hello", "protocol": PROTOCOL_VERSION, "suite_version": __version__})
        started = time.monotonic()
        reply = exchange.receive("handshake", self.startup_timeout, "hello")
        if reply is None:
            return None
        took = time.monotonic() - started
        if reply.get("type") == "refuse":
            self.log.check("handshake", False, f"the engine refused protocol {PROTOCOL_VERSION}: "
                                               f"{reply.get('reason', 'no reason given')} (it speaks protocol "
                                               f"{reply.get('protocol')!r})")
            return None
        if reply.get("type") != "hello":
            self.log.check("handshake", False, f"expected a message of type 'hello', got type {reply.get('type')!r}")
            return None
        self.log.check("handshake", True, f"hello reply in {took:.2f} s")
        check_hello(self.log, reply)
        return reply if reply.get("protocol") == PROTOCOL_VERSION else None

    def runs(self, exchange: Exchange, pipelined: bool = False) -> bool:
        """Two runs of the trivial case (sent together when the hello declares ``pipeline``);
        False when the engine broke down (no point asking it to stop)."""
        request, doc = trivial()
        # Sequence numbers are the harness's to choose: use unusual ones and expect them echoed.
        answers = []
        for seq in (7, 3):
            exchange.send({"type": "run", "seq": seq, "request": request})
            if pipelined and seq == 7:
                continue   # the second run goes before the first answer: the answers must come in order
            for asked in ((7, 3) if pipelined else (seq,)):
                answer = exchange.receive(f"run seq {asked}", self.timeout, f"run seq {asked}")
                if answer is None:
                    return False
                answers.append((asked, answer))
        if pipelined:
            self.log.check("pipelining", True, "runs seq 7 and 3 sent before the first answer were both answered")
        for seq, answer in answers:
            if answer.get("type") != "result":
                self.log.check("answer type", False, f"run seq {seq} was answered with type {answer.get('type')!r}, "
                                                     "expected 'result'")
                return False
        check_answers(self.log, answers, request, doc)
        return True


def smoke(command: str, timeout: float = 10.0, startup_timeout: float = 30.0, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    prefix, sep, rest = command.strip().partition(":")
    if sep and prefix == "cmd":      # the explicit form of the engine spec grammar (harness.engine_spec)
        command = rest
    elif sep and prefix == "py":
        print(f"FAIL start: smoke checks a protocol engine (a command line), not the in-process {command!r}; "
              f"castrules serve --engine {rest.strip()!r} makes it one", file=out)
        return 1
    try:
        argv = shlex.split(command, posix=os.name != "nt")
    except ValueError as exc:
        print(f"FAIL start: cannot split the command line {command!r}: {exc}", file=out)
        return 1
    if not argv:
        print("FAIL start: the engine command line is empty", file=out)
        return 1
    runner = Smoke(argv, timeout, startup_timeout, out)
    ok = runner.run()
    failed = [c.name for c in runner.checks if not c.ok]
    print(f"smoke: {len(runner.checks) - len(failed)}/{len(runner.checks)} checks passed"
          + ("" if ok else f"; failed: {', '.join(failed)}"), file=out)
    return 0 if ok else 1

