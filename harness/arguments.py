"""The command line's parser: no abbreviations, and errors that say what was meant.

``allow_abbrev`` is off for every (sub)command: a CI line written with ``--engin`` would
otherwise change meaning, or break, the day an option ``--engine-args`` is added. An error
prints the usage of the subcommand it concerns (argparse reports unknown arguments with the
top-level usage), and names the closest command or option (difflib).
"""

from __future__ import annotations

import argparse
import re
from typing import Any, NoReturn, Sequence

from castrules.harness.names import closest

_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)'")


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` for castrules; subparsers made from it are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def parse_args(self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None) -> Any:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            chosen = self._chosen_subparser(parsed) or self
            chosen.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def error(self, message: str) -> NoReturn:
        super().error(message + self._hint(message))

    def _chosen_subparser(self, parsed: argparse.Namespace) -> "Parser | None":
        """The deepest subcommand parser the arguments chose (so its usage is printed)."""
        chosen = None
        parser: argparse.ArgumentParser = self
        while True:
            action = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
            name = getattr(parsed, action.dest, None) if action is not None and action.dest else None
            if action is None or name not in action.choices:
                return chosen
            parser = chosen = action.choices[name]

    def _hint(self, message: str) -> str:
        invalid = _INVALID_CHOICE.search(message)
        if invalid:
            choices = [c for a in self._actions if a.choices for c in a.choices]
            return _did_you_mean(invalid.group(1), choices)
        if message.startswith("unrecognized arguments:"):
            options = [s for a in self._actions for s in a.option_strings]
            unknown = [t.partition("=")[0] for t in message.split(":", 1)[1].split() if t.startswith("-")]
            return "".join(_did_you_mean(u, options, u) for u in unknown)
        return ""


def _did_you_mean(given: str, candidates: Sequence[str], label: str = "") -> str:
    near = closest(given, [str(c) for c in candidates], n=3)
    if not near:
        return ""
    prefix = f"; {label}: " if label else "; "
    return f"{prefix}did you mean {' or '.join(near)}?"
