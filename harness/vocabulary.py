"""The suite's controlled vocabularies: features, reason codes, rules index, rulings, retired ids.

Each lives in one data file; this module loads them once and answers membership questions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from castrules.harness import paths, schemas
from castrules.harness.contract import Contract
from castrules.harness.matrix import Matrix, from_document as matrix_from_document
from castrules.harness.documents import DocumentError, load_document, read_text
from castrules.harness.problems import Problem


@dataclass(frozen=True)
class Vocabulary:
    features: dict[str, str]            # feature -> description
    reasons: dict[str, dict]            # code -> {substeps, rules, description}
    rules: dict[str, dict]              # rule number -> {title, in_excerpt}
    rulings: dict[str, dict]            # ruling key -> {seed, card, summary}
    retired_ids: frozenset[str]
    problems: tuple[Problem, ...] = ()
    contract: Contract | None = None   # cases/observations.yaml: which feature each observation needs
    matrix: Matrix | None = None       # cases/coverage-matrix.yaml: the coverage matrix's dimensions

    def rule_title(self, number: str) -> str:
        entry = self.rules.get(number)
        return entry["title"] if entry else ""


def _load_optional(path: Path, default, problems: list[Problem], root: Path):
    """A vocabulary file, or ``default`` with a problem recorded when it is broken."""
    if not path.exists():
        return default
    try:
        doc = load_document(path, root=root)
    except DocumentError as exc:
        problems.append(Problem(str(path.relative_to(root)), exc.pointer, exc.message, exc.line, "syntax"))
        return default
    if doc is not None and not isinstance(doc, type(default)):
        problems.append(Problem(str(path.relative_to(root)), "", f"expected a {type(default).__name__}", 1, "schema"))
        return default
    return doc or default


@cache
def load(root: Path | None = None) -> Vocabulary:
    root = root or paths.suite_root()
    cases, schema = root / "cases", root / "schema"
    problems: list[Problem] = []
    features = _load_optional(cases / "features.yaml", {}, problems, root)
    reasons_doc = _load_optional(schema / "reasons.json", {}, problems, root)
    rules_doc = _load_optional(schema / "rules-index.json", {}, problems, root)
    _check_rules_index(rules_doc, schema, problems, root)
    rulings = _load_optional(cases / "rulings.yaml", {}, problems, root)
    contract = _contract(_load_optional(cases / "observations.yaml", {}, problems, root), features, problems)
    matrix = _matrix(_load_optional(cases / "coverage-matrix.yaml", {}, problems, root), problems)
    retired_file = cases / "retired-ids.txt"
    retired: set[str] = set()
    retired_text = ""
    if retired_file.exists():
        try:
            retired_text = read_text(retired_file, root=root)
        except DocumentError as exc:
            problems.append(Problem(str(retired_file.relative_to(root)), "", exc.message, exc.line, "syntax"))
        for line in retired_text.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                retired.add(line)
    return Vocabulary(
        features={str(k): str(v) for k, v in features.items()},
        reasons=dict(reasons_doc.get("reasons", {})),
        rules=dict(rules_doc.get("rules", {})),
        rulings=dict(rulings),
        retired_ids=frozenset(retired),
        problems=tuple(problems),
        contract=contract,
        matrix=matrix,
    )


def _check_rules_index(doc: dict, schema: Path, problems: list[Problem], root: Path) -> None:
    """The rules index against its schema (a rule's status needs its reason), when both are there."""
    if not doc or not (schema / "rules-index.schema.json").exists():
        return
    where = str((schema / "rules-index.json").relative_to(root))
    for pointer, message in schemas.errors("rules-index", doc):
        problems.append(Problem(where, pointer, message, None, "schema"))


def _matrix(doc: dict, problems: list[Problem]) -> Matrix | None:
    """The coverage matrix, or None (with a problem when the file is there but malformed)."""
    if not doc:
        return None
    try:
        return matrix_from_document(doc)
    except ValueError as exc:
        problems.append(Problem("cases/coverage-matrix.yaml", "", str(exc), None, "schema"))
        return None


def _contract(doc: dict, features: dict, problems: list[Problem]) -> Contract | None:
    """The observation contract, every feature it names checked against the vocabulary."""
    if not doc:
        return None
    try:
        contract = Contract.from_document(doc)
    except (ValueError, TypeError, AttributeError) as exc:
        problems.append(Problem("cases/observations.yaml", "", f"not a contract: {exc}", None, "schema"))
        return None
    for feature in sorted(contract.features() - set(features)):
        problems.append(Problem("cases/observations.yaml", "", f"feature {feature!r} is not in cases/features.yaml", None, "unknown_feature"))
    return contract


def reasons_json() -> dict:
    return load_document(paths.schema_dir() / "reasons.json", root=paths.suite_root())
