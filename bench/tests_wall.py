"""The README's test command, timed as a newcomer runs it, beside the same run on one core.

* ``tests_wall_s``: wall time of ``python -m pytest -q -n auto`` (the README's command, every core);
* ``tests_wall_serial_s``: the same suite with ``-n 0`` (one process), timed in the same benchmark run
  right after it, so both see the same machine;
* ``tests_parallel_ratio``: the first over the second (the target: at most 0.6 on two cores);
* ``tests_load_before`` / ``tests_load_after``: the one-minute load average before each run starts,
  since another busy process on the machine inflates both.

Both runs use the environment as it is (``JUNKYARD_TEST_PG`` included), so they run the same tests.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from bench.registry import Figures, benchmark

ROOT = Path(__file__).resolve().parents[1]
#: the README's test command, after its install step
COMMAND = ("-m", "pytest", "-q", "-n", "auto", "-p", "no:cacheprovider")


def timed_run(*extra: str) -> tuple[float, float]:
    """Wall seconds of one run of the suite (which must pass) and the load average when it began."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *COMMAND, *extra], cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-5:])
        raise RuntimeError(f"the test run failed ({done.returncode}):\n{tail}")
    return round(wall, 1), round(load, 2)


@benchmark("tests_wall")
def tests_wall() -> Figures:
    parallel, load_parallel = timed_run()
    serial, load_serial = timed_run("-n", "0")
    return {"tests_wall_s": parallel, "tests_wall_serial_s": serial,
            "tests_parallel_ratio": round(parallel / serial, 3), "cores": os.cpu_count() or 1,
            "tests_load_before": load_parallel, "tests_load_after": load_serial}
