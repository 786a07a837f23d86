"""The explanation trace: every decision with the rules behind it.

Rule numbers are values (`RuleNumber`), carried by each line in its own field, never written
into the note: a test checks every number the oracle cites against the rules index.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Iterable, Union

_RULE = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")


@dataclass(frozen=True, order=True)
class RuleNumber:
    """A Comprehensive Rules number: a section ("103"), a rule ("601.2") or a subrule ("601.2f")."""

    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.text, str) or not _RULE.fullmatch(self.text):
            raise ValueError(f"not a rule number: {self.text!r} (expected e.g. 601.2f)")

    def __str__(self) -> str:
        return self.text


Rules = Union[str, RuleNumber, Iterable[Union[str, RuleNumber]]]


def rule_numbers(rules: Rules) -> tuple[RuleNumber, ...]:
    """One or several rule numbers, as given ("601.2f", a RuleNumber, or a sequence of them;
    a string may list several separated by commas), without repeats, in order."""
    if type(rules) is str:
        return _from_text(rules)
    if isinstance(rules, str):
        return _from_texts((rules,))
    if type(rules) is tuple:
        for r in rules:         # a loop, not all(generator): ~20,000 lines a pass over the suite
            if type(r) is not str:
                return _numbers(rules)
        return _from_texts(rules)
    return _numbers(rules)


@functools.lru_cache(maxsize=4096)
def _from_text(text: str) -> tuple[RuleNumber, ...]:
    """``_from_texts`` of one text, keyed by the text alone (most lines cite one)."""
    return _numbers((text,))


@functools.lru_cache(maxsize=4096)
def _from_texts(texts: tuple[str, ...]) -> tuple[RuleNumber, ...]:
    """``_numbers`` of rules given as text: the oracle cites the same few hundred texts over and
    over (a pure function of immutable strings; errors are raised anew, never cached)."""
    return _numbers(texts)


def _numbers(rules: Rules) -> tuple[RuleNumber, ...]:
    if isinstance(rules, (str, RuleNumber)):
        rules = (rules,)
    out: list[RuleNumber] = []
    for r in rules:
        for one in (r.split(",") if isinstance(r, str) else (r,)):
            number = one if isinstance(one, RuleNumber) else RuleNumber(one.strip())
            if number not in out:
                out.append(number)
    if not out:
        raise ValueError("a trace line needs at least one rule number")
    return tuple(out)


@dataclass(frozen=True)
class TraceLine:
    step: int
    rules: tuple[RuleNumber, ...]
    note: str

    @property
    def rule(self) -> RuleNumber:
        """The rule that decided (the first cited)."""
        return self.rules[0]

    def as_dict(self) -> dict:
        rules = self.rules
        hit = _TEXTS.get(id(rules))     # _texts' lookup inline: every line of every reply comes here
        texts = hit[1] if hit is not None and hit[0] is rules else _texts(rules)
        return {"step": self.step, "rule": texts[0], "rules": list(texts), "note": self.note}


def _texts(rules: tuple[RuleNumber, ...]) -> tuple[str, ...]:
    """The rule numbers' texts, kept by the tuple's identity: lines cite the same few hundred
    tuples (``_from_texts``'s), and a RuleNumber hashes in Python code."""
    hit = _TEXTS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    texts = tuple(r.text for r in rules)
    if len(_TEXTS) >= 4096:
        _TEXTS.clear()
    _TEXTS[id(rules)] = (rules, texts)      # the tuple kept alive by its entry: its id stays its own
    return texts


_TEXTS: dict[int, tuple[tuple[RuleNumber, ...], tuple[str, ...]]] = {}


@dataclass
class Trace:
    """Collects trace lines for the step being run (`step` is 0 for the setup)."""

    step: int = 0
    lines: list[TraceLine] = field(default_factory=list)

    def add(self, rules: Rules, note: str) -> None:
        # TraceLine(step, rules, note) without its frozen __init__'s object.__setattr__ per field
        # (some 20,000 lines a pass over the suite); TraceLine has no __post_init__ to skip
        line = _new(TraceLine)      # (a single text, as most lines cite, straight to its cache)
        numbers = _from_text(rules) if type(rules) is str else rule_numbers(rules)
        _setattr(line, "__dict__", {"step": self.step, "rules": numbers, "note": note})
        self.lines.append(line)


_new, _setattr = object.__new__, object.__setattr__


def explain_lines(trace: list[dict]) -> list[str]:
    """A human trace, one line per decision, grouped by step."""
    out: list[str] = []
    current = None
    for line in trace:
        if line["step"] != current:
            current = line["step"]
            out.append("setup:" if current == 0 else f"step {current}:")
        cited = ", ".join(line.get("rules") or [line["rule"]])
        out.append(f"  [{cited}] {line['note']}")
    return out
