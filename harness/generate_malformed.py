"""Malformed documents and JSON-ish junk, drawn by hypothesis, for testing how the harness
treats bad files and broken replies."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from castrules.harness.generate_table import chance

_JUNK = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.text(max_size=8),
                  st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _paths(doc: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def malformed(draw, document: dict) -> Any:
    """`document` broken in one to three places: a key removed, a value of the wrong type, an
    unknown reference or card, an unknown key; sometimes replaced whole by junk."""
    import copy

    if chance(draw, 16):
        return draw(_JUNK)
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        action = draw(st.sampled_from(("delete", "junk", "unknown_ref", "unknown_key", "empty")))
        if action == "delete":
            del parent[key]
        elif action == "junk":
            parent[key] = draw(_JUNK)
        elif action == "unknown_ref":
            parent[key] = draw(st.sampled_from(("nosuch", "Z", "Nobody Card", "zz_trigger", "")))
        elif action == "empty":
            parent[key] = type(parent[key])() if isinstance(parent[key], (dict, list, str)) else None
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(("extra", "Expect", "object", "0")))] = draw(_JUNK)
    return doc


JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=6),
              st.sampled_from(("ok", "skipped", "errored", "legal", "{1}{B}", "stack", "gone"))),
    lambda children: st.one_of(st.lists(children, max_size=4),
                               st.dictionaries(st.sampled_from(("status", "steps", "snapshots", "trace", "legal", "reason",
                                                                "total_cost", "players", "objects", "stack", "0", "1",
                                                                "zone", "life", "message", "x")) | st.text(max_size=4),
                                               children, max_size=5)),
    max_leaves=12)
