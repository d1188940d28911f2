"""The games' pages on the web: a page per game with the live board, whose turn it is, the standings, the
narrated moves and a replay to step through, from the public view only (:mod:`bot.web.server`); the page links
(:mod:`bot.web.links`); what a page shows (:mod:`bot.web.page`) and its replay (:mod:`bot.web.timeline`)."""
