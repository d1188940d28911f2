"""Benchmarks: figures (times, sizes), not pass/fail tests. Run ``python -m bench [--json]``.

Each module in this package registers its functions with :func:`bench.registry.benchmark`; ``python -m
bench`` imports every module here, so a new benchmark needs only a new module.
"""
