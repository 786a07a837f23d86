"""A Markdown summary of a run, fit for a CI step summary ($GITHUB_STEP_SUMMARY)."""

from __future__ import annotations

from typing import Iterable

from castrules.harness.results import Result, Status
from castrules.harness.textsafe import safe_text
from castrules.harness.summary import NOT_JUDGED, ORDER, by_key, rule_sort_key, totals


def _pct(counts) -> str:
    ran = sum(n for s, n in counts.items() if s not in NOT_JUDGED)
    return f"{100 * counts.get(Status.PASS, 0) / ran:.0f}%" if ran else "–"


def render(results: list[Result], engine_name: str, engine_version: str, rule_titles: dict[str, str] | None = None,
           truncated: bool = False) -> str:
    rule_titles = rule_titles or {}
    counts = totals(results)
    unexpected = [r for r in results if r.status.is_unexpected]
    verdict = "✅ as expected" if not unexpected else f"❌ {len(unexpected)} unexpected result(s)"
    lines = [f"## castrules: {engine_name} {engine_version}", "",
             f"**{verdict}** — {len(results)} cases: " + ", ".join(f"{counts[s]} {s.value.replace('_', ' ')}" for s in ORDER if counts.get(s)), ""]
    if truncated:
        lines += ["> ⚠️ The report was cut off: the run did not finish.", ""]
    not_run = [r for r in unexpected if r.status is Status.NOT_RUN]
    if not_run:   # summed up in one line, not listed case by case
        lines += [f"> ⚠️ {len(not_run)} case(s) not run: {_cell(not_run[0].message.removeprefix('not run: '))}", ""]
        unexpected = [r for r in unexpected if r.status is not Status.NOT_RUN]
    if unexpected:
        lines += ["### Unexpected results", "", "| case | status | what differs |", "|---|---|---|"]
        for r in unexpected[:100]:
            what = "; ".join(str(m) for m in r.mismatches[:3]) or r.message.splitlines()[0] if (r.mismatches or r.message) else ""
            lines.append(f"| `{r.case_id}` | {r.status.value} | {_cell(what)} |")
        if len(unexpected) > 100:
            lines.append(f"| … | | {len(unexpected) - 100} more |")
        lines.append("")
    lines += _table("By feature", "feature", by_key(results, "features"), sorted)
    lines += _table("By rule", "rule", by_key(results, "rules"), lambda keys: sorted(keys, key=rule_sort_key), rule_titles)
    return safe_text("\n".join(lines) + "\n")   # no control character an engine sent reaches the summary


def _table(title: str, label: str, table: dict, order, titles: dict[str, str] | None = None) -> list[str]:
    columns = [s for s in ORDER if any(c.get(s) for c in table.values())]
    out = [f"<details><summary>{title}</summary>", "", f"| {label} | " + " | ".join(s.value.replace("_", " ") for s in columns) + " | pass |",
           "|---|" + "---:|" * (len(columns) + 1)]
    for key in order(table):
        name = f"{key} {titles[key]}" if titles and titles.get(key) else key
        out.append(f"| {_cell(name)} | " + " | ".join(str(table[key].get(s, 0)) for s in columns) + f" | {_pct(table[key])} |")
    return out + ["", "</details>", ""]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")[:300]
