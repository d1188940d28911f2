"""Every game draws an animated replay from its log: one frame before the first action and one after each."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games import units
from render.piecepack_replay import replay_gif, replay_views, tile_for
from rules.piecepack import PiecepackGame


@pytest.mark.parametrize("unit", units(), ids=lambda u: u.key)
def test_every_game_has_a_replay(unit) -> None:
    assert unit.has_replay


def _piecepack_log(actions: int) -> tuple[dict, list[str]]:
    setup = {"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {}}
    game = PiecepackGame.create(setup, 4)
    log = []
    while not game.is_over and len(log) < actions:
        log.append(str(game.legal_actions()[0]))
        game.apply(log[-1])
    return setup, log


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_piecepack_replay_has_a_frame_per_action(lang: str) -> None:
    from bot.games.piecepack.unit import GAME

    setup, log = _piecepack_log(30)
    made = GAME.replay(setup, 4, log, lang=lang)
    assert made is not None
    data, frames = made
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and frames == gif.n_frames == len(log) + 1
    assert gif.info.get("loop") == 0


def test_a_smaller_size_gives_a_smaller_piecepack_replay() -> None:
    setup, log = _piecepack_log(12)
    views = replay_views(setup, 4, log)
    big, small = replay_gif(views, tile_for(None)), replay_gif(views, tile_for(8))
    assert Image.open(io.BytesIO(small)).width < Image.open(io.BytesIO(big)).width
    assert len(small) < len(big)
