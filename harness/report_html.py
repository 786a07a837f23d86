"""A single static HTML page: compliance by feature and by rule, and every failing case's diff.

No scripts and no external assets: the page opens from disk, in CI artifacts or offline.
"""

from __future__ import annotations

from html import escape
from typing import Iterable

from castrules.harness.results import Result, Status, trace_line
from castrules.harness.summary import ORDER, by_key, rule_sort_key, totals

_COLORS = {Status.PASS: "#2e7d32", Status.FAIL: "#c62828", Status.ERROR: "#6a1b9a", Status.TIMEOUT: "#6a1b9a",
           Status.UNSUPPORTED: "#757575", Status.SKIPPED: "#757575", Status.KNOWN_FAILURE: "#ef6c00",
           Status.UNEXPECTED_PASS: "#ad1457"}

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{padding:.25rem .5rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#fafafa}.num{text-align:right}.bar{display:flex;height:10px;width:160px;background:#eee;border-radius:3px;overflow:hidden}
.status{font-weight:600}.case{font-family:ui-monospace,monospace;font-size:12px}
details{margin:.25rem 0}summary{cursor:pointer}pre{background:#f6f8fa;padding:.5rem;overflow:auto;font-size:12px}
.pill{display:inline-block;padding:0 .4rem;border-radius:8px;color:#fff;font-size:11px}
"""


def _pill(status: Status) -> str:
    return f'<span class="pill" style="background:{_COLORS[status]}">{escape(status.value.replace("_", " "))}</span>'


def _bar(counts) -> str:
    total = sum(counts.values()) or 1
    parts = "".join(f'<span style="width:{100 * counts[s] / total:.1f}%;background:{_COLORS[s]}"></span>'
                    for s in ORDER if counts.get(s))
    return f'<div class="bar">{parts}</div>'


def _rate(counts) -> str:
    ran = sum(n for s, n in counts.items() if s not in (Status.UNSUPPORTED, Status.SKIPPED))
    return f"{100 * counts.get(Status.PASS, 0) / ran:.0f}%" if ran else "–"


def render(results: list[Result], engine_name: str, engine_version: str, rule_titles: dict[str, str],
           truncated: bool = False) -> str:
    counts = totals(results)
    out = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>castrules: {escape(engine_name)}</title>",
           f"<style>{_CSS}</style></head><body>",
           f"<h1>castrules compliance: {escape(engine_name)} {escape(engine_version)}</h1>",
           "<p>" + " ".join(f"{_pill(s)} {counts[s]}" for s in ORDER if counts.get(s)) + f" &nbsp;({len(results)} cases)</p>"]
    if truncated:
        out.append("<p><strong>This report was cut off: the run did not finish.</strong></p>")
    out.append("<h2 id=by-feature>By feature</h2><table><tr><th>feature</th><th>cases</th><th>passing</th><th></th></tr>")
    for feature, c in sorted(by_key(results, "features").items()):
        out.append(f"<tr><td>{escape(feature)}</td><td class=num>{sum(c.values())}</td><td class=num>{_rate(c)}</td><td>{_bar(c)}</td></tr>")
    out.append("</table>")

    out.append("<h2 id=by-rule>By rule</h2><table><tr><th>rule</th><th>cases</th><th>passing</th><th></th></tr>")
    per_rule: dict[str, list[Result]] = {}
    for r in results:
        for rule in r.rules:
            per_rule.setdefault(rule, []).append(r)
    for rule in sorted(per_rule, key=rule_sort_key):
        rs = per_rule[rule]
        c = totals(rs)
        items = "".join(f'<li>{_pill(r.status)} <a class=case href="#{escape(r.case_id)}">{escape(r.case_id)}</a></li>'
                        if r.status.is_unexpected or r.status is Status.KNOWN_FAILURE
                        else f'<li>{_pill(r.status)} <span class=case>{escape(r.case_id)}</span></li>' for r in rs)
        title = escape(rule_titles.get(rule, ""))
        opened = " open" if any(r.status.is_unexpected for r in rs) else ""  # where it fails, show the cases
        out.append(f"<tr><td><details{opened}><summary><strong>{escape(rule)}</strong> {title}</summary><ul>{items}</ul></details></td>"
                   f"<td class=num>{len(rs)}</td><td class=num>{_rate(c)}</td><td>{_bar(c)}</td></tr>")
    out.append("</table>")

    failing = [r for r in results if r.status.is_unexpected or r.status is Status.KNOWN_FAILURE]
    out.append(f"<h2 id=failing>Failing cases ({len(failing)})</h2>")
    for r in failing:
        diff = "\n".join(str(m) for m in r.mismatches)
        out.append(f'<details id="{escape(r.case_id)}"><summary>{_pill(r.status)} <span class=case>{escape(r.case_id)}</span>'
                   f" — rules {escape(', '.join(r.rules))}</summary><p>file <code>{escape(r.file)}</code></p>")
        if diff:
            out.append(f"<p>Expected against observed:</p><pre>{escape(diff)}</pre>")
        if r.message:
            out.append(f"<pre>{escape(r.message)}</pre>")
        if r.trace:
            trace = "\n".join(trace_line(t) for t in r.trace)
            out.append(f"<p>Engine's explanation:</p><pre>{escape(trace)}</pre>")
        if r.oracle_trace:
            trace = "\n".join(trace_line(t) for t in r.oracle_trace)
            out.append(f"<p>The oracle's explanation of the case:</p><pre>{escape(trace)}</pre>")
        if r.diagnostics:
            out.append(f"<p>Diagnostics:</p><pre>{escape(r.diagnostics)}</pre>")
        out.append("</details>")
    out.append("</body></html>")
    return "\n".join(out)

