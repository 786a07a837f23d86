"""Render the HTML report of a run and photograph it in headless Chromium.

A manual check that the static page opens in a browser and shows the rule-by-rule picture;
CI does not need a browser. Usage:

    python scripts/screenshot_report.py [--engine ENGINE] [--out DIR] [--chromium PATH]

Writes DIR/report.html and DIR/report.png (and DIR/report-rules.png, scrolled to the rules).
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
    parser.add_argument("--engine", default="oracle.mutants:PrototypeKeepsNormalColor")
    parser.add_argument("--out", type=Path, default=Path("out/html-check"))
    parser.add_argument("--chromium", default=shutil.which("chromium") or shutil.which("chromium-browser") or "chromium")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    html = (args.out / "report.html").resolve()
    subprocess.run([sys.executable, "-m", "harness", "run", "-q", "--engine", args.engine, "--html", str(html)], check=False)
    if not html.exists():
        print("no HTML report was written", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as profile:
        for name, height in (("report.png", 1400), ("report-full.png", 6000)):
            shot = (args.out / name).resolve()
            subprocess.run([args.chromium, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={shot}",
                            f"--window-size=1200,{height}", html.as_uri()], check=True, capture_output=True, timeout=120)
            print(f"wrote {shot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
