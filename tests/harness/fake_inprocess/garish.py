"""Engines whose every word carries control characters (ANSI colours, NUL, C1, a lone surrogate):
the reports must stay valid for their formats. The same answers in process and, through
tests/harness/fake_engines/garish.py, over the protocol."""

NASTY = "\x1b[31mred\x1b[0m nul\x00 bell\x07 bs\x08 ff\x0c nel\x85 csi\x9b cr\rlone\ud800 rlo\u202e end"


def answer(request):
    """fail / errored / skipped / ok by the case id's last word, each carrying NASTY."""
    case = request["case"]
    kind = case["id"].rsplit("/", 1)[1]
    trace = [{"step": 1, "rule": "601.2a", "note": f"trace {NASTY}"}]
    snapshots = {str(n): {"players": {}, "objects": {"bears": {"zone": "stack"}}, "stack": ["bears"]}
                 for n in request["observe"]}
    if kind == "errored":
        return {"status": "errored", "message": f"message {NASTY}", "context": f"context {NASTY}"}
    if kind == "skipped":
        return {"status": "skipped", "reason": f"reason {NASTY}"}
    if kind == "raises":
        raise RuntimeError(f"raised {NASTY}")
    legal = kind != "fails"
    return {"status": "ok", "steps": [{"legal": legal, "total_cost": "{1}{G}"} for _ in case["steps"]],
            "snapshots": snapshots, "trace": trace}


class Engine:
    name, version = f"garish {NASTY}", f"1 {NASTY}"
    features = frozenset({"casting"})

    def run(self, request):
        return answer(request)
