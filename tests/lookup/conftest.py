"""The lookup tests read every game's entries: the list of games (:mod:`bot.games`) is loaded first, as
the bot and the command line load it, and tells :mod:`rules.registry` where each game keeps them.

Schrottplatz Rally's entries are read through the ``rally`` fixture, which registers its lookup file for
the tests that ask for it when the list of games has not, and takes it away after them."""

from collections.abc import Iterator

import pytest

import bot.games
from rules import registry
from rules.lookup_questions import RALLY_LOOKUP

bot.games.units()


@pytest.fixture(scope="module")
def rally() -> Iterator[str]:
    """The key of Schrottplatz Rally, whose lookup file is registered while the module's tests run."""
    with pytest.MonkeyPatch.context() as mp:
        if "rally" not in registry.lookup_sources():
            mp.setitem(registry._LOOKUPS, "rally", RALLY_LOOKUP)
        yield "rally"
