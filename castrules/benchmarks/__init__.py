"""Benchmarks shipped with castrules (run with ``python -m``; only ``castrules bench`` prints speed)."""
