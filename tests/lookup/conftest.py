"""The lookup tests read every game's entries: the list of games (:mod:`bot.games`) is loaded first, as
the bot and the command line load it, and tells :mod:`rules.registry` where each game keeps them."""

import bot.games

bot.games.units()
