"""``junkyard replay``: an animated GIF of a game, one frame per action (for games that draw replays).

    junkyard replay GAME_ID [--db PATH] --out FILE.gif     a game from the SQLite store
    junkyard replay --from-log FILE.json --out FILE.gif    a game from a log file

A log file is JSON with the game's ``setup``, ``seed`` and ``actions`` (a list of action texts), and
``game`` (its key; the flagship game when it is missing). The replay is rebuilt from the log alone (the
log is the record of truth) and shows public views only.

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 done, 1 a failure while running (a database or file that
cannot be used, read or written, a game that is not there or does not replay), 2 a usage mistake.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.games import playable_keys, unit_for


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", nargs="?", type=int, metavar="GAME_ID", help="the game's id in the store")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help="SQLite database file, or a postgresql:// URL (default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--from-log", metavar="FILE.json",
                        help="replay a log file ({setup, seed, actions}) instead of a stored game")
    parser.add_argument("--out", metavar="FILE.gif", help="where to write the animated GIF")
    parser.add_argument("--size", type=int, metavar="N", default=None, help="hex size in pixels, 8-32 (default 14)")


def _usage(message: str) -> int:
    print(f"junkyard replay: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if (args.game_id is None) == (args.from_log is None):
        return _usage("give exactly one of: a GAME_ID, or --from-log FILE.json")
    if not args.out:
        return _usage("--out FILE.gif is needed")
    if args.size is not None and not 8 <= args.size <= 32:
        return _usage(f"--size must be 8 to 32 pixels, not {args.size}")
    try:
        if args.from_log:
            key, setup, seed, actions = _read_log(Path(args.from_log))
        else:
            key, setup, seed, actions = asyncio.run(_read_store(args.db, args.game_id))
        unit = _replaying(key, args.game_id)
    except _Problem as exc:
        print(f"junkyard replay: {exc}", file=sys.stderr)
        return 1
    try:
        made = unit.replay(setup, seed, actions, args.size)
    except Exception as exc:  # a log that no longer replays: say which and why, no traceback
        print(f"junkyard replay: the log does not replay: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    assert made is not None
    data, frames = made
    try:
        Path(args.out).write_bytes(data)
    except OSError as exc:
        print(f"junkyard replay: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({len(data) // 1024} KB): {frames} frames, {len(actions)} actions")
    return 0


class _Problem(Exception):
    pass


def _replaying(key: str, game_id: int | None) -> Any:
    """The unit of the game to replay; a problem when the game is unknown or draws no replays."""
    try:
        unit = unit_for(key)
    except KeyError:
        raise _Problem(f"no game called {key!r}: games are {', '.join(playable_keys())}") from None
    if not unit.has_replay:
        which = f"game {game_id} is" if game_id is not None else "the log is of"
        raise _Problem(f"{which} {unit.title}, which has no animated replays")
    return unit


def _read_log(path: Path) -> tuple[str, dict[str, Any], int, list[str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise _Problem(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise _Problem(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict) or not {"setup", "seed", "actions"} <= data.keys():
        raise _Problem(f"{path} needs an object with setup, seed and actions")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise _Problem(f"{path}: actions must be a list of action texts")
    try:
        seed = int(data["seed"])
    except (TypeError, ValueError):
        raise _Problem(f"{path}: seed must be a whole number") from None
    if not isinstance(data["setup"], dict):
        raise _Problem(f"{path}: setup must be an object")
    key = data.get("game", playable_keys()[0])
    if not isinstance(key, str):
        raise _Problem(f"{path}: game must be a game's key")
    return key, data["setup"], seed, actions


async def _read_store(db: str | None, game_id: int) -> tuple[str, dict[str, Any], int, list[str]]:
    from bot.store import GameNotFound, StoreError, default_db_path, is_database_url, open_store

    path = db or default_db_path()
    if path != ":memory:" and not is_database_url(path) and not Path(path).exists():
        raise _Problem(f"no database at {path}")
    try:
        async with open_store(path) as store:
            rec = await store.games.get_game(game_id)
            actions = [a.action for a in await store.games.actions(game_id)]
    except GameNotFound:
        raise _Problem(f"no game {game_id} in {path}") from None
    except StoreError as exc:
        raise _Problem(str(exc)) from None
    return rec.game_key, rec.setup, rec.seed, actions
