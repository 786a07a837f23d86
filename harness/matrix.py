"""The coverage matrix (issue 14, point 4): cost modifiers x ways a base cost is chosen x zones.

The dimensions and the cells the rules forbid (with the rule) are data, in
cases/coverage-matrix.yaml, so a new base-cost way or zone is a few lines
there. A case fills a cell with its `matrix:` field; `tag_problems` checks the tag against the
case's own data (a permanent or the spell with that kind of modifier, the cast step's choices, the
object's zone), so a tag cannot claim what the case does not do. Every other cell must have a case
(tests/harness/test_coverage_matrix.py).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from collections.abc import Mapping
from typing import Any, Iterator

from castrules.harness.problems import Problem

MATRIX_FILE = "cases/coverage-matrix.yaml"
DIMENSIONS = ("modifiers", "bases", "zones")
REQUIRED, FORBIDDEN = "required", "forbidden"
# The cast fields a base's `match` may name; absent (or false) in the step means not announced.
CAST_CHOICES = ("alternative_cost", "prototype", "fuse")
_SYMBOL = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True)
class Value:
    """One value of a dimension: a kind of modifier, a base-cost way or a zone."""

    name: str
    title: str
    rules: tuple[str, ...] = ()
    match: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Exclusion:
    """Cells the rules forbid, with the rule; "*" matches any value."""

    modifier: str
    base: str
    zone: str
    why: str
    rule: str

    def covers(self, cell: tuple[str, str, str]) -> bool:
        return all(mine in ("*", theirs) for mine, theirs in zip((self.modifier, self.base, self.zone), cell))


@dataclass(frozen=True)
class Matrix:
    modifiers: Mapping[str, Value]
    bases: Mapping[str, Value]
    zones: Mapping[str, Value]
    forbidden: tuple[Exclusion, ...] = ()

    def cells(self) -> Iterator[tuple[str, str, str]]:
        for zone in self.zones:
            for modifier in self.modifiers:
                for base in self.bases:
                    yield modifier, base, zone

    def status(self, cell: tuple[str, str, str]) -> tuple[str, str]:
        """required, or forbidden (the rule and why), for one cell: there is no third kind, every cell
        the rules allow needs a case (issue 14 point 4)."""
        for ex in self.forbidden:
            if ex.covers(cell):
                return FORBIDDEN, f"{ex.rule}: {ex.why}"
        return REQUIRED, ""


def from_document(doc: Mapping[str, Any]) -> Matrix:
    """The matrix of cases/coverage-matrix.yaml; ValueError saying what is wrong."""
    if not isinstance(doc, Mapping) or any(not isinstance(doc.get(d), Mapping) or not doc[d] for d in DIMENSIONS):
        raise ValueError(f"needs the mappings {', '.join(DIMENSIONS)}, each naming at least one value")
    if "not_modelled" in doc:
        raise ValueError("not_modelled: every cell the rules allow needs a case; a cell is forbidden only by a rule")
    dims = {d: {str(name): _value(d, str(name), entry) for name, entry in doc[d].items()} for d in DIMENSIONS}
    matrix = Matrix(dims["modifiers"], dims["bases"], dims["zones"],
                    tuple(_exclusion(e) for e in doc.get("forbidden") or ()))
    for ex in matrix.forbidden:
        for name, values in zip((ex.modifier, ex.base, ex.zone), (matrix.modifiers, matrix.bases, matrix.zones)):
            if name != "*" and name not in values:
                raise ValueError(f"an exclusion names {name!r}, which is not a value of the matrix")
    return matrix


def _value(dimension: str, name: str, entry: Any) -> Value:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("title"), str):
        raise ValueError(f"{dimension}.{name}: needs a title")
    match = entry.get("match")
    if dimension != "zones" and (not isinstance(match, Mapping) or "not_modelled" in entry):
        raise ValueError(f"{dimension}.{name}: needs match (how a case shows it); every value is built by cases")
    return Value(name, entry["title"], tuple(entry.get("rules") or ()), match)


def _exclusion(entry: Any) -> Exclusion:
    keys = ("modifier", "base", "zone", "why", "rule")
    if not isinstance(entry, Mapping) or any(not isinstance(entry.get(k), str) or not entry[k] for k in keys):
        raise ValueError(f"an entry of forbidden needs {', '.join(keys)}: {entry!r}")
    return Exclusion(entry["modifier"], entry["base"], entry["zone"], entry["why"], entry["rule"])


# --- a case's tag against its own data ------------------------------------------------------

def tag_problems(file: str, doc: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                 matrix: Matrix | None) -> list[Problem]:
    """What is wrong with a case's `matrix:` tag, if it has one."""
    tag = doc.get("matrix")
    if tag is None:
        return []
    if matrix is None:
        return [Problem(file, "/matrix", f"the case has a matrix tag but the suite has no {MATRIX_FILE}", None, "matrix")]
    found = _unknown(tag, matrix)
    if not found:
        cell = (tag["modifier"], tag["base"], tag["zone"])
        status, why = matrix.status(cell)
        if status != REQUIRED:
            found.append(f"cell {'/'.join(cell)} is {status.replace('_', ' ')} ({why}); "
                         f"if the case does build it, change {MATRIX_FILE}")
        else:
            found.extend(_against_the_case(doc, tag, cards, matrix))
    return [Problem(file, "/matrix", message, None, "matrix") for message in found]


def _unknown(tag: Mapping[str, Any], matrix: Matrix) -> list[str]:
    pairs = (("modifier", matrix.modifiers), ("base", matrix.bases), ("zone", matrix.zones))
    return [f"{key} {tag[key]!r} is not in {MATRIX_FILE} (known: {', '.join(values)})"
            for key, values in pairs if tag[key] not in values]


def _against_the_case(doc: Mapping[str, Any], tag: Mapping[str, Any], cards: Mapping[str, Mapping[str, Any]],
                      matrix: Matrix) -> list[str]:
    base = matrix.bases[tag["base"]]
    kind = base.match.get("step", "cast")
    steps = doc["steps"]
    index = tag.get("step") or next((i + 1 for i in range(len(steps) - 1, -1, -1) if kind in steps[i]), None)
    if index is None or index > len(steps) or kind not in steps[index - 1]:
        return [f"base {base.name} is shown by a {kind} step, and the case has none " + (
            f"at step {index}" if index else "")]
    step = steps[index - 1][kind]
    objects = {o["id"]: o for o in doc["setup"].get("objects", [])}
    out = _base_problems(base, step, index) if kind == "cast" else []
    out += _zone_problems(tag["zone"], step if kind == "cast" else None, objects, index)
    if not _has_modifier(matrix.modifiers[tag["modifier"]].match, objects, step, cards, kind):
        out.append(f"no permanent on the battlefield (nor the spell itself) has {tag['modifier']}: "
                   f"{json.dumps(dict(matrix.modifiers[tag['modifier']].match))}")
    return out


def _base_problems(base: Value, cast: Mapping[str, Any], index: int) -> list[str]:
    out = []
    for key in CAST_CHOICES:
        actual = cast.get(key)
        if isinstance(actual, list):
            actual = actual[0] if len(actual) == 1 else actual
        if (actual or None) != (base.match.get(key) or None):
            out.append(f"base {base.name} wants {key} {base.match.get(key)!r} at step {index}; the step has {actual!r}")
    return out


def _zone_problems(zone: str, cast: Mapping[str, Any] | None, objects: Mapping[str, Mapping[str, Any]],
                   index: int) -> list[str]:
    if cast is None:
        return [] if any(o["zone"] == zone for o in objects.values()) else [f"no object starts in the {zone}"]
    obj = objects.get(cast["object"])
    where = cast.get("from") or (obj["zone"] if obj else None)
    return [] if where == zone else [f"step {index} casts {cast['object']} from the {where}, not the {zone}"]


def _has_modifier(match: Mapping[str, Any], objects: Mapping[str, Mapping[str, Any]], step: Mapping[str, Any],
                  cards: Mapping[str, Mapping[str, Any]], kind: str) -> bool:
    own = objects.get(step.get("object")) if kind == "cast" else None
    for obj in objects.values():
        if obj["zone"] != "battlefield" and obj is not own:
            continue
        for ability in (cards.get(obj["card"]) or {}).get("abilities") or ():
            if (ability.get("spells") == "self") == (obj is own) and _ability_matches(match, ability):
                return True
    return False


def _ability_matches(match: Mapping[str, Any], ability: Mapping[str, Any]) -> bool:
    for key, wanted in match.items():
        actual = amount_kind(ability.get("amount") or "{1}") if key == "amount" else ability.get(key)
        if actual != wanted:
            return False
    return True


def amount_kind(amount: str) -> str:
    """generic, coloured or colourless: what a modifier's amount is made of (mixed otherwise)."""
    kinds = set()
    for symbol in _SYMBOL.findall(amount):
        if symbol == "C":
            kinds.add("colourless")
        elif re.search(r"[WUBRG]", symbol):
            kinds.add("coloured")
        else:
            kinds.add("generic")
    return kinds.pop() if len(kinds) == 1 else "mixed"


# --- the table ------------------------------------------------------------------------------

def cell_cases(suite) -> dict[tuple[str, str, str], list[str]]:
    out: dict[tuple[str, str, str], list[str]] = {}
    for case in suite.cases:
        tag = case.doc.get("matrix")
        if tag:
            out.setdefault((tag["modifier"], tag["base"], tag["zone"]), []).append(case.id)
    return out


def report(matrix: Matrix, cases: Mapping[tuple[str, str, str], list[str]]) -> list[dict]:
    """Every cell with its status, reason and cases."""
    rows = []
    for cell in matrix.cells():
        status, why = matrix.status(cell)
        rows.append({"modifier": cell[0], "base": cell[1], "zone": cell[2], "status": status, "why": why,
                     "cases": list(cases.get(cell, ()))})
    return rows


def missing(rows: list[dict]) -> list[str]:
    """The cells the rules allow and the format can build that no case fills."""
    return ["/".join((r["modifier"], r["base"], r["zone"])) for r in rows if r["status"] == REQUIRED and not r["cases"]]


def render_text(matrix: Matrix, rows: list[dict]) -> str:
    """One table per zone: modifiers down, bases across; a count, MISSING or - (forbidden)."""
    by_cell = {(r["modifier"], r["base"], r["zone"]): r for r in rows}
    width = max(len(m) for m in matrix.modifiers) + 2
    cols = [max(len(b), 7) + 1 for b in matrix.bases]
    lines = ["Coverage matrix: cost modifier x base cost x zone (count of cases; - forbidden by the rules; "
             "MISSING: allowed, no case)"]
    for zone in matrix.zones:
        lines += ["", f"cast from {zone}:", " " * width + "".join(b.ljust(w) for b, w in zip(matrix.bases, cols))]
        for modifier in matrix.modifiers:
            marks = [_mark(by_cell[(modifier, base, zone)]).ljust(w) for base, w in zip(matrix.bases, cols)]
            lines.append(modifier.ljust(width) + "".join(marks).rstrip())
    lines += ["", "Forbidden by the rules:"] + [f"  {e.modifier}/{e.base}/{e.zone}: {e.rule}: {e.why}" for e in matrix.forbidden]
    gaps = missing(rows)
    lines += ["", f"Cells the rules allow with no case: {len(gaps)}"] + [f"  {g}" for g in gaps]
    return "\n".join(lines)


def _mark(row: dict) -> str:
    if row["status"] == FORBIDDEN:
        return "-"
    return str(len(row["cases"])) if row["cases"] else "MISSING"
