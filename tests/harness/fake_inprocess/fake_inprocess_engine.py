"""An in-process engine for the plugin tests: right about bears, wrong about everything else."""


class Engine:
    name, version = "fake-inprocess", "1"
    features = frozenset({"casting"})

    def run(self, request):
        case = request["case"]
        right = case["id"].endswith("bears")
        cost = "{1}{G}" if right else "{5}"
        snapshots = {str(n): {"players": {}, "objects": {"bears": {"zone": "stack"}}, "stack": ["bears"]}
                     for n in request["observe"]}
        return {"status": "ok", "steps": [{"legal": True, "total_cost": cost} for _ in case["steps"]],
                "snapshots": snapshots}


class Misspelt(Engine):
    """Declares a feature the suite does not know (a typo of prowl)."""

    name = "fake-misspelt"
    features = frozenset({"casting", "prowll"})


class Crashy(Engine):
    """Like Engine, but raises on cases whose id ends in "crash" (an error, not a failure)."""

    name = "fake-crashy"

    def run(self, request):
        if request["case"]["id"].endswith("crash"):
            raise RuntimeError("the engine crashed")
        return super().run(request)
