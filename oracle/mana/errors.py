"""Errors of the mana layer, carrying data (position, reason code) rather than only prose."""

from __future__ import annotations


class ManaCostError(ValueError):
    """Mana cost text that is not a sequence of mana symbols (107.4).

    ``text`` is the whole text, ``position`` the index where the problem starts (the ``{`` of
    a bad symbol, or the offending character), ``expected`` what would have been accepted
    there and ``found`` what was there instead.
    """

    def __init__(self, text: str, position: int, expected: str, found: str = ""):
        self.text = text
        self.position = position
        self.expected = expected
        self.found = found
        message = f"malformed mana cost {text!r} at position {position}: expected {expected}"
        if found:
            message += f", found {found!r}"
        super().__init__(message)

    def __reduce__(self):  # keep pickling (e.g. by pytest-xdist) working with our signature
        return (type(self), (self.text, self.position, self.expected, self.found))


class ChoiceError(ValueError):
    """A 601.2b announcement that does not fit the cost.

    ``code`` is one of the suite's reason codes: ``invalid_x``, ``invalid_hybrid_choice`` or
    ``invalid_phyrexian_choice``; ``index`` is the position of the bad choice in its list, if
    one choice is to blame.
    """

    CODES = frozenset({"invalid_x", "invalid_hybrid_choice", "invalid_phyrexian_choice"})

    def __init__(self, code: str, message: str, index: int | None = None, rules: tuple[str, ...] = ()):
        if code not in self.CODES:
            raise ValueError(f"unknown choice error code {code!r}")
        self.code = code
        self.index = index
        self.rules = tuple(rules)  # the rules the announcement breaks, kept out of the message
        super().__init__(f"{code}: {message}")

    def __reduce__(self):
        return (_rebuild_choice_error, (self.code, str(self), self.index, self.rules))


def _rebuild_choice_error(code: str, text: str, index: int | None, rules: tuple[str, ...] = ()) -> ChoiceError:
    error = ChoiceError(code, text.split(": ", 1)[-1], index, rules)
    return error


class PoolError(ValueError):
    """Taking more mana out of a mana pool than it holds (118.3)."""
