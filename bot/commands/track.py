"""``junkyard track``: the track tool of the game that offers one (``GameUnit.tools``): draw a track, list
the built-in ones, check a track file. The tool's own module says how it is used."""

from __future__ import annotations

import argparse

from bot.games import tool

TOOL = "track"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    tool(TOOL).add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return int(tool(TOOL).run(args) or 0)
