"""A single static HTML page: the verdict and the unexpected results first, the run's details,
every case filterable by status, feature and rule, compliance by feature and by rule, and every
failing case's diff.

No external assets and no network: the page opens from disk, in CI artifacts or offline. The
filters are a few lines of inline script; without scripts the page shows everything.
"""

from __future__ import annotations

from html import escape
from typing import Iterable

from castrules.harness.results import Result, Status, trace_line
from castrules.harness.run_details import RunDetails
from castrules.harness.textsafe import safe_text
from castrules.harness.summary import NOT_JUDGED, ORDER, by_key, rule_sort_key, totals

_COLORS = {Status.PASS: "#2e7d32", Status.FAIL: "#c62828", Status.ERROR: "#6a1b9a", Status.TIMEOUT: "#6a1b9a",
           Status.UNSUPPORTED: "#757575", Status.SKIPPED: "#757575", Status.KNOWN_FAILURE: "#ef6c00",
           Status.UNEXPECTED_PASS: "#ad1457", Status.NOT_RUN: "#424242"}

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
table{border-collapse:collapse;width:100%}td,th{padding:.25rem .5rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#fafafa}.num{text-align:right}.bar{display:flex;height:10px;width:160px;background:#eee;border-radius:3px;overflow:hidden}
.status{font-weight:600}.case{font-family:ui-monospace,monospace;font-size:12px}
details{margin:.25rem 0}summary{cursor:pointer}pre{background:#f6f8fa;padding:.5rem;overflow:auto;font-size:12px}
.pill{display:inline-block;padding:0 .4rem;border-radius:8px;color:#fff;font-size:11px}
.verdict{font-size:1.1rem;font-weight:600;padding:.5rem .75rem;border-radius:4px;color:#fff}
.details th{width:8rem}#filters{background:#fafafa;padding:.5rem;border:1px solid #eee;margin:.5rem 0}
#filters label{margin-right:1rem}
"""

# Shows only the cases (rows of the case table, failing cases' sections) matching every filter.
_SCRIPT = """
(function(){var f=document.getElementById('filters');if(!f)return;
function has(list,v,prefix){return(' '+list+' ').indexOf(' '+v+(prefix?'':' '))>=0;}
function apply(){var s=f.elements.status.value,ft=f.elements.feature.value,r=f.elements.rule.value.trim(),n=0,all=0;
document.querySelectorAll('[data-status]').forEach(function(e){var ok=(!s||e.dataset.status===s)&&(!ft||has(e.dataset.features,ft))&&(!r||has(e.dataset.rules,r,true));
e.hidden=!ok;if(e.tagName==='TR'){all++;if(ok)n++;}});document.getElementById('shown').textContent=n+' of '+all+' cases shown';}
f.addEventListener('input',apply);f.addEventListener('change',apply);apply();})();
"""


def _pill(status: Status) -> str:
    return f'<span class="pill" style="background:{_COLORS[status]}">{escape(status.value.replace("_", " "))}</span>'


def _bar(counts) -> str:
    total = sum(counts.values()) or 1
    parts = "".join(f'<span style="width:{100 * counts[s] / total:.1f}%;background:{_COLORS[s]}"></span>'
                    for s in ORDER if counts.get(s))
    return f'<div class="bar">{parts}</div>'


def _rate(counts) -> str:
    ran = sum(n for s, n in counts.items() if s not in NOT_JUDGED)
    return f"{100 * counts.get(Status.PASS, 0) / ran:.0f}%" if ran else "–"


def _verdict(results: list[Result], truncated: bool) -> str:
    unexpected = sum(r.status.is_unexpected for r in results)
    if truncated:
        return f'<p class=verdict style="background:{_COLORS[Status.ERROR]}">Incomplete: the run did not finish ({unexpected} unexpected so far)</p>'
    if unexpected:
        return f'<p class=verdict style="background:{_COLORS[Status.FAIL]}">{unexpected} unexpected result(s): the run is red</p>'
    return f'<p class=verdict style="background:{_COLORS[Status.PASS]}">As expected: the run is green</p>'


def _first_difference(r: Result) -> str:
    if r.mismatches:
        return str(r.mismatches[0]) + (f" (+{len(r.mismatches) - 1} more)" if len(r.mismatches) > 1 else "")
    return (r.message.strip().splitlines() or [""])[0]


def _data(r: Result) -> str:
    return (f'data-status="{escape(r.status.value)}" data-features="{escape(" ".join(r.features))}" '
            f'data-rules="{escape(" ".join(r.rules))}"')


def _head(results: list[Result], engine_name: str, engine_version: str, truncated: bool, details: RunDetails | None) -> list[str]:
    counts = totals(results)
    out = [f"<!doctype html><html lang=en><head><meta charset=utf-8><title>castrules: {escape(engine_name)}</title>",
           f"<style>{_CSS}</style></head><body>",
           f"<h1>castrules compliance: {escape(engine_name)} {escape(engine_version)}</h1>", _verdict(results, truncated),
           "<p>" + " ".join(f"{_pill(s)} {counts[s]}" for s in ORDER if counts.get(s)) + f" &nbsp;({len(results)} cases)</p>"]
    unexpected = [r for r in results if r.status.is_unexpected]
    if unexpected:
        out.append(f"<h2 id=unexpected>Unexpected results ({len(unexpected)})</h2><table><tr><th>status</th><th>case</th><th>what differs</th></tr>")
        out += [f'<tr><td>{_pill(r.status)}</td><td><a class=case href="#{escape(r.case_id)}">{escape(r.case_id)}</a></td>'
                f"<td>{escape(_first_difference(r))}</td></tr>" for r in unexpected]
        out.append("</table>")
    if details is not None:
        out.append("<h2 id=run>Run</h2><table class=details>")
        out += [f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in details.rows()]
        out.append("</table>")
    return out


def _filters(results: list[Result]) -> list[str]:
    statuses = [s for s in ORDER if any(r.status is s for r in results)]
    features = sorted({f for r in results for f in r.features})
    rules = sorted({x for r in results for x in r.rules}, key=rule_sort_key)
    options = lambda values: "".join(f"<option>{escape(v)}</option>" for v in values)  # noqa: E731
    return ["<h2 id=cases>Cases</h2><form id=filters onsubmit='return false'>",
            f"<label>status <select name=status><option value=''>any</option>{options(s.value for s in statuses)}</select></label>",
            f"<label>feature <select name=feature><option value=''>any</option>{options(features)}</select></label>",
            f"<label>rule <input name=rule list=rule-list size=10 placeholder='e.g. 702.76'></label>"
            f"<datalist id=rule-list>{options(rules)}</datalist> <span id=shown></span></form>",
            "<table id=case-table><tr><th>status</th><th>case</th><th>rules</th><th>features</th></tr>",
            *(f"<tr {_data(r)}><td>{_pill(r.status)}</td><td class=case>{escape(r.case_id)}</td>"
              f"<td>{escape(', '.join(r.rules))}</td><td>{escape(', '.join(r.features))}</td></tr>" for r in results),
            "</table>"]


def render(results: list[Result], engine_name: str, engine_version: str, rule_titles: dict[str, str],
           truncated: bool = False, details: RunDetails | None = None) -> str:
    out = _head(results, engine_name, engine_version, truncated, details)
    if truncated:
        out.append("<p><strong>This report was cut off: the run did not finish.</strong></p>")
    out += _filters(results)
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
        out.append(f'<details id="{escape(r.case_id)}" {_data(r)}><summary>{_pill(r.status)} <span class=case>{escape(r.case_id)}</span>'
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
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return safe_text("\n".join(out))   # no control character an engine sent reaches the page

