"""The adapter kit's questions: what does an engine receive for a case, and what does a set of
declared features unlock?

``request_for`` is exactly the request the runner sends (in process, or as the ``request`` of a
protocol ``run`` message). ``plan`` counts, for a declared set of features, the cases it unlocks
(all their features declared), by feature, and which missing features would unlock the most,
alone and one after another.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog
from castrules.harness.contract import ReasonDetail
from castrules.harness.invented import FEATURE as INVENTED
from castrules.harness.suite import Suite


def request_for(case: Case, catalog: Catalog) -> dict:
    """What an engine receives for ``case``: the case without its expectations, its cards, the
    points to observe (the same call the runner makes)."""
    return case.request(catalog.subset(case.card_names()))


def render_request(request: dict, compact: bool) -> str:
    """``compact``: one line, as it travels in a protocol ``run`` message; else indented."""
    if compact:
        return json.dumps(request, separators=(",", ":"), ensure_ascii=True)
    return json.dumps(request, indent=2, ensure_ascii=False)


@dataclass(frozen=True)
class Gain:
    """Adding ``features`` to the declared set unlocks ``cases`` more cases."""

    features: tuple[str, ...]
    cases: int


@dataclass(frozen=True)
class Plan:
    declared: tuple[str, ...]
    unknown: tuple[str, ...]            # declared names that are not features of the suite
    total: int
    unlocked: int
    by_feature: tuple[tuple[str, int, int], ...]   # feature, unlocked cases listing it, cases listing it
    single: tuple[Gain, ...]            # each missing feature alone, most cases first
    path: tuple[Gain, ...]              # greedy: the feature unlocking the most, then the next...
    reasons: ReasonDetail = ReasonDetail.EXACT
    printed_only: int = 0               # cases using printed cards only (not listing invented_cards)
    printed_unlocked: int = 0           # of those, the ones the declared set unlocks without invented_cards

    def to_json(self) -> dict:
        return {"declared": list(self.declared), "unknown": list(self.unknown), "total": self.total,
                "unlocked": self.unlocked, "reasons": self.reasons.value,
                "printed_cards_only": {"cases": self.printed_only, "unlocked": self.printed_unlocked},
                "by_feature": [{"feature": f, "unlocked": u, "cases": n} for f, u, n in self.by_feature],
                "single": [{"feature": g.features[0], "unlocks": g.cases} for g in self.single],
                "path": [{"add": g.features[-1], "unlocks": g.cases} for g in self.path]}


def plan(suite: Suite, declared: Iterable[str], cases: Sequence[Case] | None = None, top: int = 10,
         reasons: ReasonDetail = ReasonDetail.EXACT) -> Plan:
    """What the declared features unlock among ``cases`` (default: the whole suite)."""
    chosen = list(cases if cases is not None else suite.cases)
    known = set(suite.vocabulary.features)
    have = set(declared)
    needs = [frozenset(c.features) for c in chosen]
    unlocked = [n for n in needs if n <= have]
    listing = Counter(f for n in needs for f in n)
    in_unlocked = Counter(f for n in unlocked for f in n)
    by_feature = tuple((f, in_unlocked[f], listing[f]) for f in sorted(have & known, key=lambda f: (-listing[f], f)))
    single = Counter(next(iter(n - have)) for n in needs if len(n - have) == 1)
    singles = tuple(Gain((f,), k) for f, k in sorted(single.items(), key=lambda item: (-item[1], item[0]))[:top])
    printed = [n for n in needs if INVENTED not in n]
    return Plan(tuple(sorted(have)), tuple(sorted(have - known)), len(chosen), len(unlocked), by_feature, singles,
                _greedy(needs, have, top), reasons, len(printed), sum(n <= have - {INVENTED} for n in printed))


def _greedy(needs: list[frozenset[str]], have: set[str], steps: int) -> tuple[Gain, ...]:
    """Add, each time, the missing feature after which the most cases are unlocked."""
    path: list[Gain] = []
    current = set(have)
    added: list[str] = []
    for _ in range(steps):
        base = sum(n <= current for n in needs)
        candidates = {f for n in needs for f in n - current}
        if not candidates:
            break
        best = max(sorted(candidates), key=lambda f: sum(n <= current | {f} for n in needs))
        gain = sum(n <= current | {best} for n in needs) - base
        if gain <= 0:
            break
        current.add(best)
        added.append(best)
        path.append(Gain(tuple(added), gain))
    return tuple(path)


def format_plan(p: Plan) -> str:
    lines = [f"declared: {', '.join(p.declared) or '(nothing)'}"]
    if p.unknown:
        lines.append(f"not features of the suite (ignored): {', '.join(p.unknown)}")
    lines.append(f"unlocks {p.unlocked} of {p.total} cases (every feature they need declared); "
                 f"the other {p.total - p.unlocked} would be unsupported")
    lines.append(f"printed cards only: {p.printed_only} of {p.total} cases ({100 * p.printed_only / max(p.total, 1):.1f}%) use no invented card; an engine that "
                 f"knows only printed cards (leaving {INVENTED} undeclared) and declares the rest of this set "
                 f"runs {p.printed_unlocked} of them")
    if p.reasons is not ReasonDetail.EXACT:
        lines.append(f"illegal steps compared: {p.reasons.describe()}")
    if p.by_feature:
        lines.append("\nby declared feature (cases unlocked / cases listing it):")
        width = max(len(f) for f, _, _ in p.by_feature)
        lines += [f"  {f:<{width}}  {u:>4} / {n}" for f, u, n in p.by_feature]
    if p.single:
        lines.append("\nmissing features that would unlock the most, each alone:")
        width = max(len(g.features[0]) for g in p.single)
        lines += [f"  +{g.features[0]:<{width}}  {g.cases:>4} more case(s)" for g in p.single]
    if p.path:
        lines.append("\nadding them one after another (each time the one unlocking the most):")
        total = p.unlocked
        for g in p.path:
            total += g.cases
            lines.append(f"  +{g.features[-1]:<{max(len(x.features[-1]) for x in p.path)}}  {total:>4} cases (+{g.cases})")
    return "\n".join(lines)
