"""Writing a run's report files (Markdown, HTML, badges, JUnit) from its results.

Shared by ``castrules run`` and ``castrules report``; ``targets`` is anything with the
attributes ``markdown``, ``html``, ``badges`` and ``junit`` (paths or None), such as the
parsed command line. A write that fails is recorded in ``failures`` and the others are
still written (see ``harness.output_paths``).
"""

from __future__ import annotations

from typing import Any

from castrules.harness.output_paths import OutputFailures
from castrules.harness.results import Result


def write_outputs(targets: Any, results: list[Result], engine, suite, truncated: bool = False, details=None,
                  failures: OutputFailures | None = None) -> OutputFailures:
    """``details`` (a RunDetails) goes on the HTML page. Returns the failures (``failures``
    extended when given)."""
    failures = failures if failures is not None else OutputFailures()
    titles = {n: suite.vocabulary.rule_title(n) for n in {r for res in results for r in res.rules}}
    if getattr(targets, "markdown", None):
        from castrules.harness import report_markdown

        failures.attempt(f"--markdown {targets.markdown}", lambda: _write_text(
            targets.markdown, report_markdown.render(results, engine.name, engine.version, titles, truncated)))
    if getattr(targets, "html", None):
        from castrules.harness import report_html

        failures.attempt(f"--html {targets.html}", lambda: _write_text(
            targets.html, report_html.render(results, engine.name, engine.version, titles, truncated, details)))
    if getattr(targets, "badges", None):
        from castrules.harness.badges import write_badges

        failures.attempt(f"--badges {targets.badges}", lambda: write_badges(results, targets.badges))
    if getattr(targets, "junit", None):
        from castrules.harness.junit import write_junit

        failures.attempt(f"--junit {targets.junit}", lambda: write_junit(results, targets.junit, engine.name))
    return failures


def _write_text(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
