"""An engine project's own regression cases (``--cases DIR``), beside the suite's.

A folder of case files in the suite's format, with an optional ``catalog/`` of the project's
own cards, is loaded with the same schemas and checks as the suite. Its case ids are put in a
namespace of their own, ``local:`` + the id written in the file, so they can never collide
with the suite's ids (today's or a later release's), and its cards may add to the suite's
catalog but never replace one of its cards. The engine receives the namespaced id, so its
logs, the reports and the expectations file all name a local case the same way.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from castrules.harness.cases import Case
from castrules.harness.catalog import Catalog, load_catalog
from castrules.harness.documents import line_of
from castrules.harness.problems import Problem, duplicate_id
from castrules.harness.excerpts import quoted

PREFIX = "local:"
CATALOG = "catalog"
SUFFIXES = (".yaml", ".yml", ".json")

LoadCase = Callable[[Path, str, Catalog, Path], "tuple[Case | None, list[Problem]]"]   # path, name, catalog, root


@dataclass(frozen=True)
class LocalCases:
    cases: tuple[Case, ...]
    catalog: Catalog                  # the suite's cards and the local ones
    problems: tuple[Problem, ...]
    bad_files: frozenset[str]


def check_folders(folders: Iterable[Path]) -> list[Path]:
    """The folders as given, each checked to exist: a misspelt --cases is a usage error."""
    checked = []
    for folder in folders:
        if not Path(folder).is_dir():
            raise ValueError(f"--cases {folder}: no such folder (expected a folder of case files, "
                             f"with an optional {CATALOG}/ of cards)")
        checked.append(Path(folder))
    return checked


def display_name(path: Path, folder: Path) -> str:
    """A local file as problems and reports name it: the folder's name, then the path inside it
    (never the machine's absolute path)."""
    return "/".join((folder.resolve().name, *path.resolve().relative_to(folder.resolve()).parts))


def case_files(folder: Path) -> tuple[list[Path], list[Problem]]:
    """Every case file below ``folder`` (not its catalog/), sorted; links are not followed out of it."""
    root = folder.resolve()
    files: list[Path] = []
    problems: list[Problem] = []
    for here, dirs, names in os.walk(root, followlinks=False):
        if Path(here) == root:
            dirs[:] = [d for d in dirs if d != CATALOG]
        dirs.sort()
        for name in sorted(names):
            path = Path(here) / name
            if path.suffix not in SUFFIXES:
                continue
            if not path.resolve().is_relative_to(root):
                problems.append(Problem(display_name(path.parent, folder) + "/" + name, "",
                                        "a link to a file outside the folder; copy the case into the folder", None, "outside"))
                continue
            files.append(path)
    return files, problems


def merged_catalog(suite_catalog: Catalog, folders: list[Path], schema_root: Path) -> tuple[Catalog, list[Problem]]:
    """The suite's cards plus every folder's catalog/; a local card may not reuse a suite card's name."""
    cards, files = dict(suite_catalog.cards), dict(suite_catalog.files)
    problems: list[Problem] = []
    for folder in folders:
        catalog_dir = folder / CATALOG
        if not catalog_dir.is_dir():
            continue
        local, found = load_catalog(catalog_dir, folder.resolve(), schema_root=schema_root)
        label = folder.resolve().name + "/"
        problems.extend(Problem(label + p.file, p.pointer, p.message, p.line, p.code) for p in found)
        for name, card in local.cards.items():
            where = label + local.files[name]
            if name in cards:
                problems.append(Problem(where, "", f"card {quoted(name)} is already defined in {files[name]}; a local catalog adds "
                                        "cards, it never replaces one (give yours another name)", None, "duplicate_card"))
                continue
            cards[name], files[name] = card, where
    return Catalog(cards, files), problems


def load_local(folders: list[Path], suite_catalog: Catalog, schema_root: Path, load_case: LoadCase) -> LocalCases:
    """Load every folder's cards and cases; ``load_case`` is the suite's own loader (same checks)."""
    catalog, problems = merged_catalog(suite_catalog, folders, schema_root)
    cases: list[Case] = []
    bad: set[str] = set()
    seen: dict[str, str] = {}
    for folder in folders:
        files, found = case_files(folder)
        problems.extend(found)
        for path in files:
            rel = display_name(path, folder)
            case, case_problems = load_case(path, rel, catalog, folder.resolve())
            if case is not None:
                case = namespaced(case)
                if case.id in seen:
                    case_problems.append(duplicate_id(rel, case.id, seen[case.id], line_of(path, "/id")))
                else:
                    seen[case.id] = rel
            if case_problems:
                problems.extend(case_problems)
                bad.add(rel)
            elif case is not None:
                cases.append(case)
    return LocalCases(tuple(cases), catalog, tuple(problems), frozenset(bad))


def namespaced(case: Case) -> Case:
    """The case with its id in the local namespace, in the document the engine receives too."""
    new_id = PREFIX + case.id
    return Case(id=new_id, title=case.title, path=case.path, file=case.file, rules=case.rules,
                features=case.features, doc={**case.doc, "id": new_id})
