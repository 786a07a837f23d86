"""Writing a run's report files (Markdown, HTML, badges, JUnit) from its results.

Shared by ``castrules run`` and ``castrules report``; ``targets`` is anything with the
attributes ``markdown``, ``html``, ``badges`` and ``junit`` (paths or None), such as the
parsed command line.
"""

from __future__ import annotations

from typing import Any

from castrules.harness.results import Result


def write_outputs(targets: Any, results: list[Result], engine, suite, truncated: bool = False, details=None) -> None:
    """``details`` (a RunDetails) goes on the HTML page."""
    titles = {n: suite.vocabulary.rule_title(n) for n in {r for res in results for r in res.rules}}
    if getattr(targets, "markdown", None):
        from castrules.harness import report_markdown

        targets.markdown.parent.mkdir(parents=True, exist_ok=True)
        targets.markdown.write_text(report_markdown.render(results, engine.name, engine.version, titles, truncated),
                                    encoding="utf-8")
    if getattr(targets, "html", None):
        from castrules.harness import report_html

        targets.html.parent.mkdir(parents=True, exist_ok=True)
        targets.html.write_text(report_html.render(results, engine.name, engine.version, titles, truncated, details), encoding="utf-8")
    if getattr(targets, "badges", None):
        from castrules.harness.badges import write_badges

        write_badges(results, targets.badges)
    if getattr(targets, "junit", None):
        from castrules.harness.junit import write_junit

        write_junit(results, targets.junit, engine.name)
