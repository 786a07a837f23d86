"""castrules harness: loads and validates the suite, runs it on engines, compares, reports.

The harness reaches the oracle only through the engine interface (``harness.engine``);
nothing here imports ``oracle`` directly.
"""

__version__ = "0.1.0"
SUITE_FORMAT = 1
