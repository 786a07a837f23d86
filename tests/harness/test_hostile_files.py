"""Hostile and broken files: each is a clear problem of that file, on both YAML readers.

Every input here once crashed, hung or blew up a run (issue: faults). Each must now give a
DocumentError naming the place (line or pointer) with a short message, in bounded memory,
while every other file still loads.
"""

from __future__ import annotations

import json
import os
import tracemalloc
from pathlib import Path

import pytest
import yaml

from castrules.harness import documents
from castrules.harness.documents import DocumentError, Limits, json_lines, load_document
from castrules.harness.expectations import ExpectationsError, load_expectations
from castrules.harness.suite import load_suite
from tests.conftest import good_case


def _bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, levels):
        refs = ", ".join([f"*a{n - 1}"] * 10)
        lines.append(f"a{n}: &a{n} [{refs}]")
    return "\n".join(lines) + "\n"


HUGE = "9" * 5000
HOSTILE_YAML = {
    # name: (text, words the message must contain, expected line or None)
    "set": ("id: x\ntags: !!set {a, b}\n", "unsupported tag", 2),
    "binary": ("id: x\nblob: !!binary aGVsbG8=\n", "unsupported tag", 2),
    "unknown tag": ("id: x\nthing: !python/object:os.system ls\n", "unsupported tag", 2),
    "local tag": ("id: x\nthing: !mine value\n", "unsupported tag", 2),
    "explicit timestamp": ("id: x\nwhen: !!timestamp 2024-01-01\n", "unsupported tag", 2),
    "huge integer": (f"id: x\nlife: {HUGE}\n", "integer of", 2),
    "integer beyond 2**53": ("id: x\nlife: 90071992547409930\n", "2**53", 2),
    "nan": ("id: x\nlife: .nan\n", "finite", 2),
    "infinity": ("id: x\nlife: -.inf\n", "finite", 2),
    "duplicate key": ("id: x\ntitle: a\ntitle: b\n", "duplicate key", 3),
    "integer key": ("id: x\n1: one\n", "not a string", 2),
    "collection key": ("id: x\n? [a, b]\n: c\n", "keys are strings", 2),
    "merge key": ("base: &b {a: 1}\nother:\n  <<: *b\n", "merge keys", 3),
    "two documents": ("id: x\n---\nid: y\n", "more than one", 2),
    "alias bomb": (_bomb(), "aliases expand", None),
    "deep flow nesting": ("a: " + "[" * 900 + "]" * 900 + "\n", "nested more than", 1),
    "deep block nesting": ("".join(" " * (2 * i) + "- \n" for i in range(900)), "nested more than", None),
    "deep compact nesting": ("- " * 5000 + "x\n", "nested", 1),
}


@pytest.fixture(params=[True, False], ids=["fast", "reference"])
def fast(request):
    if request.param and documents.yaml_rs is None:
        pytest.skip("yaml-rs is not installed: only the reference reader exists")
    return request.param


@pytest.mark.parametrize("name", sorted(HOSTILE_YAML))
def test_hostile_yaml_is_a_clear_error_on_both_readers(tmp_path, name, fast):
    text, words, line = HOSTILE_YAML[name]
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(DocumentError) as caught:
            load_document(path, fast=fast)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    error = caught.value
    assert words in error.message
    assert len(error.message) < 200 and HUGE not in str(error)
    if line is not None:
        assert error.line == line
    assert error.line is not None or error.pointer
    assert peak < 20 << 20  # the 2.8 GB alias bomb and the deep nestings stay small


def test_dates_stay_the_strings_they_were_written_as(tmp_path, fast):
    path = tmp_path / "case.yaml"
    path.write_text("id: x\nwhen: 2024-01-01\nat: 2024-01-01T10:00:00Z\n", encoding="utf-8")
    assert load_document(path, fast=fast) == {"id": "x", "when": "2024-01-01", "at": "2024-01-01T10:00:00Z"}


def test_plain_yaml_reads_the_same_on_both_readers(tmp_path):
    text = "id: a/b\nn: 3\nneg: -2\nf: 0.5\nok: true\nnone: null\nlist: [1, two, {k: v}]\nquoted: '12'\n"
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    expected = {"id": "a/b", "n": 3, "neg": -2, "f": 0.5, "ok": True, "none": None,
                "list": [1, "two", {"k": "v"}], "quoted": "12"}
    assert load_document(path) == expected
    assert load_document(path, fast=True) == expected


def test_a_small_alias_is_still_read(tmp_path, fast):
    path = tmp_path / "case.yaml"
    path.write_text("a: &x {k: 1}\nb: *x\n", encoding="utf-8")
    assert load_document(path, fast=fast) == {"a": {"k": 1}, "b": {"k": 1}}


HOSTILE_JSON = {
    "duplicate key": ('{"cases": [{"id": "a", "id": "b"}]}', "duplicate key", "/cases/0/id"),
    "huge integer": ('{"n": ' + HUGE + "}", "integer of", "/n"),
    "nan": ('{"n": NaN}', "not a number", "/n"),
    "infinity": ('{"n": [1, -Infinity]}', "not a number", "/n/1"),
    "overflowing float": ('{"n": 1e400}', "not a number", "/n"),
    "deep nesting": ("[" * 100 + "]" * 100, "nested more than", None),
    "very deep nesting": ('{"a": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested more than", None),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_JSON))
def test_hostile_json_names_the_pointer(tmp_path, name):
    text, words, pointer = HOSTILE_JSON[name]
    path = tmp_path / "bundle.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DocumentError) as caught:
        load_document(path, limits=documents.LARGE)
    assert words in caught.value.message and len(caught.value.message) < 200
    if pointer is not None:
        assert caught.value.pointer == pointer


def test_size_limit(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(DocumentError, match="at most 1000 are read"):
        load_document(path, limits=Limits(max_bytes=1000))
    assert load_document(path)["a"] == "x" * 2000


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "case.yaml"
    path.write_bytes(b"id: x\ntitle: \xff\xfe\n")
    with pytest.raises(DocumentError, match="not UTF-8") as caught:
        load_document(path)
    assert caught.value.line == 2


def test_a_fifo_is_refused_without_waiting(tmp_path):
    fifo = tmp_path / "case.yaml"
    os.mkfifo(fifo)
    with pytest.raises(DocumentError, match="not a regular file"):
        load_document(fifo, fast=True)


def test_a_symlink_to_dev_zero_is_refused(tmp_path):
    link = tmp_path / "case.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(DocumentError, match="not a regular file"):
        load_document(link)


def test_a_directory_is_refused(tmp_path):
    folder = tmp_path / "case.yaml"
    folder.mkdir()
    with pytest.raises(DocumentError, match="not a regular file"):
        load_document(folder)


SECRET = "hunter2-very-secret-token"


@pytest.fixture
def hostile_suite(suite_builder, tmp_path):
    b = suite_builder
    b.case("cases/casting/good.yaml", good_case())
    b.write("cases/casting/set.yaml", "id: casting/fixture/set\ntags: !!set {a, b}\n")
    b.write("cases/casting/date.yaml", "id: 2024-01-01\n")
    b.write("cases/casting/huge.yaml", f"id: casting/fixture/huge\nlife: {HUGE}\n")
    b.write("cases/casting/bomb.yaml", _bomb())
    b.write("cases/casting/deep.yaml", "a: " + "[" * 900 + "]" * 900 + "\n")
    os.mkfifo(b.root / "cases" / "casting" / "fifo.yaml")
    (b.root / "cases" / "casting" / "zero.yaml").symlink_to("/dev/zero")
    secret = tmp_path / "secrets.yaml"
    secret.write_text(f"{SECRET}\n", encoding="utf-8")
    (b.root / "cases" / "casting" / "leak.yaml").symlink_to(secret)
    b.case("cases/casting/another.yaml", good_case("casting/fixture/another"))
    return load_suite(b.root)


def test_hostile_files_are_problems_of_their_own_and_the_rest_loads(hostile_suite):
    assert sorted(c.id for c in hostile_suite.cases) == ["casting/fixture/another", "casting/fixture/bears"]
    assert hostile_suite.bad_files == {f"cases/casting/{n}.yaml" for n in
                                       ("set", "date", "huge", "bomb", "deep", "fifo", "zero", "leak")}


def test_a_symlink_out_of_the_suite_is_refused_without_its_contents(hostile_suite):
    [problem] = [p for p in hostile_suite.problems if p.file == "cases/casting/leak.yaml"]
    assert "outside the suite" in problem.message
    assert all(SECRET not in str(p) for p in hostile_suite.problems)


def test_an_expectations_file_with_a_huge_integer_is_a_usage_error(tmp_path):
    path = tmp_path / "expectations.yaml"
    path.write_text(f"cases:\n  casting/a/b: {{status: fail, reason: {HUGE}}}\n", encoding="utf-8")
    with pytest.raises(ExpectationsError, match="integer of") as caught:
        load_expectations(path)
    assert HUGE not in str(caught.value) and ":2:" in str(caught.value)


def test_json_lines_gives_each_bad_line_its_own_error(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text('{"a": 1}\n{"b": NaN}\n' + "[" * 5000 + "\n" + '{"c": 3}\n', encoding="utf-8")
    lines = list(json_lines(path))
    assert [n for n, _ in lines] == [1, 2, 3, 4]
    assert lines[0][1] == {"a": 1} and lines[3][1] == {"c": 3}
    assert isinstance(lines[1][1], DocumentError) and lines[1][1].line == 2
    assert isinstance(lines[2][1], DocumentError) and "nested" in lines[2][1].message


def test_shipped_files_pass_every_limit():
    from castrules.harness import paths
    from castrules.harness.suite import case_files

    files = [*case_files(paths.cases_dir()), *paths.catalog_dir().glob("*.yaml"), *paths.schema_dir().glob("*.json")]
    for path in files:
        assert load_document(path, root=paths.suite_root()) is not None, path


def test_dump_of_loaded_data_round_trips(tmp_path):
    data = {"a": [1, "2024-01-01", None, True], "b": {"c": "d"}}
    path = tmp_path / "x.yaml"
    path.write_text(documents.dump_yaml(data), encoding="utf-8")
    assert load_document(path) == data == yaml.safe_load(json.dumps(data))


def test_validate_on_a_hostile_suite_is_exit_2_without_traceback_or_leak(hostile_suite, suite_builder):
    from tests.harness.test_cli import castrules

    done = castrules(suite_builder, "validate")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr + done.stdout
    assert SECRET not in done.stdout + done.stderr
    assert "cases/casting/leak.yaml: at /: refused: the file leads outside the suite" in done.stdout
    assert "cases/casting/fifo.yaml: at /: not a regular file" in done.stdout
    assert "10 case files" in done.stdout


@pytest.mark.parametrize("depth", [900, 100_000])
def test_validate_bundle_with_deep_nesting_is_a_clear_error(tmp_path, capsys, depth):
    from castrules.harness.cli import main

    path = tmp_path / "suite.json"
    path.write_text('{"format": 1, "cases": ' + "[" * depth + "]" * depth + "}", encoding="utf-8")
    assert main(["validate", "--bundle", str(path)]) == 2
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: at /") and "nested more than 64 levels deep" in out
