"""One badge per feature in the shields.io endpoint format (https://shields.io/badges/endpoint-badge)."""

from __future__ import annotations

import json
from pathlib import Path

from castrules.harness.results import Result, Status
from castrules.harness.summary import NOT_JUDGED, by_key


def badge(label: str, counts) -> dict:
    ran = sum(n for s, n in counts.items() if s not in NOT_JUDGED)
    passed = counts.get(Status.PASS, 0)
    if not ran:
        return {"schemaVersion": 1, "label": label, "message": "unsupported", "color": "lightgrey"}
    share = passed / ran
    color = "brightgreen" if share == 1 else "green" if share >= 0.9 else "yellow" if share >= 0.6 else "orange" if share >= 0.3 else "red"
    return {"schemaVersion": 1, "label": label, "message": f"{passed}/{ran} passing", "color": color}


def write_badges(results: list[Result], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for feature, counts in sorted(by_key(results, "features").items()):
        path = folder / f"{feature}.json"
        path.write_text(json.dumps(badge(f"castrules {feature}", counts)) + "\n", encoding="utf-8")
        written.append(path)
    overall = {}
    for r in results:
        overall[r.status] = overall.get(r.status, 0) + 1
    path = folder / "all.json"
    path.write_text(json.dumps(badge("castrules", overall)) + "\n", encoding="utf-8")
    return [*written, path]
