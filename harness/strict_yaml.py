"""The reference YAML reader: PyYAML's (C) event parser, with the data built here, bounded.

PyYAML's own constructors accept sets, timestamps, binaries and merge keys, recurse (so deep
nesting overflows the stack) and expand aliases without limit. Building the data from the
parser's events with an explicit stack avoids all of that: only JSON types are made, nesting
and alias expansion are capped (``plain_data.Limits``), duplicate and non-string keys are
refused, and every refusal names its line and JSON pointer.

Choices: a plain scalar that YAML 1.1 would read as a timestamp stays the string it was
written as (as the fast parser reads it); an explicit tag other than the JSON ones
(``!!str``, ``!!int``, ``!!float``, ``!!bool``, ``!!null``, ``!!seq``, ``!!map``) is an error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml import events

from castrules.harness.plain_data import DEFAULT, Limits, excerpt
from castrules.harness.problems import pointer_of

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_RESOLVER = yaml.resolver.Resolver()
_CONSTRUCT = yaml.constructor.SafeConstructor()
_Y = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_Y + "str", _Y + "int", _Y + "float", _Y + "bool", _Y + "null", _Y + "timestamp"}
_COLLECTION_TAGS = {None, "!", _Y + "seq", _Y + "map"}


class YamlRefused(Exception):
    """A document outside what castrules reads; ``line`` is 1-based, ``pointer`` RFC 6901."""

    def __init__(self, line: int | None, pointer: str, message: str):
        super().__init__(message)
        self.line, self.pointer, self.message = line, pointer, message


@dataclass
class _Frame:
    container: Any                      # dict or list being filled
    anchor: str | None
    nodes: int = 1                      # nodes under this one, aliases expanded
    key: Any = None                     # a mapping's pending key
    has_key: bool = False


@dataclass
class _Builder:
    limits: Limits
    stack: list[_Frame] = field(default_factory=list)
    anchors: dict[str, tuple[Any, int]] = field(default_factory=dict)
    alias_nodes: int = 0
    result: Any = None
    documents: int = 0

    def refuse(self, event: events.Event, message: str) -> YamlRefused:
        line = event.start_mark.line + 1 if event.start_mark is not None else None
        return YamlRefused(line, self.pointer(), message)

    def pointer(self) -> str:
        parts: list[Any] = []
        for frame in self.stack:
            if isinstance(frame.container, list):
                parts.append(len(frame.container))
            elif frame.has_key:
                parts.append(frame.key)
        return pointer_of(parts)

    def feed(self, event: events.Event) -> None:
        if isinstance(event, events.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.refuse(event, "more than one YAML document in the file; a file holds one")
        elif isinstance(event, events.ScalarEvent):
            self.add(event, self.scalar(event), 1)
        elif isinstance(event, events.AliasEvent):
            if event.anchor not in self.anchors:
                raise self.refuse(event, f"alias *{excerpt(event.anchor)} to an anchor not yet defined")
            value, nodes = self.anchors[event.anchor]
            self.alias_nodes += nodes
            if self.alias_nodes > self.limits.max_alias_nodes:
                raise self.refuse(event, f"aliases expand to more than {self.limits.max_alias_nodes} nodes")
            self.add(event, value, nodes)
        elif isinstance(event, (events.SequenceStartEvent, events.MappingStartEvent)):
            self.open(event)
        elif isinstance(event, (events.SequenceEndEvent, events.MappingEndEvent)):
            frame = self.stack.pop()
            self.add(event, frame.container, frame.nodes, frame.anchor)

    def open(self, event: events.CollectionStartEvent) -> None:
        if event.tag not in _COLLECTION_TAGS:
            raise self.refuse(event, f"unsupported tag {excerpt(event.tag)}; only JSON types are read")
        if self.stack and isinstance(self.stack[-1].container, dict) and not self.stack[-1].has_key:
            raise self.refuse(event, "a mapping key that is a collection; keys are strings")
        if len(self.stack) >= self.limits.max_depth:
            raise self.refuse(event, f"nested more than {self.limits.max_depth} levels deep")
        container: Any = {} if isinstance(event, events.MappingStartEvent) else []
        self.stack.append(_Frame(container, event.anchor))

    def add(self, event: events.Event, value: Any, nodes: int, anchor: str | None = None) -> None:
        anchor = anchor if anchor is not None else getattr(event, "anchor", None)
        if anchor is not None and not isinstance(event, events.AliasEvent):
            self.anchors[anchor] = (value, nodes)
        if not self.stack:
            self.result = value
            return
        frame = self.stack[-1]
        frame.nodes += nodes
        if isinstance(frame.container, list):
            frame.container.append(value)
        elif not frame.has_key:
            if not isinstance(value, str):
                raise self.refuse(event, f"a mapping key that is not a string ({excerpt(value)}); keys are strings")
            if value in frame.container:
                frame.key, frame.has_key = value, True
                raise self.refuse(event, f"duplicate key {excerpt(value)}; each key appears once")
            frame.key, frame.has_key = value, True
        else:
            frame.container[frame.key] = value
            frame.has_key = False

    def scalar(self, event: events.ScalarEvent) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        elif tag == _Y + "timestamp":  # only a plain scalar that looks like a date is kept (a string)
            tag = "!!timestamp"
        if tag == _Y + "merge":
            raise self.refuse(event, "merge keys (<<) are not supported; write the keys out")
        if tag not in _SCALAR_TAGS:
            raise self.refuse(event, f"unsupported tag {excerpt(tag)}; only JSON types are read")
        text = event.value
        if tag in (_Y + "str", _Y + "timestamp"):
            return text
        if tag == _Y + "int" and len(text.lstrip("+-").replace("_", "")) > self.limits.max_int_chars:
            raise self.refuse(event, f"an integer of {len(text)} characters ({excerpt(text, 20)}); numbers here are small")
        try:
            value = _CONSTRUCT.yaml_constructors[tag](_CONSTRUCT, yaml.ScalarNode(tag, text))
        except (yaml.YAMLError, ValueError) as exc:
            raise self.refuse(event, f"{excerpt(text, 20)} is not a valid {tag.rsplit(':', 1)[-1]}: {exc}") from exc
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int) and not -self.limits.max_int <= value <= self.limits.max_int:
            raise self.refuse(event, f"an integer beyond ±2**53 ({excerpt(text, 20)})")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.refuse(event, f"{excerpt(text, 20)} is not a finite number; JSON has no NaN or infinity")
        return value


def load_yaml(text: str, limits: Limits = DEFAULT) -> Any:
    """The one document in ``text`` as JSON data; YamlRefused or yaml.YAMLError otherwise."""
    loader = _Loader(text)
    builder = _Builder(limits)
    try:
        while loader.check_event():
            builder.feed(loader.get_event())
    finally:
        loader.dispose()
    return builder.result
