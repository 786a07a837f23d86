"""castrules oracle: the reference rules engine for casting spells (CR 601.2 and friends).

Pure, deterministic, standard library only; never imports the harness.
"""
from . import rulebook  # noqa: F401  (installs the real rules table, oracle.seams)
from .engine import VERSION as __version__
from .engine import OracleEngine
from .reasons import Reason
from .scenario import run_case

__all__ = ["OracleEngine", "Reason", "run_case", "__version__"]
