"""Front end of Junkyard for a piecepack: ``/piecepack roll`` and ``/piecepack move``, buttons, picture."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.games import BaseFront, ButtonSpec, register_front
from rules.contract import Event, Game

if TYPE_CHECKING:
    from discord import app_commands

log = logging.getLogger(__name__)

KEY = "piecepack"
#: Discord shows at most 25 buttons; a roll of 5 rarely opens more than a dozen squares.
MAX_DESTINATIONS = 20


def _renderer() -> Any:
    """``render.piecepack.piecepack_png(view, events) -> bytes``, or None while it is missing."""
    try:
        mod = importlib.import_module("render.piecepack")
    except ImportError:
        return None
    fn = getattr(mod, "piecepack_png", None)
    return fn if callable(fn) else None


def destinations(game: Game) -> dict[str, Any]:
    """Legal destination square → full-path move, empty outside the move phase."""
    fn = getattr(game, "destinations", None)
    if fn is None or game.is_over:
        return {}
    try:
        return dict(fn())
    except Exception:  # not in the move phase
        return {}


class PiecepackFront(BaseFront):
    key = KEY
    title = "Junkyard (piecepack)"

    def picture(self, view: dict[str, Any], events: Sequence[Event]) -> bytes | None:
        fn = _renderer()
        if fn is None:
            return None
        return fn(view, list(events))

    def describe(self, game: Game, viewer: int | None) -> str:
        view = game.view(viewer)
        lines = []
        for s in view["seats"]:
            stack = " ".join(s["trash"]) or "no trash"
            extra = ", carrying the good stuff" if s["carrying"] else ""
            lines.append(f"{s['label']} on {s['square']} (home corner {s['corner']}): {stack}{extra}")
        if view["carrier"] is None and not game.is_over:
            lines.append(f"The good stuff lies in the centre ({view['centre']}).")
        return super().describe(game, viewer) + "\n" + "\n".join(lines)

    def buttons(self, game: Game, seat: int) -> list[ButtonSpec]:
        if game.is_over or game.to_act != seat:
            return []
        dests = destinations(game)
        if dests:
            return [ButtonSpec(f"→ {sq}", str(move), "success") for sq, move in list(dests.items())[:MAX_DESTINATIONS]]
        return [ButtonSpec("Roll", "roll", "primary")] if any(str(a) == "roll" for a in game.legal_actions()) else []

    def command_group(self) -> app_commands.Group | None:
        return make_group()


def make_group() -> app_commands.Group:
    import discord
    from discord import app_commands

    from bot.discord import options as opt
    from bot.discord.replies import send_reply
    from bot.service import refuse

    group = app_commands.Group(name="piecepack", description="Play Junkyard for a piecepack in this channel",
                               guild_only=True)

    async def act(interaction: discord.Interaction, text: str) -> None:
        assert interaction.channel_id is not None
        service = interaction.client.service  # type: ignore[attr-defined]
        rec = await service.store.channel_game(interaction.channel_id)
        if rec is not None and rec.game_key != KEY:
            await send_reply(interaction, refuse(f"This channel is playing `{rec.game_key}`, not the piecepack "
                                                 f"game. `/game status` shows it."))
            return
        await send_reply(interaction, await service.act(interaction.channel_id, interaction.user.id, text))

    async def destination_autocomplete(interaction: discord.Interaction, current: str
                                       ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        service = interaction.client.service  # type: ignore[attr-defined]
        rec, game, _ = await service.current(interaction.channel_id, interaction.user.id)
        if rec is None or game is None or rec.game_key != KEY:
            return []
        cur = current.strip().lower()
        out = []
        for square, move in destinations(game).items():
            path = str(move).removeprefix("move ")
            if square.startswith(cur) or path.startswith(cur):
                out.append(app_commands.Choice(name=f"{square} (via {path})"[:100], value=square))
        return out[:25]

    @group.command(name="roll", description="Roll the die")
    async def roll(interaction: discord.Interaction) -> None:
        await act(interaction, "roll")

    @group.command(name="move", description="Move your pawn: to a square (c2) or along a path (b1-b2-c2)")
    @app_commands.describe(to="Destination square or full path; start typing for the legal ones")
    @app_commands.autocomplete(to=destination_autocomplete)
    async def move(interaction: discord.Interaction, to: str) -> None:
        try:
            where = opt.text("to", to, required=True, limit=60)
        except opt.BadOption as exc:
            await send_reply(interaction, refuse(f"{exc} Nothing was moved."))
            return
        await act(interaction, f"move {where}")

    return group


FRONT = register_front(PiecepackFront())
