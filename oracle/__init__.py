"""castrules oracle: the reference rules engine for casting spells (CR 601.2 and friends).

Pure, deterministic, standard library only; never imports the harness.
"""
from .engine import VERSION as __version__
from .engine import OracleEngine
from .reasons import Reason
from .scenario import run_case

__all__ = ["OracleEngine", "Reason", "run_case", "__version__"]
