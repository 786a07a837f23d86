"""A cache of the suite's checked case files, so a run that loads an unchanged suite skips
parsing and checking them again (issue 16: the pytest route's cost per item).

Parsing and checking 1,500 case files costs a run about a third of a second, which pytest's
own cost per empty item (about 0.3 ms) makes the largest part of the pytest route's cost. The
result of checking a file depends only on its text and on its context: the schemas, the
catalog, the vocabularies and the checking code. So each file's document and problems are kept
under the digest of its text, in one JSON file per context (a digest of all of those files),
the way Python keeps bytecode: the next load with the same context takes every file whose text
is unchanged from it and checks only the others.

What the cache may never do is break or mislead a run:
- Reading or writing it never fails a load: a missing, unreadable, damaged or foreign cache file
  is ignored and the files are checked as without it; a cache that cannot be written is skipped.
- It holds plain JSON data, never code, and its entries are used only under the same context
  digest and the same text digest, so a change to any input checks the files again.
- ``castrules validate`` does not use it: the authoritative check reads and checks everything.
- ``CASTRULES_NO_CACHE=1`` turns it off; ``CASTRULES_CACHE_DIR`` moves it (default: the user's
  cache folder, ``$XDG_CACHE_HOME/castrules`` or ``~/.cache/castrules``).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from castrules.harness import __version__
from castrules.harness.problems import Problem

FORMAT = 1
KEEP = 8               # context files kept in the folder (several checkouts or versions side by side)
_MAX_BYTES = 64 << 20  # a cache file larger than this is not read


def cache_dir() -> Path | None:
    """Where cache files go, or None when turned off."""
    if os.environ.get("CASTRULES_NO_CACHE", "") not in ("", "0"):
        return None
    given = os.environ.get("CASTRULES_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "castrules"


def context_digest(root: Path) -> str:
    """A digest of everything a case file's checks read besides the file itself: the suite's
    schemas, catalog and vocabularies (every file under schema/, cases/catalog/ and at the top
    of cases/), and the checking code (castrules' harness and model sources), with the version."""
    import castrules.harness
    import castrules.model
    digest = hashlib.blake2b(f"{FORMAT} {__version__} {root}".encode(), digest_size=20)
    cases = root / "cases"
    groups = [sorted((root / "schema").rglob("*")), sorted((cases / "catalog").rglob("*")),
              sorted(cases.glob("*")),
              sorted(Path(castrules.harness.__file__).parent.glob("*.py")),
              sorted(Path(castrules.model.__file__).parent.glob("*.py"))]
    for files in groups:
        for path in files:
            if path.is_file():
                digest.update(str(path).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


class CaseCache:
    """The checked case files of one context: ``get`` before checking a file, ``put`` after,
    ``save`` once the suite is loaded (it writes only when something changed)."""

    def __init__(self, folder: Path | None, context: str) -> None:
        self.folder = folder
        self.context = context
        self.path = folder / f"suite-{context[:32]}.json" if folder is not None else None
        self._old: dict[str, list] = self._read()
        self._new: dict[str, list] = {}
        self.hits = 0

    @classmethod
    def for_suite(cls, root: Path) -> "CaseCache | None":
        """The cache of this suite as it is now, or None when turned off or unusable."""
        folder = cache_dir()
        if folder is None:
            return None
        try:
            return cls(folder, context_digest(root))
        except OSError:
            return None

    def _read(self) -> dict[str, list]:
        try:
            if self.path is None or self.path.stat().st_size > _MAX_BYTES:
                return {}
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return {}
        if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("context") != self.context:
            return {}
        files = data.get("files")
        return files if isinstance(files, dict) else {}

    def get(self, rel: str, digest: str) -> tuple[Any, list[Problem]] | None:
        """The document and problems checked for this file's text, if the cache has them."""
        entry = self._old.get(rel)
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] == digest):
            return None
        try:
            problems = [Problem(p["file"], p["pointer"], p["message"], p["line"], p["code"]) for p in entry[2]]
        except (TypeError, KeyError):
            return None
        self._new[rel] = entry
        self.hits += 1
        return entry[1], problems

    def put(self, rel: str, digest: str, doc: Any, problems: list[Problem]) -> None:
        self._new[rel] = [digest, doc, [p.to_json() for p in problems]]

    def save(self) -> None:
        """Write the entries of this load (only the files it saw) when they differ from what was
        read; never raises."""
        if self.path is None or self._new == self._old:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            text = json.dumps({"format": FORMAT, "context": self.context, "files": self._new},
                              separators=(",", ":"), ensure_ascii=False)
            fd, tmp = tempfile.mkstemp(prefix=".suite-", suffix=".tmp", dir=self.path.parent)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    handle.write(text)
                os.replace(tmp, self.path)
            finally:
                if os.path.exists(tmp):
                    os.unlink(tmp)
            self._prune()
        except (OSError, TypeError, ValueError):
            pass

    def _prune(self) -> None:
        """Keep the KEEP most recently written context files."""
        assert self.path is not None
        olds = sorted(self.path.parent.glob("suite-*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        for stale in olds[KEEP:]:
            stale.unlink(missing_ok=True)
