"""The ``slow`` marker: tests marked slow (long soaks that repeat what a shorter test already covers) are left
out unless ``--runslow`` is given or ``-m`` selects them (``python -m pytest -m slow``); the summary says once
how many were left out and how to run them."""

from __future__ import annotations

import pytest

_LEFT_OUT = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--runslow", action="store_true", default=False, help="run the tests marked slow too")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--runslow") or "slow" in (config.getoption("-m") or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
    config.stash[_LEFT_OUT] = len(slow)
    if hasattr(config, "workeroutput"):  # a pytest-xdist worker: the controller prints the summary
        config.workeroutput["slow_left_out"] = len(slow)


class _Workers:
    """On the pytest-xdist controller: every worker collects the whole suite and says how many slow tests it
    left out."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    def pytest_testnodedown(self, node: object, error: object) -> None:
        output = getattr(node, "workeroutput", {})
        count = max(self.config.stash.get(_LEFT_OUT, 0), int(output.get("slow_left_out", 0)))
        self.config.stash[_LEFT_OUT] = count


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_Workers(config), "junkyard-slow-count")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One line for each reason tests were skipped (a variable to set, say), and one for the slow soaks."""
    reasons: dict[str, int] = {}
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = str(longrepr[2]) if isinstance(longrepr, tuple) and len(longrepr) == 3 else "skipped"
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, count in sorted(reasons.items()):
        terminalreporter.write_line(f"{count} skipped: {reason}")
    left_out = config.stash.get(_LEFT_OUT, 0)
    if left_out:
        terminalreporter.write_line(f"{left_out} slow soaks left out: run them with --runslow (or only them: -m slow)")


@pytest.fixture(autouse=True)
def presses_every_move(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test marked ``presses_every_move`` follows each press of its players, the forced ones too: forced
    moves wait for their players there, as with ``/game auto`` off."""
    if request.node.get_closest_marker("presses_every_move") is not None:
        import bot.play.plans

        monkeypatch.setattr(bot.play.plans, "AUTO_DEFAULT", False)
