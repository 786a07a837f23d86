"""Render the HTML report of a run and photograph it in headless Chromium.

A manual check that the static page opens in a browser and shows the rule-by-rule picture;
CI does not need a browser. Usage:

    python scripts/screenshot_report.py [--engine ENGINE] [--out DIR] [--chromium PATH]

Writes DIR/report.html and DIR/report.png, DIR/report-rules.png and DIR/report-failing.png
(the top, the rule-by-rule table and the failing cases).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default="castrules.mutation:PrototypeKeepsNormalColour")
    parser.add_argument("--out", type=Path, default=Path("out/html-check"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    html = (args.out / "report.html").resolve()
    subprocess.run([sys.executable, "-m", "castrules", "run", "-q", "--engine", args.engine, "--html", str(html)], check=False)
    if not html.exists():
        print("no HTML report was written", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as profile:
        for name, anchor in (("report.png", ""), ("report-rules.png", "#by-rule"), ("report-failing.png", "#failing")):
            # headless Chromium photographs the top of a page; an iframe scrolled to the anchor shows the rest
            frame = args.out / f"frame-{name}.html"
            frame.write_text(f'<!doctype html><body style="margin:0"><iframe src="{html.name}{anchor}" '
                             'style="border:0;width:1200px;height:1400px"></iframe></body>', encoding="utf-8")
            shot = (args.out / name).resolve()
            subprocess.run([args.chromium, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={shot}",
                            "--window-size=1200,1400", frame.resolve().as_uri()], check=True, capture_output=True, timeout=120)
            frame.unlink()
            print(f"wrote {shot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
