"""The Kart Card picture, the replay GIF (one frame per action, one palette for all) and the
``junkyard replay`` command, from a log file and from the SQLite store."""

from __future__ import annotations

import asyncio
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.cli import main
from render.races.card import kart_card_png
from render.races.replay import replay_gif, replay_views
from render.races.samples import busy_game
from rules.races.engine import Races

SETUP = {"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "options": {"track": "B"}}
SEED = 11


def random_log(n: int, seed: int = SEED) -> list[str]:
    """``n`` random legal actions from the start of a race (fewer if the race ends)."""
    game = Races.create(SETUP, seed)
    rng = random.Random(seed)
    log: list[str] = []
    while len(log) < n and not game.is_over:
        text = str(rng.choice(game.legal_actions()))
        game.apply(text)
        log.append(text)
    return log


# The Kart Card ---------------------------------------------------------------------------------------


def test_kart_card_is_a_png_of_the_card() -> None:
    game = busy_game("A")
    img = Image.open(io.BytesIO(kart_card_png(game.view(None), 0)))
    assert img.format == "PNG" and img.width >= 900 and img.height >= 400


def test_own_card_shows_the_tiles_kinds_and_a_public_card_does_not() -> None:
    """R12: a player sees its own face-down tiles; the others see their backs."""
    game = busy_game("A")
    own, public, other, another = (kart_card_png(game.view(s), 4) for s in (4, None, 2, 6))
    assert own != public and own != other
    assert other == another


def test_public_card_is_the_same_whatever_the_hidden_tiles_are() -> None:
    """R12: a card as the others see it is the same picture for any face-down tiles of the same count."""
    def card(tiles: list[str]) -> bytes:
        game = Races.from_position({"track": "A", "karts": [
            {"colour": "red", "cell": "F9", "facing": "N"},
            {"colour": "blue", "cell": "H9", "facing": "N", "bags": {"7": tiles}}], "turn": "red", "phase": "roll"})
        return kart_card_png(game.view(0), 1)

    assert card(["time-bomb", "missile"]) == card(["glue", "spring"])


def test_card_of_a_missing_seat_is_refused() -> None:
    with pytest.raises(ValueError):
        kart_card_png(busy_game("A").view(None), 9)


# The replay -------------------------------------------------------------------------------------------


def gif_frames(data: bytes) -> tuple[int, list[bool]]:
    """The frame count of a GIF and, per frame, whether it carries a local colour table."""
    assert data[:6] in (b"GIF87a", b"GIF89a")
    pos = 13
    flags = data[10]
    if flags & 0x80:
        pos += 3 * (2 ** ((flags & 7) + 1))
    local: list[bool] = []
    while pos < len(data):
        block = data[pos]
        if block == 0x3B:  # trailer
            break
        if block == 0x21:  # extension: label, then sub-blocks
            pos += 2
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        elif block == 0x2C:  # image descriptor
            packed = data[pos + 9]
            local.append(bool(packed & 0x80))
            pos += 10
            if packed & 0x80:
                pos += 3 * (2 ** ((packed & 7) + 1))
            pos += 1  # LZW minimum code size
            while data[pos]:
                pos += data[pos] + 1
            pos += 1
        else:
            raise AssertionError(f"unexpected GIF block {block:#x} at {pos}")
    return len(local), local


def test_replay_has_one_frame_per_action_and_one_shared_palette() -> None:
    log = random_log(24)
    views = replay_views(SETUP, SEED, log)
    assert len(views) == len(log) + 1
    data = replay_gif(views)
    count, local = gif_frames(data)
    assert count <= len(views)  # the writer merges a frame identical to the one before
    assert not any(local), "every frame uses the one global palette"
    img = Image.open(io.BytesIO(data))
    assert img.n_frames == count
    assert img.info.get("loop") == 0


def test_replay_frames_differ_when_a_kart_moves() -> None:
    log = random_log(12)
    views = replay_views(SETUP, SEED, log)
    data = replay_gif(views)
    img = Image.open(io.BytesIO(data))
    first = img.convert("RGB")
    img.seek(img.n_frames - 1)
    assert first.tobytes() != img.convert("RGB").tobytes()


def test_replay_views_show_no_hidden_tile() -> None:
    """R12: a replay is made of public views: no face-down tile's kind appears in them."""
    log = random_log(40)
    for view in replay_views(SETUP, SEED, log):
        for tile in view["board"].values():
            if tile.get("face_down", True):
                assert tile["kind"] == "junk"
        for kart in view["karts"]:
            for tiles in kart["bags"].values():
                assert all(t == "hidden" or t.endswith("+") for t in tiles)


def test_cli_replays_a_log_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = random_log(10)
    path = tmp_path / "race.json"
    path.write_text(json.dumps({"setup": SETUP, "seed": SEED, "actions": log}))
    out = tmp_path / "race.gif"
    assert main(["replay", "--from-log", str(path), "--out", str(out)]) == 0
    assert Image.open(out).format == "GIF"
    assert "frames" in capsys.readouterr().out


def test_cli_refuses_a_bad_log_and_bad_usage(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"setup": SETUP, "seed": SEED, "actions": ["fly to the moon"]}))
    out = tmp_path / "x.gif"
    assert main(["replay", "--from-log", str(bad), "--out", str(out)]) == 1
    assert main(["replay", "--out", str(out)]) == 2
    assert main(["replay", "3", "--from-log", str(bad), "--out", str(out)]) == 2
    assert main(["replay", "3", "--db", str(tmp_path / "none.db"), "--out", str(out)]) == 1


async def _store_game(db: Path, log: list[str]) -> int:
    from bot.store import Seat, SqliteStore

    seats = [Seat(100 + i, s["name"]) for i, s in enumerate(SETUP["seats"])]
    async with SqliteStore(db) as store:
        rec = await store.games.create_game(guild_id=1, channel_id=2, game_key="races", host_id=100, setup=SETUP,
                                            seed=SEED, seats=seats)
        game = Races.create(SETUP, SEED)
        await store.games.start_game(rec.id, setup=SETUP, seats=seats, state=game.to_dict())
        for i, text in enumerate(log):
            seat: Any = game.to_act
            game.apply(text)
            await store.games.append_action(rec.id, expected_version=i, seat=seat, user_id=None, action=text,
                                            state=game.to_dict())
        return rec.id


def test_cli_replays_a_stored_game(tmp_path: Path) -> None:
    log = random_log(8)
    db = tmp_path / "games.db"
    game_id = asyncio.run(_store_game(db, log))
    out = tmp_path / "stored.gif"
    assert main(["replay", str(game_id), "--db", str(db), "--out", str(out)]) == 0
    frames, _ = gif_frames(out.read_bytes())
    assert 1 < frames <= len(log) + 1
    assert main(["replay", str(game_id + 1), "--db", str(db), "--out", str(out)]) == 1


def test_replay_frames_decode_to_the_pictures_drawn() -> None:
    """The delta frames (changed box, transparent where unchanged) add up to every full picture."""
    from PIL import ImageChops

    from render.races import replay

    log = random_log(20)
    views = replay_views(SETUP, SEED, log)
    kit = replay._kit(views[0]["track"], replay.REPLAY_CELL)
    wanted, last = [], None
    for view in views:
        turn = view["turn"]
        if turn.get("path") or turn.get("marks"):
            last = turn
        picture = replay._frame(view, kit, last).convert("RGB")
        if not wanted or wanted[-1].tobytes() != picture.tobytes():
            wanted.append(picture)
    gif = Image.open(io.BytesIO(replay_gif(views)))
    assert gif.n_frames == len(wanted)
    for i, picture in enumerate(wanted):
        gif.seek(i)
        assert ImageChops.difference(gif.convert("RGB"), picture).getbbox() is None, f"frame {i}"
