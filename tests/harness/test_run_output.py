"""What `castrules run` prints: -q one line per unexpected result, the last line, progress, --maxfail."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from castrules.harness.progress import Mode, Progress, choose_mode, last_line, one_line
from castrules.harness.results import Mismatch, Result, Status
from tests.conftest import castrules, good_case

HERE = Path(__file__).resolve().parent
ENGINE = "fake_inprocess_engine:Engine"   # right about ids ending in "bears", wrong otherwise


@pytest.fixture
def wrong_suite(suite_builder):
    b = suite_builder
    b.case("cases/casting/bears.yaml", good_case())
    for n in range(1, 4):
        b.case(f"cases/casting/wrong-{n}.yaml", good_case(f"casting/fixture/wrong-{n}"))
    b.case("cases/prowl/needs-prowl.yaml", good_case("prowl/fixture/needs-prowl", features=["casting", "prowl"]))
    return b




def test_quiet_prints_one_line_per_unexpected_result_and_the_ids_last(wrong_suite):
    done = castrules(wrong_suite, "run", "--engine", ENGINE, "-q")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    # no traces, no tables, no progress marks: three failure lines and the last line
    assert len(lines) == 4, done.stdout
    assert lines[0] == ("FAIL casting/fixture/wrong-1 (cases/casting/wrong-1.yaml): "
                        "after step 1: total_cost: expected {1}{G}, observed {5}")
    assert "explanation" not in done.stdout and "By feature" not in done.stdout
    assert lines[-1] == ("fake-inprocess 1: 5 cases: 1 pass, 3 fail, 1 unsupported; unexpected: "
                         "casting/fixture/wrong-1, casting/fixture/wrong-2, casting/fixture/wrong-3")


def test_the_last_line_of_a_full_run_has_the_counts_and_the_unexpected_ids(wrong_suite):
    done = castrules(wrong_suite, "run", "--engine", ENGINE)
    assert "the oracle's explanation of the case:" in done.stdout   # full descriptions without -q
    assert done.stdout.splitlines()[-1].endswith("; unexpected: casting/fixture/wrong-1, casting/fixture/wrong-2, "
                                                 "casting/fixture/wrong-3")


def test_plain_progress_shows_the_total_when_not_on_a_terminal(wrong_suite):
    done = castrules(wrong_suite, "run", "--engine", ENGINE, "--no-tables")
    assert done.stdout.splitlines()[0] == ".FFFu 5/5"
    assert "\r" not in done.stdout and "ETA" not in done.stdout


def test_maxfail_stops_after_n_unexpected_results_and_says_so(wrong_suite, tmp_path):
    report = tmp_path / "r.jsonl"
    done = castrules(wrong_suite, "run", "--engine", ENGINE, "-q", "--maxfail", "2", "--report", str(report))
    assert done.returncode == 1
    assert done.stdout.splitlines()[-1] == ("fake-inprocess 1: 3 of 5 cases: 1 pass, 2 fail, 2 not run; "
                                            "unexpected: casting/fixture/wrong-1, casting/fixture/wrong-2")
    assert "--maxfail" in done.stderr and "2 case(s) not run" in done.stderr
    footer = json.loads(report.read_text().splitlines()[-1])
    assert footer["type"] == "footer" and footer["ended"] == "maxfail"
    assert castrules(wrong_suite, "run", "--maxfail", "0").returncode == 2


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _result(case_id: str, status: Status) -> Result:
    return Result(case_id, status, f"cases/{case_id}.yaml", ("601.2a",), ("casting",))


def test_terminal_progress_redraws_one_line_with_total_and_eta():
    ticks = iter([0.0, 2.0, 4.0])   # started, after case 1, after case 2
    terminal = FakeTerminal()
    progress = Progress(4, choose_mode(False, False, terminal), terminal, clock=lambda: next(ticks))
    assert progress.mode is Mode.TTY
    progress.update(_result("a", Status.PASS))
    progress.update(_result("b", Status.FAIL))
    progress.finish()
    frames = terminal.getvalue().split("\r")
    assert frames[1].strip() == "[1/4  25%] 0 unexpected, elapsed 0:02, ETA 0:06"
    assert frames[2].strip() == "[2/4  50%] 1 unexpected, elapsed 0:04, ETA 0:04"
    assert terminal.getvalue().endswith("\n")


def test_one_line_and_last_line_stay_short():
    many = [Result(f"c/{n}", Status.FAIL, "f.yaml", mismatches=(Mismatch("after step 1", "legal", True, False),) * 3)
            for n in range(25)]
    assert one_line(many[0]) == "FAIL c/0 (f.yaml): after step 1: legal: expected True, observed False (+2 more)"
    errored = Result("c/e", Status.ERROR, "f.yaml", message="RuntimeError: boom\n  line two\n  line three")
    assert one_line(errored) == "FAIL c/e (f.yaml): RuntimeError: boom".replace("FAIL", "ERROR")
    line = last_line(many, "e", "1")
    assert line.startswith("e 1: 25 cases: 25 fail; unexpected: c/0, c/1,")
    assert line.endswith("c/19 and 5 more (listed above)")
