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


class Smoke:
    def __init__(self, argv: list[str], timeout: float, startup_timeout: float, out: IO[str]) -> None:
        self.argv, self.timeout, self.startup_timeout, self.out = argv, timeout, startup_timeout, out
        self.checks: list[Check] = []
        self.proc: EngineProcess | None = None

    def check(self, name: str, ok: bool, detail: str) -> bool:
        entry = Check(name, ok, detail)
        self.checks.append(entry)
        print(safe_text(entry.line()), file=self.out, flush=True)   # an engine's bytes shown, not obeyed
        return ok

    # -- one exchange ----------------------------------------------------------------------
    def receive(self, name: str, timeout: float, what: str) -> dict | None:
        """The next message as a dict, or None after recording a FAIL that says why."""
        assert self.proc is not None
        try:
            line = self.proc.receive(time.monotonic() + timeout)
        except ReadTimeout:
            self.check(name, False, f"no answer to {what} within {timeout:g} s")
            return None
        except EndOfOutput:
            status = self.proc.exit_status()
            how = f"exited with status {status}" if status is not None else "closed its stdout"
            self.check(name, False, f"the engine {how} instead of answering {what}")
            return None
        try:
            message = decode_line(line)
        except ValueError as exc:
            self.check(name, False, f"the answer to {what} is not JSON ({exc}): {preview(line)}")
            return None
        if not isinstance(message, dict):
            self.check(name, False, f"the answer to {what} is a JSON {type(message).__name__}, not an object: {preview(line)}")
            return None
        return message

    # -- the checks ------------------------------------------------------------------------
    def run(self) -> bool:
        try:
            self.proc = EngineProcess(self.argv)
        except EngineStartError as exc:
            self.check("start", False, str(exc))
            return False
        self.check("start", True, f"started {shlex.join(self.argv)} (pid {self.proc.popen.pid})")
        try:
            hello = self.handshake()
            if hello is not None and self.runs(hello):
                self.stop()
        finally:
            self.proc.kill()
            self.show_stderr()
        return all(c.ok for c in self.checks)

    def handshake(self) -> dict | None:
        assert self.proc is not None
        self.proc.send({"type": "hello", "protocol": PROTOCOL_VERSION, "suite_version": __version__})
        started = time.monotonic()
        reply = self.receive("handshake", self.startup_timeout, "hello")
        if reply is None:
            return None
        took = time.monotonic() - started
        if reply.get("type") == "refuse":
            self.check("handshake", False, f"the engine refused protocol {PROTOCOL_VERSION}: "
                                           f"{reply.get('reason', 'no reason given')} (it speaks protocol {reply.get('protocol')!r})")
            return None
        if reply.get("type") != "hello":
            self.check("handshake", False, f"expected a message of type 'hello', got type {reply.get('type')!r}")
            return None
        self.check("handshake", True, f"hello reply in {took:.2f} s")
        version = reply.get("protocol")
        self.check("protocol version", version == PROTOCOL_VERSION,
                   f"engine speaks protocol {version!r}" + ("" if version == PROTOCOL_VERSION else
                                                          f", this harness speaks protocol {PROTOCOL_VERSION}"))
        problems = schemas.def_errors("protocol", "hello_reply", reply)
        self.check("hello shape", not problems, "matches #/$defs/hello_reply" if not problems else "; ".join(problems[:5]))
        engine = reply.get("engine") if isinstance(reply.get("engine"), dict) else {}
        name, version_text = engine.get("name"), engine.get("version")
        self.check("engine name", isinstance(name, str) and bool(name.strip()),
                   f"{name!r}" if isinstance(name, str) and name.strip() else f"engine.name must be a non-empty string, got {name!r}")
        self.check("engine version", isinstance(version_text, str) and bool(version_text.strip()),
                   f"{version_text!r}" if isinstance(version_text, str) and version_text.strip()
                   else f"engine.version must be a non-empty string (e.g. a release or a commit), got {version_text!r}")
        features = reply.get("features")
        if isinstance(features, list) and all(isinstance(f, str) for f in features):
            from castrules.harness.vocabulary import load

            known = load().features
            unknown = [f for f in features if f not in known]
            if unknown:
                self.check("features", False, f"unknown feature(s) {', '.join(map(repr, unknown))}: not in cases/features.yaml")
            else:
                self.check("features", True, f"{len(features)} known feature(s)" + (f": {', '.join(features)}" if features else
                                                                                   " (none declared: every case will be unsupported)"))
        else:
            self.check("features", False, f"features must be a list of strings from cases/features.yaml, got {features!r}")
        return reply if version == PROTOCOL_VERSION else None

    def trivial(self) -> tuple[dict, dict]:
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

    def runs(self, hello: dict) -> bool:
        """Two runs of the trivial case; False when the engine broke down (no point asking it to stop)."""
        request, doc = self.trivial()
        label = f"case {doc['id']!r}"
        # Sequence numbers are the harness's to choose: use unusual ones and expect them echoed.
        answers = []
        for seq in (7, 3):
            assert self.proc is not None
            self.proc.send({"type": "run", "seq": seq, "request": request})
            answer = self.receive(f"run seq {seq}", self.timeout, f"run seq {seq}")
            if answer is None:
                return False
            answers.append((seq, answer))
        for seq, answer in answers:
            if answer.get("type") != "result":
                self.check("answer type", False, f"run seq {seq} was answered with type {answer.get('type')!r}, expected 'result'")
                return False
        echoed = [(seq, a.get("seq")) for seq, a in answers]
        wrong = [f"answered seq {got!r} to run seq {sent}" for sent, got in echoed if got != sent]
        self.check("sequence echo", not wrong, "seq 7 and 3 echoed" if not wrong else "; ".join(wrong))
        seq, answer = answers[0]
        problems = schemas.def_errors("protocol", "result_message", answer)
        self.check("answer shape", not problems, "matches #/$defs/result_message" if not problems else "; ".join(problems[:5]))
        if problems:
            return True
        result = answer["result"]
        from castrules.harness.runner import contract_problems

        contract = contract_problems(result, len(doc["steps"]), request["observe"])
        if contract:
            self.check("answer contract", False, "; ".join(contract))
            return True
        def untraced(r: object) -> str:
            return json.dumps({k: v for k, v in r.items() if k != "trace"} if isinstance(r, dict) else r, sort_keys=True)

        same = untraced(answers[1][1].get("result")) == untraced(result)
        self.check("deterministic", same, "the same request got the same result twice" if same
                   else "the same request got two different results (seq 7 and seq 3)")
        status = result["status"]
        if status == "skipped":
            self.check("trivial case", True, f"{label} skipped: {result.get('reason', '')!r} "
                                             "(allowed; an engine that skips everything tests nothing)")
            return True
        elif status == "errored":
            self.check("trivial case", False, f"{label}: the engine reported an error: {result.get('message', '')}")
        else:
            from castrules.harness.compare import compare

            mismatches = compare(doc.get("expect", []), len(doc["steps"]), result)
            self.check("trivial case", not mismatches, f"{label}: observations match" if not mismatches
                       else f"{label}: " + "; ".join(str(m) for m in mismatches[:5]))
        return True

    def stop(self) -> None:
        assert self.proc is not None
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
            self.check("stop", False, "the engine was still running 5 s after 'stop' and the end of its input")
        elif extra:
            self.check("stop", False, f"exited ({status}) but wrote {len(extra)} unexpected line(s) on stdout, "
                                      f"first: {preview(extra[0])}")
        else:
            self.check("stop", True, f"exited with status {status} after 'stop'")

    def show_stderr(self) -> None:
        if self.proc is None:
            return
        tail = self.proc.stderr_tail(15)
        if tail and not all(c.ok for c in self.checks):
            print("engine stderr (last lines):", file=self.out)
            for line in tail.splitlines():
                print("    " + safe_text(line), file=self.out)


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

