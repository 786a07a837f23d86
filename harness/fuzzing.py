"""Differential fuzzing of an engine against the oracle (``castrules fuzz``).

Generated cases (``harness.generate``) run on the engine and on the oracle, both loaded
through ``load_engine``; their observations after every step (step results and snapshots)
are compared field by field with the normalisation of ``harness.compare``. On the first
disagreement (or crash) hypothesis shrinks the case to a minimal one, which is written as a
case file to ``--out``: its expectations are the ORACLE's observations, marked in ``notes``
as generated and to be checked by hand against the rules before the case joins the suite.
Deterministic for a given ``--seed``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml

from castrules.model import HIDDEN_FIELDS, STEP_FIELDS, ObjectExpectation, PlayerExpectation, card_names, request_document
from castrules.model.build import doc_key
from castrules.harness import paths
from castrules.harness.catalog import Catalog
from castrules.harness.collector import settle
from castrules.harness.compare import compare, compared
from castrules.harness.contract import load_contract, needs
from castrules.harness.engine import Engine, close, load_engine
from castrules.harness.results import Mismatch

NOTES = ("GENERATED from the oracle's output by castrules fuzz; check every expectation by hand against the "
         "rules before it joins the suite.")
# what a case may expect of an object and of a player: the model's expectation fields, in order
OBJECT_FIELDS = tuple(doc_key(f) for f in dataclasses.fields(ObjectExpectation))
PLAYER_FIELDS = tuple(doc_key(f) for f in dataclasses.fields(PlayerExpectation))
SUMMARY_FIELDS = {"battlefield": ("zone", "controller", "tapped"), "stack": ("zone", "controller", "mana_value", "prototyped",
                                                                             "prowl_paid", "is_copy")}


# ---- observing and comparing -------------------------------------------------------------------

def request_for(doc: Mapping[str, Any], catalog: Catalog) -> dict:
    """The request an engine receives for a generated case, observing the state after every step
    (the model's one request builder: hidden fields removed, a melded partner's card included)."""
    return request_document(doc, catalog.subset(card_names(doc)), range(len(doc["steps"]) + 1))


def _valid_object_fields(view: Mapping[str, Any]) -> dict:
    """The fields of an observed object that a case may expect, as the schema allows them."""
    out = {}
    for key in OBJECT_FIELDS:
        if key not in view:
            continue
        value = view[key]
        if key == "counters":
            value = {k: v for k, v in (value or {}).items() if isinstance(v, int) and v > 0
                     and re.fullmatch(r"[-+a-z0-9/]+", str(k))}
        if key == "mana_value" and (not isinstance(value, int) or value < 0):
            continue
        if key == "colors":
            value = [c for c in "WUBRG" if c in (value or [])]
        if key == "mana_cost" and value is not None and not re.fullmatch(r"(\{[^{}]*\})*", str(value)):
            continue
        out[key] = value
    return out


def expectations_from(reply: Mapping[str, Any], steps: int, full: bool = True) -> list[dict]:
    """The oracle's observations as expectations: every step's result, every snapshot."""
    out: list[dict] = []
    for n in range(0, steps + 1):
        e: dict[str, Any] = {"after": n}
        if n:
            result = reply["steps"][n - 1]
            e.update({k: result[k] for k in STEP_FIELDS if k in result})
            if e.get("legal") is not False:
                e.pop("reason", None)
                e.pop("substep", None)
        snap = reply["snapshots"].get(str(n))
        if snap is not None:
            e["players"] = {name: {k: v for k, v in p.items() if k in PLAYER_FIELDS}
                            for name, p in snap.get("players", {}).items()}
            e["objects"] = {oid: _valid_object_fields(view) if full else dict(view)
                            for oid, view in snap.get("objects", {}).items()}
            e["stack"] = list(snap.get("stack", []))
        out.append(e)
    return out


@dataclass
class Verdict:
    kind: str                               # agree / disagree / engine_error / oracle_error / unsupported
    mismatches: list[tuple[int, Mismatch]] = field(default_factory=list)
    message: str = ""
    oracle_reply: Mapping[str, Any] | None = None

    @property
    def found(self) -> bool:
        return self.kind in ("disagree", "engine_error", "oracle_error")


def judge_pair(doc: Mapping[str, Any], catalog: Catalog, engine: Engine, oracle: Engine) -> Verdict:
    """Run the generated case on both; compare every step result and every snapshot."""
    from castrules.harness.runner import contract_problems

    if set(doc["features"]) - set(engine.features):
        return Verdict("unsupported")
    request = request_for(doc, catalog)
    steps = len(doc["steps"])
    try:
        expected_reply = oracle.run(request)
    except Exception as exc:  # noqa: BLE001 - a crash of the oracle is a finding
        return Verdict("oracle_error", message=f"the oracle raised {type(exc).__name__}: {exc}")
    problems = contract_problems(expected_reply, steps, request["observe"])
    if problems or expected_reply.get("status") != "ok":
        return Verdict("oracle_error", message="the oracle broke its contract: " + "; ".join(problems[:3]))
    try:
        reply = engine.run(request)
    except Exception as exc:  # noqa: BLE001
        return Verdict("engine_error", message=f"the engine raised {type(exc).__name__}: {exc}", oracle_reply=expected_reply)
    problems = contract_problems(reply, steps, request["observe"])
    if problems:
        return Verdict("engine_error", message="the engine broke its contract: " + "; ".join(problems[:3]),
                       oracle_reply=expected_reply)
    if reply["status"] != "ok":
        return Verdict("unsupported", message=f"the engine answered {reply['status']}")
    return _disagreements(expected_reply, reply, steps, engine)


def _disagreements(expected_reply: Mapping[str, Any], reply: Mapping[str, Any], steps: int, engine: Engine) -> Verdict:
    """Every observation of the oracle the engine promised (its features, its reason detail)
    and reports otherwise; a step field only the engine reports is a disagreement too."""
    from castrules.harness.runner import reason_detail

    reasons = reason_detail(engine)
    undeclared = _undeclared_fields(engine.features)
    found: list[tuple[int, Mismatch]] = []
    for expectation in expectations_from(expected_reply, steps):
        expectation = _without(expectation, undeclared)
        n = expectation["after"]
        found += [(n, m) for m in compare([expectation], steps, reply, reasons)]
        if n:
            theirs, ours = reply["steps"][n - 1], expected_reply["steps"][n - 1]
            found += [(n, Mismatch(f"after step {n}", key, None, theirs[key])) for key in STEP_FIELDS
                      if key in theirs and key not in ours and theirs[key] is not None and compared(key, reasons)
                      and key not in undeclared["step"]]
    return Verdict("disagree" if found else "agree", found, oracle_reply=expected_reply)


def _undeclared_fields(features: frozenset[str] | set[str]) -> dict[str, frozenset[str]]:
    """The step, player and object fields whose feature (cases/observations.yaml) the engine does
    not declare: as in a suite run, an engine is never held to an observation it did not promise."""
    contract = load_contract()
    return {part: frozenset(k for k, owner in owners.items() if owner.feature and owner.feature not in features)
            for part, owners in (("step", contract.step), ("players", contract.player), ("objects", contract.object))}


def _without(expectation: dict, undeclared: Mapping[str, frozenset[str]]) -> dict:
    out = {k: v for k, v in expectation.items() if k not in undeclared["step"]}
    for part in ("players", "objects"):
        if undeclared[part] and part in out:
            out[part] = {name: {k: v for k, v in view.items() if k not in undeclared[part]}
                         for name, view in out[part].items()}
    return out


# ---- writing a finding as a case file -----------------------------------------------------------

def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "engine"


def finding_document(doc: Mapping[str, Any], verdict: Verdict, engine_name: str, seed: int) -> dict:
    """The minimal case with the oracle's observations as its expectations (to check by hand)."""
    steps = len(doc["steps"])
    case = {k: v for k, v in doc.items() if k not in HIDDEN_FIELDS}
    case["id"] = f"fuzz/{_slug(engine_name)}/seed-{seed}"
    first = verdict.mismatches[0][1] if verdict.mismatches else None
    case["title"] = (f"Generated: {engine_name} disagrees with the oracle on {first.path} {first.where}"
                     if first else f"Generated: {engine_name} fails on this case ({verdict.kind})")[:200]
    case["why"] = ("Generated by castrules fuzz from a disagreement with the oracle; the expectations are the "
                   "oracle's observations and still have to be justified from the rules.")
    details = [f"{m}" for _, m in verdict.mismatches[:10]]
    case["notes"] = NOTES + f" Engine: {engine_name}; seed {seed}; {verdict.kind}" + (
        ": " + verdict.message if verdict.message else "") + ("; mismatches: " + "; ".join(details) if details else "")
    reply = verdict.oracle_reply
    if reply is None:
        case["expect"] = [{"after": 0, "stack": []}]
        return _ordered(case)
    full = expectations_from(reply, steps)
    wanted: dict[int, dict[str, set]] = {}
    for n, m in verdict.mismatches:
        wanted.setdefault(n, {}).setdefault("paths", set()).add(m.path)
    expect: list[dict] = []
    for n, e in enumerate(full):
        out: dict[str, Any] = {"after": "final" if n == steps and n else n}
        if n:
            out.update({k: e[k] for k in STEP_FIELDS if k in e})
        paths = wanted.get(n, {}).get("paths", set())
        if n == steps or paths:
            out.update(_state_expectation(e, paths, summary=n == steps))
        if len(out) > 1:
            expect.append(out)
    case["expect"] = expect or [{"after": 0, "stack": full[0].get("stack", [])}]
    # the features its expectations need by the observation contract (cases/observations.yaml)
    case["features"] = sorted(set(case["features"]) | {n.feature for n in needs(case, load_contract())})
    return _ordered(case)


def _ordered(case: dict) -> dict:
    order = ("id", "title", "rules", "features", "why", "notes", "setup", "steps", "expect")
    return {**{k: case[k] for k in order if k in case}, **{k: v for k, v in case.items() if k not in order}}


def _state_expectation(e: Mapping[str, Any], paths: set[str], summary: bool) -> dict:
    """What to expect of the state: the fields that disagreed, and (for the last step) a short
    summary (players, where every object is, battlefield tapped state, spells on the stack)."""
    players: dict[str, dict] = {}
    objects: dict[str, dict] = {}
    out: dict[str, Any] = {}
    for path in paths:
        parts = path.split(".")
        if parts[0] == "players" and len(parts) == 3 and parts[1] in e.get("players", {}):
            players.setdefault(parts[1], {})[parts[2]] = e["players"][parts[1]].get(parts[2])
        elif parts[0] == "objects" and len(parts) == 3 and parts[1] in e.get("objects", {}):
            if parts[2] in e["objects"][parts[1]]:
                objects.setdefault(parts[1], {})[parts[2]] = e["objects"][parts[1]][parts[2]]
        elif parts[0] == "stack":
            out["stack"] = e.get("stack", [])
    if summary:
        for name, p in e.get("players", {}).items():
            players.setdefault(name, {}).update({k: p[k] for k in ("life", "mana_pool") if k in p})
        for oid, view in e.get("objects", {}).items():
            keep = SUMMARY_FIELDS.get(view.get("zone"), ("zone",))
            objects.setdefault(oid, {}).update({k: view[k] for k in keep if k in view})
        out["stack"] = e.get("stack", [])
    players = {k: {f: v for f, v in fields.items() if v is not None or f == "mana_pool"} for k, fields in players.items()}
    if players:
        out["players"] = {k: v for k, v in players.items() if v}
    if objects:
        out["objects"] = {k: v for k, v in objects.items() if v}
    return out


def write_finding(doc: Mapping[str, Any], out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / (doc["id"].split("/", 1)[1].replace("/", "-") + ".yaml")
    path.write_text(yaml.safe_dump(dict(doc), sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    return path


# ---- the search -----------------------------------------------------------------------------------

class _OutOfTime(BaseException):
    """Raised from the search to stop hypothesis shrinking when its budget is spent."""


@dataclass
class FuzzReport:
    tried: int = 0                          # examples hypothesis generated (some twice)
    examples: int = 0                       # distinct cases run
    compared: int = 0
    unsupported: int = 0
    seconds: float = 0.0
    finding: dict | None = None
    verdict: Verdict | None = None
    path: Path | None = None


class _Search:
    """The condition hypothesis searches with: a generated case is "found" when the engine and
    the oracle disagree on it. Counts what the search tried; while shrinking, stops after the
    shrinking budget and remembers the smallest failing case accepted so far."""

    def __init__(self, catalog: Catalog, engine: Engine, oracle: Engine, report: FuzzReport, shrink_runs: int,
                 progress=None) -> None:
        self.catalog, self.engine, self.oracle, self.report = catalog, engine, oracle, report
        self.searching, self.shrink_left, self.progress = True, shrink_runs, progress
        self.seen: dict[str, bool] = {}
        self.smallest: dict | None = None

    def __call__(self, doc: dict) -> bool:
        self.report.tried += self.searching
        if not self.searching:
            self.shrink_left -= 1
            if self.shrink_left < 0:
                raise _OutOfTime()           # out of shrinking budget: keep the smallest so far
        key = json.dumps(doc, sort_keys=True)
        if key in self.seen:                 # hypothesis replays examples: answer the same way
            return self.seen[key]
        verdict = judge_pair(doc, self.catalog, self.engine, self.oracle)
        if self.searching:
            self._count(verdict)
        self.seen[key] = verdict.found
        if verdict.found:
            self.smallest = doc
        return verdict.found

    def _count(self, verdict: Verdict) -> None:
        report = self.report
        report.examples += 1
        report.compared += verdict.kind != "unsupported"
        report.unsupported += verdict.kind == "unsupported"
        if self.progress and report.examples % 100 == 0:
            self.progress(report.examples)
        if verdict.found:
            self.searching = False


def fuzz(engine_spec: str, examples: int = 200, seed: int = 0, out_dir: Path | None = None,
         reference: str = "oracle", suite=None, progress=None, shrink_runs: int = 1000) -> FuzzReport:
    """Search `examples` generated cases for one where the engine and the oracle disagree;
    shrink it (trying at most `shrink_runs` smaller cases: deterministic, unlike a time limit)
    and write it to `out_dir`."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis.errors import NoSuchExample

    from castrules.harness.generate import case_documents

    catalog, features = (suite.catalog, suite.vocabulary.features) if suite is not None else catalog_and_features()
    engine = load_engine(engine_spec)
    oracle = load_engine(reference)
    report = FuzzReport()
    started = time.perf_counter()
    search = _Search(catalog, engine, oracle, report, shrink_runs, progress)
    strategy = case_documents(catalog, features, "fuzz/generated/case")
    options = settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
                       report_multiple_bugs=False)
    try:
        try:
            minimal = find(strategy, search, settings=options, random=random.Random(seed))
        except NoSuchExample:
            minimal = None
        except _OutOfTime:
            minimal = search.smallest
        if minimal is not None:
            verdict = judge_pair(minimal, catalog, engine, oracle)
            report.verdict = verdict
            report.finding = finding_document(minimal, verdict, engine.name, seed)
            if out_dir is not None:
                report.path = write_finding(report.finding, out_dir)
    finally:
        close(engine)
        close(oracle)
    report.seconds = time.perf_counter() - started
    return report


def catalog_and_features() -> tuple[Catalog, Mapping[str, Any]]:
    """What generating cases needs of the suite: its catalog and its features. The case files are
    never read (loading and checking them all was an eighth of a fuzz run's CPU), and the catalog
    is kept out of the garbage collector's sight, as a run's suite is (``collector.settle``)."""
    from castrules.harness.catalog import load_catalog
    from castrules.harness.vocabulary import load as load_vocabulary

    root = paths.suite_root()
    catalog, _ = load_catalog(root / "cases" / "catalog", root)   # its problems are validate's to report
    features = load_vocabulary(root).features
    settle()
    return catalog, features
