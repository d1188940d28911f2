"""Taking back what was played for a person: the autopilot's moves, forced moves and plan items.

They are the person's own moves in the log (their seat and user id), so ``/game undo`` (:mod:`bot.play.undo`)
takes them back under the same rules as a move they pressed: only while their turn goes on and nothing new
became known. What this module adds is the memory of *how* each was played, so the channel is told that
what came back was played for them: a settings row per player and game (scope :data:`SCOPE`), written in the
transaction that stores the move (:class:`~bot.store.SettingsWrite`), keyed by the move's index in the log.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Line
from bot.store import Reads, SettingKey, SettingsWrite, Store
from rules.literal import Person

#: the settings scope of the marks: owner the player, target the game
SCOPE = "played_for"
#: how many of the newest marks a row keeps (undo takes back at most 20 moves; ``/game log`` shows at most
#: this many moves, each marked with how it was played)
KEEP = 100
#: the ways a move is played for a person, as :mod:`bot.play.plans` and the autopilot name them
KINDS = ("autopilot", "forced", "plan", "standing")


def keys_of(user_id: int, game_id: int) -> list[SettingKey]:
    """The rows a move reads for a person seated: the moves played for them."""
    return [(SCOPE, user_id, game_id)]


async def mark(store: Reads, user_id: int, game_id: int, index: int, kind: str) -> SettingsWrite:
    """The row that remembers move ``index`` of the game as played for ``user_id`` (``kind``), to store with
    the move; older marks beyond :data:`KEEP` (and any of moves taken back since) are dropped."""
    data = await store.settings.get_settings(SCOPE, user_id, game_id)
    moves = {int(k): str(v) for k, v in dict(data.get("moves") or {}).items() if int(k) < index}
    moves[index] = kind
    kept = sorted(moves)[-KEEP:]
    return SettingsWrite(SCOPE, user_id, game_id, {"moves": {str(i): moves[i] for i in kept}})


async def kinds(store: Store, user_id: int, game_id: int, indices: Sequence[int]) -> list[str]:
    """How each of the moves ``indices`` was played for ``user_id``: its kind, or "" for one they pressed."""
    data = await store.settings.get_settings(SCOPE, user_id, game_id)
    moves = dict(data.get("moves") or {})
    return [str(moves.get(str(i), "")) for i in indices]


async def played_for(store: Store, game_id: int, moves: Sequence[tuple[int | None, int]]) -> dict[int, str]:
    """How each of ``moves`` (the user it was stored for, its index) was played for its person, by index: only
    the moves played for them (autopilot, forced, plan, standing); one read per person."""
    users: dict[int, list[int]] = {}
    for user, index in moves:
        if user is not None:
            users.setdefault(user, []).append(index)
    out: dict[int, str] = {}
    for user, indices in users.items():
        out.update((i, kind) for i, kind in zip(indices, await kinds(store, user, game_id, indices), strict=True)
                   if kind)
    return out


async def forget(store: Store, user_id: int, game_id: int, since: int) -> None:
    """Drop the marks of moves ``since`` on (they were taken back: a move pressed in their place is the
    player's own)."""
    data = await store.settings.get_settings(SCOPE, user_id, game_id)
    moves = {k: v for k, v in dict(data.get("moves") or {}).items() if int(k) < since}
    if moves != dict(data.get("moves") or {}):
        await store.settings.put_settings(SCOPE, user_id, game_id, {"moves": moves})


def took_back(user: Person, moves: str, played: Sequence[str]) -> Line:
    """The channel's line for an undo (``played``: how each move taken back was played, "" when pressed): it
    says so when what came back was played for the player, and how."""
    count = len(played)
    ways = {p for p in played if p}
    if not ways:
        return Line(say="undo.took_back", params={"user": user, "count": count, "moves": moves})
    how = f"undo.by.{ways.pop()}" if len(ways) == 1 else "undo.by.several"
    return Line(say="undo.took_back_for", params={"user": user, "count": count, "moves": moves,
                                                  "how": Line(say=how)})


__all__ = ["KINDS", "SCOPE", "forget", "kinds", "mark", "played_for", "took_back"]
