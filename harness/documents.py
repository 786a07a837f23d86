"""Reading YAML and JSON documents, and finding the line of a JSON pointer inside them.

YAML goes only through safe loaders: PyYAML's SafeLoader (its C version when available) is
the reference; for the suite's own files, yaml-rs (a Rust parser that only ever builds plain
data) is tried first because it is about six times faster, and a test checks that both give
the same documents for every shipped file. Any file the fast parser rejects is read again
by PyYAML, whose error (with its line) is the one reported. Lines of JSON pointers are looked
up lazily, only when a problem must be reported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

try:  # optional fast path for the suite's own files; see the module docstring
    import yaml_rs
except ImportError:  # pragma: no cover - exercised where the wheel is unavailable
    yaml_rs = None


class DocumentError(Exception):
    """A file that cannot be read as YAML or JSON."""

    def __init__(self, path: Path, line: int | None, message: str):
        super().__init__(message)
        self.path = path
        self.line = line
        self.message = message


def load_document(path: Path, fast: bool = False) -> Any:
    """Parse a ``.yaml``/``.yml``/``.json`` file; raise DocumentError with the line on failure.

    ``fast`` allows the fast YAML parser (for the suite's own, tested files)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DocumentError(path, None, f"cannot read file: {exc}") from exc
    if fast and yaml_rs is not None and path.suffix != ".json":
        try:
            return yaml_rs.loads(text)
        except Exception:  # noqa: BLE001 - any refusal: the reference parser decides and explains
            pass
    return parse_text(text, path)


def parse_text(text: str, path: Path) -> Any:
    if path.suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise DocumentError(path, exc.lineno, f"invalid JSON: {exc.msg}") from exc
    try:
        return yaml.load(text, Loader=_SafeLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise DocumentError(path, line, f"invalid YAML: {problem}") from exc


def dump_yaml(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


def line_of(path: Path, pointer: str) -> int | None:
    """1-based line of the node a JSON pointer names (its nearest existing ancestor)."""
    try:
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if node is None:
        return None
    parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]] if pointer else []
    for part in parts:
        child = _child(node, part)
        if child is None:
            break
        node = child
    return node.start_mark.line + 1


def _child(node: yaml.Node, part: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == part:
                return value
        return None
    if isinstance(node, yaml.SequenceNode) and part.isdigit():
        index = int(part)
        return node.value[index] if index < len(node.value) else None
    return None
