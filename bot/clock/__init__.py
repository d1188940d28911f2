"""Time in long races: settings, turn notices, timers and the recap of what a player missed."""
