"""The suite's JSON Schemas, compiled once per process, resolved only from local files.

Every ``schema/*.schema.json`` is registered under its ``$id``; a ``$ref`` to anything else
fails instead of being fetched over the network.

Two validators, one verdict: jsonschema-rs (compiled, about a hundred times faster) answers
"is this valid?" on the hot path; the pure-Python jsonschema explains what is wrong, with a
pointer for every error, only for documents that fail. Without jsonschema-rs everything
goes through jsonschema, just slower.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Iterator

from typing import TYPE_CHECKING

from castrules.harness import paths
from castrules.harness.excerpts import shorten_quotations
from castrules.harness.problems import pointer_of

if TYPE_CHECKING:  # jsonschema is imported only when a document must be explained (it is slow to import)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

try:  # optional fast path; see the module docstring
    import jsonschema_rs
except ImportError:  # pragma: no cover - exercised where the wheel is unavailable
    jsonschema_rs = None

BASE = "https://castrules.dev/schema/v1/"


def _refuse(uri: str):
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)  # never resolve a reference over the network


@cache
def _documents(schema_root: Path) -> dict[str, dict]:
    from castrules.harness.documents import load_document

    return {file.name.removesuffix(".schema.json"): load_document(file, root=schema_root)
            for file in sorted(schema_root.glob("*.schema.json"))}


@cache
def _registry(schema_root: Path):
    from referencing import Registry, Resource

    schemas = _documents(schema_root)
    registry = Registry(retrieve=_refuse)
    for name, schema in schemas.items():
        registry = registry.with_resource(schema.get("$id", BASE + f"{name}.schema.json"), Resource.from_contents(schema))
    return registry, schemas


@cache
def validator(name: str, schema_root: Path | None = None) -> "Draft202012Validator":
    """The compiled validator for ``schema/<name>.schema.json``."""
    from jsonschema import Draft202012Validator

    registry, schemas = _registry(schema_root or paths.schema_dir())
    if name not in schemas:
        raise KeyError(f"no schema named {name!r} in {schema_root or paths.schema_dir()}")
    schema = schemas[name]
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=registry)


def schema_document(name: str) -> dict:
    return _documents(paths.schema_dir())[name]


def _local_only(uri: str) -> dict:
    """The fast validator's retriever: a suite schema by its $id, never the network."""
    for name, schema in _documents(paths.schema_dir()).items():
        if uri.split("#", 1)[0] == schema.get("$id", BASE + f"{name}.schema.json"):
            return schema
    raise ValueError(f"refusing to fetch schema reference {uri!r}: only local schemas are used")


@cache
def _fast(name: str, definition: str | None = None):
    """A compiled jsonschema-rs validator for a schema (or one of its $defs), or None."""
    if jsonschema_rs is None:
        return None
    schema = _documents(paths.schema_dir())[name]
    if definition is not None:
        schema = {"$schema": schema.get("$schema"), "$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]}
    try:
        return jsonschema_rs.Draft202012Validator(schema, retriever=_local_only)
    except Exception:  # a schema the fast validator cannot compile: fall back to jsonschema
        return None


def is_valid(name: str, instance: Any, definition: str | None = None) -> bool | None:
    """The fast verdict, or None when no fast validator is available."""
    fast = _fast(name, definition)
    return None if fast is None else fast.is_valid(instance)


def errors(name: str, instance: Any) -> Iterator[tuple[str, str]]:
    """(JSON pointer, message) for every way ``instance`` breaks schema ``name``."""
    if is_valid(name, instance):
        return
    v = validator(name)
    for error in sorted(v.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
        yield pointer_of(list(error.absolute_path)), _describe(error)


def _describe(error: "ValidationError") -> str:
    """A short message saying what was expected, using the most specific sub-error."""
    best = error
    if error.context:
        # oneOf/anyOf: the deepest sub-error usually says what the author meant
        best = max(error.context, key=lambda e: len(e.absolute_path))
        if len(best.absolute_path) <= len(error.absolute_path):
            best = error
    message = shorten_quotations(best.message, best.instance)   # the input quoted as a short excerpt
    if len(message) > 300:   # what is left is the schema's own words (a long list of choices)
        message = message[:297] + "..."
    if best.validator == "additionalProperties":
        return f"{message}; check the spelling against the schema"
    return message


@cache
def def_validator(name: str, definition: str) -> "Draft202012Validator":
    """A validator for ``#/$defs/<definition>`` of schema ``name`` (e.g. protocol results)."""
    from jsonschema import Draft202012Validator

    registry, schemas_ = _registry(paths.schema_dir())
    base = schemas_[name].get("$id", BASE + f"{name}.schema.json")
    return Draft202012Validator({"$ref": f"{base}#/$defs/{definition}"}, registry=registry)


def def_errors(name: str, definition: str, instance: Any) -> list[str]:
    if is_valid(name, instance, definition):
        return []
    v = def_validator(name, definition)
    return [f"{pointer_of(list(e.absolute_path)) or '/'}: {_describe(e)}" for e in v.iter_errors(instance)]
