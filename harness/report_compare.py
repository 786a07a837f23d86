"""A comparison of two runs for people and machines: terminal text, Markdown, HTML and JSON.

Regressions come first in every format, because they are what a reviewer of an engine's
change has to act on; fixes next (the expectations file may need updating), then the rest.
"""

from __future__ import annotations

import json
from html import escape

from castrules.harness.report_merge import Change, Comparison, Moved

SECTIONS = [(Change.REGRESSION, "Regressions (passed before, fail now)"),
            (Change.FIX, "Fixes (failed before, pass now)"),
            (Change.CHANGED, "Failing differently"),
            (Change.NEWLY_RUN, "Newly run (unsupported or skipped before)"),
            (Change.NO_LONGER_RUN, "No longer run (unsupported or skipped now)"),
            (Change.ADDED, "Only in the new run"),
            (Change.REMOVED, "Only in the old run")]


def _who(header: dict) -> str:
    engine = header.get("engine", {})
    return f"{engine.get('name', '?')} {engine.get('version', '?')} (suite {header.get('suite_version', '?')})"


def headline(comparison: Comparison) -> str:
    counts = ", ".join(f"{change.value.replace('_', ' ')}: {len(comparison.of(change))}"
                       for change, _ in SECTIONS if comparison.of(change)) or "no changes"
    return f"{_who(comparison.old)} -> {_who(comparison.new)}: {counts}; {comparison.unchanged} unchanged"


def _status(moved: Moved) -> str:
    old = moved.old.value if moved.old else "-"
    new = moved.new.value if moved.new else "-"
    return f"{old} -> {new}"


def render_text(comparison: Comparison) -> str:
    lines = []
    for change, title in SECTIONS:
        moved = comparison.of(change)
        if moved:
            lines.append(f"{title}: {len(moved)}")
            for m in moved:
                detail = f": {' '.join(m.detail.split())}" if m.detail and change in (Change.REGRESSION, Change.CHANGED) else ""
                lines.append(f"  {m.case_id}  {_status(m)}{detail}")
    lines.extend(f"note: {note}" for note in comparison.notes)
    lines.append(headline(comparison))
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")[:300]


def render_markdown(comparison: Comparison) -> str:
    verdict = "❌ regressions" if comparison.of(Change.REGRESSION) else "✅ no regressions"
    lines = ["## castrules: comparison of two runs", "", f"**{verdict}**: {_cell(headline(comparison))}", ""]
    lines.extend(f"> {_cell(note)}" for note in comparison.notes)
    for change, title in SECTIONS:
        moved = comparison.of(change)
        if moved:
            lines += [f"### {title}: {len(moved)}", "", "| case | before → now | detail |", "|---|---|---|"]
            lines += [f"| `{m.case_id}` | {_status(m)} | {_cell(m.detail)} |" for m in moved]
            lines.append("")
    return "\n".join(lines) + "\n"


def render_html(comparison: Comparison) -> str:
    verdict = "Regressions" if comparison.of(Change.REGRESSION) else "No regressions"
    out = ["<!doctype html><html lang=en><head><meta charset=utf-8><title>castrules: comparison</title>",
           "<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem}"
           "td,th{padding:.25rem .5rem;border-bottom:1px solid #eee;text-align:left}table{border-collapse:collapse}"
           ".case{font-family:ui-monospace,monospace;font-size:12px}</style></head><body>",
           f"<h1>castrules comparison: {escape(verdict)}</h1>", f"<p>{escape(headline(comparison))}</p>"]
    out.extend(f"<p><em>{escape(note)}</em></p>" for note in comparison.notes)
    for change, title in SECTIONS:
        moved = comparison.of(change)
        if moved:
            out.append(f"<h2 id={change.value}>{escape(title)}: {len(moved)}</h2><table>"
                       "<tr><th>case</th><th>before → now</th><th>detail</th></tr>")
            out += [f"<tr><td class=case>{escape(m.case_id)}</td><td>{escape(_status(m))}</td><td>{escape(m.detail)}</td></tr>"
                    for m in moved]
            out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _run(header: dict) -> dict:
    engine = header.get("engine", {})
    return {"engine": engine.get("name"), "version": engine.get("version"), "suite_version": header.get("suite_version"),
            "started": header.get("started")}


def render_json(comparison: Comparison) -> str:
    data = {"old": _run(comparison.old), "new": _run(comparison.new),
            "unchanged": comparison.unchanged, "notes": list(comparison.notes),
            "regressions": len(comparison.of(Change.REGRESSION)), "fixes": len(comparison.of(Change.FIX)),
            "changes": {change.value: [m.to_json() for m in comparison.of(change)] for change, _ in SECTIONS}}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
