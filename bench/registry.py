"""The benchmark registry: ``@benchmark("name")`` on a function that returns a dict of figures."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

Figures = dict[str, float | int | str]
BenchmarkFn = Callable[[], Figures]

BENCHMARKS: dict[str, BenchmarkFn] = {}


def benchmark(name: str) -> Callable[[BenchmarkFn], BenchmarkFn]:
    """Register ``fn`` under ``name``; it takes no arguments and returns ``{figure: value}``."""

    def register(fn: BenchmarkFn) -> BenchmarkFn:
        if name in BENCHMARKS and BENCHMARKS[name] is not fn:
            raise ValueError(f"benchmark {name!r} is registered twice")
        BENCHMARKS[name] = fn
        return fn

    return register


def median_ms(fn: Callable[[], object], repeat: int = 7, warmup: int = 1) -> float:
    """Median wall time of ``fn()`` in milliseconds over ``repeat`` runs (after ``warmup`` runs)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 2)


def interleaved_ms(a: Callable[[], object], b: Callable[[], object], repeat: int, digits: int = 2
                   ) -> tuple[float, float, float, float]:
    """Median and best times of ``a`` and ``b`` in milliseconds, rounded to ``digits`` (median a, median b,
    best a, best b), run turn about (after one warm-up each) so that a busy machine slows both alike
    (their ratio is the figure that matters)."""
    a()
    b()
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(repeat):
        start = time.perf_counter()
        a()
        ta.append(time.perf_counter() - start)
        start = time.perf_counter()
        b()
        tb.append(time.perf_counter() - start)
    return (round(statistics.median(ta) * 1000, digits), round(statistics.median(tb) * 1000, digits),
            round(min(ta) * 1000, digits), round(min(tb) * 1000, digits))
