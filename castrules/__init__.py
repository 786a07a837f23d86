"""castrules: a conformance suite and reference oracle for casting spells in Magic: The Gathering.

Everything castrules installs lives under this one import name: ``castrules.oracle`` (the
reference engine), ``castrules.harness`` (loading, running, comparing, reporting), and the
shared typed model below both. The repository keeps ``oracle/`` and ``harness/`` at its top;
the package build maps them here, so no other top-level name reaches a user's environment.
"""

__version__ = "0.1.0"
