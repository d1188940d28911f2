"""The ``slow`` marker: tests marked slow (long soaks that repeat what a shorter test already covers)
are skipped unless ``--runslow`` is given or ``-m`` selects them (``python -m pytest -m slow``)."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run the tests marked slow too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow") or "slow" in (config.getoption("-m") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow or -m slow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)
