"""The load cache (harness.load_cache): a cached load gives the suite an uncached load gives,
every changed input is checked again, and the cache never fails or misleads a load."""
from __future__ import annotations

import json
import os

import pytest

from castrules.harness import load_cache, vocabulary
from castrules.harness.suite import load_suite
from conftest import good_case


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("CASTRULES_CACHE_DIR", str(folder))
    monkeypatch.delenv("CASTRULES_NO_CACHE", raising=False)
    return folder


def _same(a, b) -> None:
    assert [(c.id, c.file, c.doc) for c in a.cases] == [(c.id, c.file, c.doc) for c in b.cases]
    assert a.problems == b.problems and a.bad_files == b.bad_files


def _suite(suite_builder):
    suite_builder.case("cases/casting/bears.yaml", good_case())
    suite_builder.case("cases/casting/bad.yaml", good_case("casting/fixture/bad", features=["no_such_feature"]))
    suite_builder.write("cases/casting/broken.yaml", "id: [unclosed\n")
    return suite_builder.root


def test_a_cached_load_is_the_load(suite_builder, cache_folder):
    root = _suite(suite_builder)
    plain = load_suite(root)
    first = load_suite(root, cached=True)
    assert list(cache_folder.glob("suite-*.json"))
    again = load_suite(root, cached=True)
    _same(plain, first)
    _same(plain, again)
    assert len(again.cases) == 1 and len(again.bad_files) == 2


def test_the_real_suite_round_trips(cache_folder):
    plain = load_suite()
    load_suite(cached=True)
    _same(plain, load_suite(cached=True))


def test_a_changed_case_file_is_checked_again(suite_builder, cache_folder):
    root = _suite(suite_builder)
    load_suite(root, cached=True)
    suite_builder.case("cases/casting/bears.yaml", good_case(features=["no_such_feature"]))
    changed = load_suite(root, cached=True)
    assert "cases/casting/bears.yaml" in changed.bad_files
    _same(load_suite(root), changed)


def test_a_changed_catalog_or_vocabulary_checks_every_file_again(suite_builder, cache_folder):
    root = _suite(suite_builder)
    load_suite(root, cached=True)
    features = root / "cases" / "features.yaml"
    features.write_text(features.read_text(encoding="utf-8") + 'no_such_feature: "now it exists"\n', encoding="utf-8")
    vocabulary.load.cache_clear()          # a process reads its vocabularies once
    changed = load_suite(root, cached=True)
    assert "cases/casting/bad.yaml" not in changed.bad_files
    _same(load_suite(root), changed)
    assert len(list(cache_folder.glob("suite-*.json"))) == 2      # one per context


@pytest.mark.parametrize("damage", ["", "{not json", '{"format": 1, "context": "x", "files": {}}', "[1, 2]",
                                    "\x00\xff"])
def test_a_damaged_cache_file_is_ignored(suite_builder, cache_folder, damage):
    root = _suite(suite_builder)
    load_suite(root, cached=True)
    (path,) = cache_folder.glob("suite-*.json")
    path.write_text(damage, encoding="utf-8", errors="surrogateescape")
    _same(load_suite(root), load_suite(root, cached=True))


def test_a_foreign_entry_is_ignored(suite_builder, cache_folder):
    """An entry whose text digest is not the file's is never used; a malformed one neither."""
    root = _suite(suite_builder)
    load_suite(root, cached=True)
    (path,) = cache_folder.glob("suite-*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["files"]["cases/casting/bad.yaml"][0] = "0" * 32
    data["files"]["cases/casting/broken.yaml"] = ["x", None, [{"file": 1}]]
    path.write_text(json.dumps(data), encoding="utf-8")
    _same(load_suite(root), load_suite(root, cached=True))


def test_an_unwritable_cache_folder_is_skipped(suite_builder, tmp_path, monkeypatch):
    root = _suite(suite_builder)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CASTRULES_CACHE_DIR", str(blocker / "cache"))
    _same(load_suite(root), load_suite(root, cached=True))


def test_turned_off_it_writes_nothing(suite_builder, cache_folder, monkeypatch):
    monkeypatch.setenv("CASTRULES_NO_CACHE", "1")
    root = _suite(suite_builder)
    load_suite(root, cached=True)
    assert not cache_folder.exists()


def test_an_uncached_load_never_reads_the_cache(suite_builder, cache_folder):
    """validate's load: a cache claiming a broken file is fine does not hide its problems."""
    root = _suite(suite_builder)
    load_suite(root, cached=True)
    (path,) = cache_folder.glob("suite-*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    good = data["files"]["cases/casting/bears.yaml"]
    data["files"]["cases/casting/bad.yaml"] = [good[0], good[1], []]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert "cases/casting/bad.yaml" in load_suite(root).bad_files


def test_old_context_files_are_pruned(suite_builder, cache_folder):
    root = _suite(suite_builder)
    cache_folder.mkdir()
    for n in range(load_cache.KEEP + 3):
        stale = cache_folder / f"suite-{n:032d}.json"
        stale.write_text("{}")
        os.utime(stale, (1_000_000 + n, 1_000_000 + n))
    load_suite(root, cached=True)
    kept = list(cache_folder.glob("suite-*.json"))
    assert len(kept) == load_cache.KEEP
    assert any(p.stat().st_mtime > 2_000_000 for p in kept)       # this load's own file among them
