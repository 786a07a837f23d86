"""Loading the whole suite: cases, catalog and vocabularies, with every problem collected.

``load_suite`` never stops at the first bad file: a case with a problem is left out of the
run and its problems are reported, while every other case still loads.
"""

from __future__ import annotations

import fnmatch
import gc
from functools import cache
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from castrules.harness import paths, schemas
from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog, load_catalog
from castrules.harness.checks import check_case
from castrules.harness.keyword import parse as parse_keyword
from castrules.harness.documents import DocumentError, line_of, parse_document, parse_text, read_text
from castrules.harness.load_cache import CaseCache, text_digest
from castrules.harness.local_cases import check_folders, load_local
from castrules.harness.matrix import tag_problems
from castrules.harness.problems import Problem, duplicate_id
from castrules.harness.vocabulary import Vocabulary, load as load_vocabulary

# Files at the top of cases/ that are data about the suite, not cases.
METADATA_DIRS = {"catalog"}


@dataclass(frozen=True)
class Suite:
    root: Path
    cases: tuple[Case, ...]
    catalog: Catalog
    vocabulary: Vocabulary
    problems: tuple[Problem, ...]
    bad_files: frozenset[str]          # case files left out because of problems

    def by_id(self) -> dict[str, Case]:
        return {c.id: c for c in self.cases}


def case_files(cases_dir: Path) -> list[Path]:
    """Every case file: YAML or JSON under an area folder of cases/, sorted for determinism."""
    files: list[Path] = []
    for area in sorted(p for p in cases_dir.iterdir() if p.is_dir() and p.name not in METADATA_DIRS):
        files.extend(sorted(f for f in area.rglob("*") if f.suffix in (".yaml", ".yml", ".json")))
    return files


def shared_suite(root: Path | None = None, local: Iterable[Path] = ()) -> Suite:
    """The suite loaded once per process, for everything that only reads it (plugin, engines).

    One suite per root and set of local folders, however they are spelt: ``shared_suite()`` and
    ``shared_suite(local=())`` are the same suite (the pytest route with the replay engine used
    to load it twice). The loaded documents live as long as the process and never form cycles,
    so they are moved out of the garbage collector's sight (``gc.freeze``): otherwise every later
    collection walks them again, which the profile showed costing more than loading them. The
    collector's other settings are left alone here (the pytest route loads it in the user's own
    process); a process castrules owns settles them itself (``collector.settle``)."""
    return _shared((root or paths.suite_root()).resolve(), tuple(local))


@cache
def _shared(root: Path, local: tuple[Path, ...]) -> Suite:
    suite = load_suite(root, local=local, cached=True)
    gc.freeze()
    return suite


shared_suite.cache_clear = _shared.cache_clear  # type: ignore[attr-defined]  # as when it was cached itself


def load_suite(root: Path | None = None, extra_files: Iterable[Path] = (), semantic: bool = True,
               local: Iterable[Path] = (), cached: bool = False) -> Suite:
    """The suite, plus the cases of each ``local`` folder (an engine project's own, ``--cases``:
    ids prefixed ``local:``, see harness.local_cases). ``cached``: take the suite's own case files
    checked by an earlier load with the same inputs from the load cache (harness.load_cache);
    ``castrules validate`` never does."""
    root = (root or paths.suite_root()).resolve()
    cache = CaseCache.for_suite(root) if cached and semantic else None
    local = check_folders(local)
    vocabulary = load_vocabulary(root)
    catalog, problems = load_catalog(root / "cases" / "catalog", root)
    problems = [*vocabulary.problems, *problems]
    cases: list[Case] = []
    bad: set[str] = set()
    seen: dict[str, str] = {}
    extra = list(extra_files)
    for path in [*case_files(root / "cases"), *extra]:
        rel = paths.relative(path, root)
        # the suite's files must stay inside it; files named on the command line are the user's
        inside = None if path in extra else root
        case, case_problems = load_case(path, rel, catalog, vocabulary, semantic, inside,
                                        cache=None if path in extra else cache)
        if case is not None:
            if case.id in seen:
                case_problems.append(duplicate_id(rel, case.id, seen[case.id], line_of(path, "/id")))
            elif case.id in vocabulary.retired_ids:
                case_problems.append(Problem(rel, "/id", f"id {case.id!r} is retired (cases/retired-ids.txt) and may not be reused",
                                             line_of(path, "/id"), "retired_id"))
            else:
                seen[case.id] = rel
        if case_problems:
            problems.extend(case_problems)
            bad.add(rel)
        elif case is not None:
            cases.append(case)
    if cache is not None:
        cache.save()
    if local:
        found = load_local(local, catalog, root,
                           lambda path, rel, cards, inside: load_case(path, rel, cards, vocabulary, semantic, inside,
                                                                       invented=False))
        cases.extend(found.cases)
        problems.extend(found.problems)
        bad |= found.bad_files
        catalog = found.catalog
    return Suite(root, tuple(cases), catalog, vocabulary, tuple(problems), frozenset(bad))


def load_case(path: Path, rel: str, catalog: Catalog, vocabulary: Vocabulary,
              semantic: bool = True, root: Path | None = None,
              invented: bool = True, cache: CaseCache | None = None) -> tuple[Case | None, list[Problem]]:
    """One case file, or its problems; ``root`` refuses a file that leads outside the suite;
    ``invented``: check the invented_cards rule (not for an engine project's own cases);
    ``cache``: the file's earlier result for the same text, and where this one is kept."""
    try:
        text = read_text(path, root=root)
    except DocumentError as exc:
        return None, [Problem(rel, exc.pointer, exc.message, exc.line, "syntax")]
    digest = text_digest(text) if cache is not None else ""
    hit = cache.get(rel, digest) if cache is not None else None
    if hit is not None:
        doc, found = hit
        return (_case(doc, path, rel) if doc is not None else None), found
    case, found = _check_text(text, path, rel, catalog, vocabulary, semantic, invented)
    if cache is not None:
        cache.put(rel, digest, case.doc if case is not None else None, found)
    return case, found


def _check_text(text: str, path: Path, rel: str, catalog: Catalog, vocabulary: Vocabulary, semantic: bool,
                invented: bool) -> tuple[Case | None, list[Problem]]:
    try:
        doc = parse_document(text, path, fast=True)
        schema_problems = list(schemas.errors("case", doc))
        if schema_problems:  # the reference parser has the last word on a file that looks wrong
            doc = parse_text(text, path)
            schema_problems = list(schemas.errors("case", doc))
    except DocumentError as exc:
        return None, [Problem(rel, exc.pointer, exc.message, exc.line, "syntax")]
    if schema_problems:
        return None, [_with_line(Problem(rel, pointer, message, None, "schema"), path) for pointer, message in schema_problems]
    case = _case(doc, path, rel)
    if not semantic:
        return case, []
    found = [_with_line(p, path) for p in (*check_case(rel, doc, catalog, vocabulary, invented),
                                            *tag_problems(rel, doc, catalog.cards, vocabulary.matrix))]
    return case, found


def _case(doc: dict, path: Path, rel: str) -> Case:
    return Case(id=doc["id"], title=doc["title"], path=path, file=rel, rules=tuple(doc["rules"]),
                features=tuple(doc["features"]), doc=doc)


def select(cases: Iterable[Case], keyword: str | None = None, include: Iterable[str] = (),
           exclude: Iterable[str] = (), ids: Iterable[str] = ()) -> list[Case]:
    """Cases matching a -k expression, feature filters and explicit ids/globs."""
    include, exclude, ids = set(include), set(exclude), list(ids)
    out = []
    for case in cases:
        if include and not include & set(case.features):
            continue
        if exclude and exclude & set(case.features):
            continue
        if ids and not any(fnmatch.fnmatchcase(case.id, pattern) for pattern in ids):
            continue
        if keyword and not keyword_match(keyword, case):
            continue
        out.append(case)
    return out


def keyword_match(expression: str, case: Case) -> bool:
    """pytest-style -k: substrings of the id, title, file or features with and/or/not
    (``keyword.parse``: bounded, never evaluated as Python)."""
    haystack = " ".join([case.id, case.title, case.file, *case.features, *case.rules]).lower()
    return parse_keyword(expression).matches(haystack)


def _with_line(problem: Problem, path: Path) -> Problem:
    if problem.line is not None:
        return problem
    return Problem(problem.file, problem.pointer, problem.message, line_of(path, problem.pointer), problem.code)

