"""In-process engines that misbehave on the cases whose id ends in "bad", each in one way.

They answer every other case as the protocol fakes do (every step legal, the setup's zones
echoed), which is what the cases of tests/harness/test_faults.py expect. Each is a test of what the
harness contains: a test asserts the bad case's status and that every other result is intact.
"""

import os
import signal
import sys
import time


def good(request):
    """Every step legal, and each snapshot echoes the setup's zones (as the protocol fakes do)."""
    case = request["case"]
    objects = {o["id"]: {"zone": o["zone"]} for o in case["setup"].get("objects", [])}
    snapshots = {str(n): {"players": {}, "objects": objects, "stack": []} for n in request["observe"]}
    return {"status": "ok", "steps": [{"legal": True} for _ in case["steps"]], "snapshots": snapshots}


class _Base:
    name, version = "hostile", "1"
    features = frozenset({"casting"})

    def __init__(self):
        if os.environ.get("HOSTILE_PIDS"):   # so that a test can check no process is left behind
            with open(os.environ["HOSTILE_PIDS"], "a", encoding="utf-8") as out:
                out.write(f"{os.getpid()}\n")

    def run(self, request):
        if request["case"]["id"].endswith("bad"):
            return self.misbehave(request)
        return good(request)


class Exits(_Base):
    """sys.exit(0) in the middle of a case."""

    def misbehave(self, request):
        sys.exit(0)


class RaisesBase(_Base):
    """A BaseException subclass that is not an Exception."""

    def misbehave(self, request):
        class Escape(BaseException):
            pass
        raise Escape("out of here")


class Interrupts(_Base):
    """Raises KeyboardInterrupt itself (in a worker, that is the engine's doing, not the user's)."""

    def misbehave(self, request):
        raise KeyboardInterrupt


class Sleeps(_Base):
    """Never answers: only a timeout that kills a process can stop it."""

    def misbehave(self, request):
        time.sleep(3600)


class KillsItself(_Base):
    """Kills the process it runs in (under -j, its worker)."""

    def misbehave(self, request):
        os.kill(os.getpid(), signal.SIGKILL)


class Mutates(_Base):
    """Rewrites the request it was given: the setup, the cards, the list of what to observe."""

    def run(self, request):
        answer = good(request)
        request["case"]["setup"]["objects"].clear()
        request["cards"].clear()
        request["observe"].append(99)
        return answer


class NaN(_Base):
    def misbehave(self, request):
        answer = good(request)
        answer["steps"][0]["life_paid"] = float("nan")
        return answer


class Huge(_Base):
    def misbehave(self, request):
        answer = good(request)
        answer["steps"][0]["life_paid"] = 10 ** 5000
        return answer


class IntKeys(_Base):
    def misbehave(self, request):
        answer = good(request)
        answer["snapshots"] = {int(k): v for k, v in answer["snapshots"].items()}
        return answer


class StrangeCost(_Base):
    """A schema-valid string the cost comparison may choke on."""

    def misbehave(self, request):
        answer = good(request)
        answer["steps"][0]["total_cost"] = "{\u00b2}"
        return answer


class WrongTypes:
    """Declarations of the wrong types: a clear load error, not a traceback later."""

    name, version, features = 42, None, "casting"

    def run(self, request):
        return good(request)


class WritesToStdout(_Base):
    """Prints, and writes to file descriptor 1 itself (as a C library would), then answers well."""

    def misbehave(self, request):
        print("a print from the engine")
        sys.stdout.flush()
        os.write(1, b"not a protocol line\n")
        return good(request)
