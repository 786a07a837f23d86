"""Output paths checked before any work starts, and writes that fail later kept apart.

Every command that writes files (``run``, ``report``, ``export``, ``fuzz``) checks its output
paths first, so a typo costs no run: a directory where a file is wanted, a path under a
regular file, or a place that cannot be written is a usage error (exit 2) naming the option
and the path. A missing parent folder is fine when it can be created (it is, on writing).

A write can still fail later (a full disk, a path replaced mid-run): ``OutputFailures``
records which output and why, the other outputs are written all the same, and the command
exits 2 (``EXIT_USAGE``) once it has said so, so CI never takes a missing file for a success.
"""

from __future__ import annotations

import enum
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from castrules.harness.textsafe import safe_text


class OutputKind(enum.Enum):
    """What an option names: a file written whole, or a folder of files (badges, fuzz findings)."""

    FILE = "file"
    FOLDER = "folder"


class OutputPathError(ValueError):
    """An output path that cannot be written; a usage error (the CLI prints it on one line)."""


@dataclass(frozen=True)
class OutputPath:
    """One output a command was asked for: the option as the user typed it, and its path."""

    option: str
    path: Path
    kind: OutputKind = OutputKind.FILE

    def label(self) -> str:
        return f"{self.option} {self.path}"


def _nearest_existing(path: Path) -> Path:
    """The closest ancestor of ``path`` that exists (the current folder at worst)."""
    for parent in path.absolute().parents:
        if os.path.lexists(parent):
            return parent
    return Path("/")


def problem_with(output: OutputPath) -> str | None:
    """Why ``output`` cannot be written, or None; nothing is created or changed."""
    path = output.path
    if str(path) == "":
        return "an empty path"
    if path.exists():
        if output.kind is OutputKind.FILE and path.is_dir():
            return "is a directory, not a file"
        if output.kind is OutputKind.FOLDER and not path.is_dir():
            return "exists and is not a directory"
        if not os.access(path, os.W_OK | (os.X_OK if output.kind is OutputKind.FOLDER else 0)):
            return "is not writable"
        return None
    ancestor = _nearest_existing(path)
    if not ancestor.is_dir():
        return f"is under {ancestor}, which is not a directory"
    if not os.access(ancestor, os.W_OK | os.X_OK) or not _can_create_in(ancestor):
        return f"cannot be created: the directory {ancestor} is not writable"
    return None


def _can_create_in(folder: Path) -> bool:
    """Whether a file can really be made in ``folder`` (permission bits do not bind root, and
    some file systems refuse files whatever the bits say); the probe is an unnamed temporary
    file, so nothing is left behind."""
    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def check_output_paths(outputs: Iterable[OutputPath]) -> None:
    """Raise ``OutputPathError`` for the first output that cannot be written, or for two
    options naming the same path (one would overwrite the other)."""
    seen: dict[Path, OutputPath] = {}
    for output in outputs:
        reason = problem_with(output)
        if reason:
            raise OutputPathError(f"{output.label()}: {reason}")
        key = Path(os.path.abspath(output.path))
        if key in seen and str(output.path) not in ("/dev/null", "/dev/stdout", "/dev/stderr"):
            raise OutputPathError(f"{output.label()}: the same path as {seen[key].option}; give each output its own")
        seen[key] = output


def outputs_of(args: Any, options: Iterable[tuple[str, str, OutputKind]]) -> list[OutputPath]:
    """The outputs given on a parsed command line: ``(attribute, option, kind)`` triples."""
    found = []
    for attribute, option, kind in options:
        value = getattr(args, attribute, None)
        if value is not None:
            found.append(OutputPath(option, Path(value), kind))
    return found


RUN_OUTPUTS = (("report", "--report", OutputKind.FILE), ("markdown", "--markdown", OutputKind.FILE),
               ("html", "--html", OutputKind.FILE), ("badges", "--badges", OutputKind.FOLDER),
               ("junit", "--junit", OutputKind.FILE),
               ("update_expectations", "--update-expectations", OutputKind.FILE))
REPORT_OUTPUTS = (("markdown", "--markdown", OutputKind.FILE), ("html", "--html", OutputKind.FILE),
                  ("badges", "--badges", OutputKind.FOLDER), ("junit", "--junit", OutputKind.FILE),
                  ("json", "--json", OutputKind.FILE), ("jsonl", "--jsonl", OutputKind.FILE))


def describe_os_error(exc: OSError) -> str:
    """An OSError in a few words: its strerror (``No space left on device``), not a traceback."""
    return exc.strerror or type(exc).__name__


@dataclass
class OutputFailures:
    """The outputs that could not be written, each said once on stderr as it happens."""

    failed: list[str] = field(default_factory=list)

    def record(self, label: str, exc: OSError) -> None:
        message = f"castrules: error: could not write {label}: {describe_os_error(exc)}"
        print(safe_text(message), file=sys.stderr)
        self.failed.append(label)

    def attempt(self, label: str, write: Callable[[], object]) -> bool:
        """Run ``write``; an OSError is recorded (the other outputs go on). True on success."""
        try:
            write()
        except OSError as exc:
            self.record(label, exc)
            return False
        return True

    def __bool__(self) -> bool:
        return bool(self.failed)
