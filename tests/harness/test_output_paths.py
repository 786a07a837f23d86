"""Output paths under faults (issue: faults, point 6).

Before the run: a path that cannot be written is a usage error (exit 2) with one line naming
the option and the path, and nothing runs. Later (a full disk, a path replaced mid-run): the
JSON-lines report and the other outputs are kept, the failed output is named with the reason,
and the exit status is 2. The commands are called in process: the process boundary is not
what these tests are about.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
import yaml

from castrules.harness import cli
from castrules.harness.cli import main
from castrules.harness.report_jsonl import read_report

SELECTION = ["--id", "casting/additional/*"]
FULL = Path("/dev/full")
needs_dev_full = pytest.mark.skipif(not FULL.exists(), reason="/dev/full (a device that is always full) is Linux's")


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["run", "-q", "--no-tables", *SELECTION, *args])
    out, err = capsys.readouterr()
    return code, out, err


def assert_intact(report: Path) -> None:
    """The JSON-lines report has its header, a line per selected case and its footer."""
    loaded = read_report(report)
    assert loaded.problems == [] and not loaded.truncated
    assert loaded.header["cases"] == len(loaded.cases) > 0
    assert loaded.footer["ended"] == "completed"


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    plain = tmp_path / "a-file"
    plain.write_text("not a folder\n")
    return {"folder": folder, "file": plain, "under-file": plain / "out.txt"}


FILE_OPTIONS = ["--report", "--markdown", "--html", "--junit", "--update-expectations"]


@pytest.mark.parametrize("option", FILE_OPTIONS)
@pytest.mark.parametrize("place, reason", [("folder", "is a directory, not a file"),
                                           ("under-file", "which is not a directory")])
def test_a_file_output_that_cannot_be_a_file_stops_the_run_before_it_starts(capsys, places, option, place, reason):
    path = places[place]
    code, out, err = run(capsys, option, str(path))
    assert code == 2
    assert err.startswith(f"castrules: error: {option} {path}: ") and reason in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert out == ""   # no case ran: no summary line


def test_a_badges_folder_that_is_a_file_stops_the_run_before_it_starts(capsys, places):
    code, out, err = run(capsys, "--badges", str(places["file"]))
    assert code == 2 and out == ""
    assert err.strip() == f"castrules: error: --badges {places['file']}: exists and is not a directory"


def test_two_outputs_on_one_path_are_refused(capsys, tmp_path):
    same = tmp_path / "out.txt"
    code, _, err = run(capsys, "--report", str(same), "--markdown", str(same))
    assert code == 2 and "the same path as --report" in err and not same.exists()


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="permission bits do not bind root (the /proc case covers an unwritable place)")
def test_a_read_only_directory_stops_the_run_before_it_starts(capsys, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        code, out, err = run(capsys, "--junit", str(locked / "sub" / "j.xml"))
    finally:
        locked.chmod(0o755)
    assert code == 2 and out == ""
    assert f"--junit {locked / 'sub' / 'j.xml'}: cannot be created: the directory {locked} is not writable" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_a_place_where_no_file_can_be_created_stops_the_run_before_it_starts(capsys):
    code, out, err = run(capsys, "--markdown", "/proc/castrules/summary.md")
    assert code == 2 and out == ""
    assert err.strip() == "castrules: error: --markdown /proc/castrules/summary.md: cannot be created: the directory /proc is not writable"


def test_a_missing_parent_folder_is_created(capsys, tmp_path):
    report, badges = tmp_path / "new" / "deeper" / "run.jsonl", tmp_path / "new" / "badges"
    code, _, err = run(capsys, "--report", str(report), "--badges", str(badges))
    assert code == 0, err
    assert_intact(report)
    assert (badges / "all.json").is_file()


@needs_dev_full
@pytest.mark.parametrize("option", ["--markdown", "--html", "--junit", "--update-expectations"])
def test_a_full_disk_later_keeps_the_report_and_the_other_outputs(capsys, tmp_path, option):
    report, other = tmp_path / "run.jsonl", tmp_path / "other.xml" if option != "--junit" else tmp_path / "other.md"
    other_option = "--junit" if option != "--junit" else "--markdown"
    code, out, err = run(capsys, "--report", str(report), option, str(FULL), other_option, str(other))
    assert code == 2
    assert f"castrules: error: could not write {option} {FULL}: No space left on device" in err
    assert "Traceback" not in err and "pass" in out   # the summary was still printed
    assert_intact(report)
    assert other.stat().st_size > 0


@needs_dev_full
def test_a_report_on_a_full_disk_leaves_the_run_and_the_other_outputs_alone(capsys, tmp_path):
    markdown = tmp_path / "summary.md"
    code, out, err = run(capsys, "--report", str(FULL), "--markdown", str(markdown))
    assert code == 2
    assert err.count(f"could not write --report {FULL}: No space left on device") == 1   # said once, not per case
    assert "pass" in out and "castrules" in markdown.read_text(encoding="utf-8")


def test_a_path_turned_into_a_directory_mid_run_is_named_and_the_rest_is_kept(capsys, tmp_path, monkeypatch):
    report, html, junit = tmp_path / "run.jsonl", tmp_path / "page.html", tmp_path / "j.xml"
    printed = cli.print_report

    def print_then_break(*args, **kwargs):   # the run is over; the page's path becomes a folder
        printed(*args, **kwargs)
        html.mkdir()

    monkeypatch.setattr(cli, "print_report", print_then_break)
    code, _, err = run(capsys, "--report", str(report), "--html", str(html), "--junit", str(junit))
    assert code == 2
    assert f"castrules: error: could not write --html {html}: Is a directory" in err
    assert_intact(report)
    assert junit.read_text(encoding="utf-8").startswith("<?xml")


@pytest.fixture(scope="module")
def saved_report(tmp_path_factory) -> Path:
    report = tmp_path_factory.mktemp("saved") / "run.jsonl"
    assert main(["run", "-q", *SELECTION, "--report", str(report)]) == 0
    return report


@pytest.mark.parametrize("option", ["--markdown", "--html", "--junit", "--jsonl"])
def test_report_checks_its_outputs_before_reading(capsys, saved_report, places, option):
    assert main(["report", str(saved_report), option, str(places["folder"])]) == 2
    assert capsys.readouterr().err.strip() == f"castrules: error: {option} {places['folder']}: is a directory, not a file"


def test_report_compare_checks_its_outputs(capsys, saved_report, places):
    assert main(["report", "--compare", str(saved_report), str(saved_report), "--json", str(places["under-file"])]) == 2
    assert f"--json {places['under-file']}: is under {places['file']}" in capsys.readouterr().err


@needs_dev_full
def test_report_keeps_the_other_outputs_when_one_fails_later(capsys, saved_report, tmp_path):
    html = tmp_path / "page.html"
    assert main(["report", str(saved_report), "--jsonl", str(FULL), "--html", str(html)]) == 2
    assert f"could not write --jsonl {FULL}: No space left on device" in capsys.readouterr().err
    assert html.read_text(encoding="utf-8").startswith("<!")
    assert_intact(saved_report)


def test_export_and_fuzz_check_their_output_paths_first(capsys, places):
    assert main(["export", "--out", str(places["folder"])]) == 2
    assert capsys.readouterr().err.strip() == f"castrules: error: --out {places['folder']}: is a directory, not a file"
    assert main(["fuzz", "--engine", "oracle", "--examples", "1", "--out", str(places["file"])]) == 2
    assert capsys.readouterr().err.strip() == f"castrules: error: --out {places['file']}: exists and is not a directory"


@needs_dev_full
def test_export_on_a_full_disk_says_so(capsys):
    assert main(["export", "--out", str(FULL)]) == 2
    captured = capsys.readouterr()
    assert f"castrules: error: could not write --out {FULL}: No space left on device" in captured.err
    assert "wrote" not in captured.out


def test_fuzz_whose_out_folder_breaks_during_the_search_prints_the_case_instead(capsys, tmp_path, monkeypatch):
    """The search found a disagreement but --out became a file meanwhile: the exit status says
    something was not written, the message names it, and the minimal case is on stdout."""
    from castrules.harness import fuzz_cli
    from castrules.harness.fuzzing import FuzzReport, Verdict

    out = tmp_path / "found"
    finding = {"id": "generated/fuzz-1", "title": "a case the fake search found",
               "setup": {"players": {"A": {}, "B": {}}, "objects": []}, "steps": [], "expect": []}

    def fake_search(engine, examples, seed, *rest, **kwargs):   # a search that finds, while --out breaks
        out.write_text("now a file", encoding="utf-8")
        return FuzzReport(tried=3, examples=3, compared=3, finding=finding,
                          verdict=Verdict("disagree", message="the engine and the oracle disagree"))

    monkeypatch.setattr(fuzz_cli, "fuzz", fake_search)
    code = main(["fuzz", "--engine", "oracle", "--examples", "3", "--out", str(out), "-q"])
    stdout, stderr = capsys.readouterr()
    assert code == fuzz_cli.EXIT_NOT_WRITTEN
    assert f"could not write --out {out}" in stderr
    assert "the minimal case could not be written, here it is:" in stdout
    printed = yaml.safe_load(stdout.split("here it is:\n", 1)[1].split("\n  the engine", 1)[0])
    assert printed == finding
    assert out.read_text(encoding="utf-8") == "now a file"      # nothing written over it
