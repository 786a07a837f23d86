"""The ``-k`` expression: substrings with ``and``, ``or``, ``not`` and parentheses, like pytest's.

Parsed by a small recursive-descent parser into a tree, never evaluated as Python: the
length, the number of words and the nesting (parentheses and ``not``s) are bounded, so no
expression can exhaust memory or the stack, and a bad one is a ValueError saying where.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

MAX_LENGTH = 1000        # characters
MAX_TOKENS = 200         # words and operators
MAX_DEPTH = 32           # nested parentheses and nots


@dataclass(frozen=True)
class Word:
    text: str

    def matches(self, haystack: str) -> bool:
        return self.text in haystack


@dataclass(frozen=True)
class Not:
    term: "Node"

    def matches(self, haystack: str) -> bool:
        return not self.term.matches(haystack)


@dataclass(frozen=True)
class Both:
    terms: tuple["Node", ...]
    any_of: bool             # or (True) / and (False)

    def matches(self, haystack: str) -> bool:
        check = any if self.any_of else all
        return check(term.matches(haystack) for term in self.terms)


Node = Word | Not | Both
_OPERATORS = {"and", "or", "not", "(", ")"}


@lru_cache(maxsize=64)
def parse(expression: str) -> Node:
    """The tree of a -k expression (lower-cased words), or ValueError naming the problem."""
    if len(expression) > MAX_LENGTH:
        raise ValueError(f"bad -k expression: {len(expression)} characters; at most {MAX_LENGTH}")
    tokens = expression.lower().replace("(", " ( ").replace(")", " ) ").split()
    if not tokens:
        raise ValueError("bad -k expression: it is empty")
    if len(tokens) > MAX_TOKENS:
        raise ValueError(f"bad -k expression: {len(tokens)} words and operators; at most {MAX_TOKENS}")
    parser = _Parser(tokens, expression)
    node = parser.either(0)
    if parser.at < len(tokens):
        raise parser.error(f"unexpected {tokens[parser.at]!r}")
    return node


class _Parser:
    def __init__(self, tokens: list[str], expression: str):
        self.tokens, self.expression, self.at = tokens, expression, 0

    def error(self, what: str) -> ValueError:
        short = self.expression if len(self.expression) <= 60 else self.expression[:57] + "..."
        return ValueError(f"bad -k expression {short!r}: {what} (word {self.at + 1}); "
                          "expected words joined by and, or, not and parentheses")

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def either(self, depth: int) -> Node:
        terms = [self.both(depth)]
        while self.peek() == "or":
            self.at += 1
            terms.append(self.both(depth))
        return terms[0] if len(terms) == 1 else Both(tuple(terms), any_of=True)

    def both(self, depth: int) -> Node:
        terms = [self.unary(depth)]
        while self.peek() == "and":
            self.at += 1
            terms.append(self.unary(depth))
        return terms[0] if len(terms) == 1 else Both(tuple(terms), any_of=False)

    def unary(self, depth: int) -> Node:
        if depth >= MAX_DEPTH:
            raise self.error(f"nested more than {MAX_DEPTH} levels deep")
        token = self.peek()
        if token is None:
            raise self.error("it ends where a word was expected")
        if token == "not":
            self.at += 1
            return Not(self.unary(depth + 1))
        if token == "(":
            self.at += 1
            node = self.either(depth + 1)
            if self.peek() != ")":
                raise self.error("a parenthesis is not closed")
            self.at += 1
            return node
        if token in _OPERATORS:
            raise self.error(f"{token!r} where a word was expected")
        self.at += 1
        return Word(token)
