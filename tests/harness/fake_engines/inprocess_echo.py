"""An in-process engine (``inprocess_echo:Engine``) for the ``castrules serve`` round trip.

Deterministic observations made from the request alone: each object's zone and card name as
set up, the players' life, one legal step result per step (a cast's total cost is its card's
mana cost), a trace, and a skip or an error for some ids, so that every kind of answer crosses
the protocol.
"""


class Engine:
    name, version, homepage = "inprocess-echo", "1.0", "https://example.invalid/echo"
    features = frozenset({"casting", "timing", "total_cost", "mana_value", "color"})

    def run(self, request):
        case = request["case"]
        if "skip" in case["id"]:
            return {"status": "skipped", "reason": "not modelled", "issue_url": "https://example.invalid/1"}
        if "raise" in case["id"]:
            raise RuntimeError("the echo engine was asked to fail")
        objects = {o["id"]: {"zone": o["zone"], "name": o["card"], "tapped": o.get("tapped", False)}
                   for o in case["setup"].get("objects", [])}
        players = {name: {"life": p.get("life", 20), "mana_pool": p.get("mana_pool", "")}
                   for name, p in case["setup"]["players"].items()}
        steps = []
        for step in case["steps"]:
            kind, body = next(iter(step.items()))
            if kind == "cast":
                card = request["cards"].get(next((o["card"] for o in case["setup"]["objects"] if o["id"] == body["object"]), ""), {})
                steps.append({"legal": True, "total_cost": card.get("mana_cost") or "{0}"})
            else:
                steps.append({"legal": True})
        snapshots = {str(n): {"players": players, "objects": objects, "stack": []} for n in request["observe"]}
        return {"status": "ok", "steps": steps, "snapshots": snapshots,
                "trace": [{"step": i + 1, "rule": "601.2a", "note": "échoed ✓"} for i in range(len(steps))]}
