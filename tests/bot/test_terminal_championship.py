"""``junkyard play --championship``: a championship of Junkyard Races played in the terminal under a script
(standard input), round after round through the championship service, the table shown as text after each
round and the final table at the end; left at the end of the input and resumed by its name (``--db``); a
usage mistake exits 2."""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

from bot.cli import main
from bot.commands.play_championship import championship_channel
from bot.store import SqliteStore


def play(monkeypatch, capsys, args: list[str], lines: int) -> tuple[int, str, str]:
    """``junkyard play ARGS`` with ``lines`` lines of ``1`` (the first move of the list shown) as its input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * lines))
    code = main(["play", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def rounds_in(db: Path, name: str) -> list[tuple[int, str]]:
    """(round, status of its game) of the championship ``name``'s rounds."""

    async def read() -> list[tuple[int, str]]:
        async with SqliteStore(db) as store:
            champ = await store.championships.latest_championship(championship_channel(name))
            assert champ is not None
            return [(n, (await store.games.get_game(g)).status)
                    for n, g in await store.championships.round_games(champ.id)]

    return asyncio.run(read())


def test_a_championship_in_the_terminal_is_left_resumed_and_run_to_its_final_table(tmp_path, monkeypatch, capsys):
    """A run of two rounds of track A (1 lap, points 10 6 3): Ann against a random computer. The first
    run's input ends inside round 1 (exit 0, the round waits); the second run resumes it by the name, plays both
    rounds, shows the table after round 1 and the final table with the champion, each once."""
    db = tmp_path / "cup.db"
    args = ["--championship", "Spring Cup", "--game", "races", "--rounds", "A 1; A 1", "--points", "10 6 3",
            "--seats", "human:Ann,random", "--seed", "4", "--db", str(db), "--out", str(tmp_path / "out")]
    code, out, _ = play(monkeypatch, capsys, args, 20)
    assert code == 0
    assert "=== Spring Cup: round 1 of 2, track A, 1 lap ===" in out
    assert "junkyard play --championship 'Spring Cup' --db" in out  # how to play on
    assert rounds_in(db, "Spring Cup") == [(1, "active")]
    code, out, _ = play(monkeypatch, capsys, ["--championship", "Spring Cup", "--db", str(db), "--seats",
                                              "human:Ann,random", "--out", str(tmp_path / "out")], 3000)
    assert code == 0, out[-2000:]
    assert rounds_in(db, "Spring Cup") == [(1, "finished"), (2, "finished")]
    assert out.count("the table after round 1 of 2") == 1
    assert out.count("the final table after round 2 of 2") == 1
    assert out.index("the table after round 1 of 2") < out.index("round 2 of 2, track A") \
        < out.index("the final table after round 2 of 2")
    final = out.split("the final table after round 2 of 2")[1]
    totals = {name: int(points) for name, points in re.findall(r"^\d+\. (Ann|Computer 2 \(random\)): (\d+)", final,
                                                                re.M)}
    assert sorted(totals.values()) in ([6 + 6, 10 + 10], [6 + 10, 6 + 10]), final  # each round scores 10 and 6
    if totals["Ann"] != totals["Computer 2 (random)"]:
        best = max(totals, key=lambda name: totals[name])
        assert f"{best} is the champion!" in final, final
    # a run that finds every round over shows the final table again and ends
    code, again, _ = play(monkeypatch, capsys, ["--championship", "Spring Cup", "--db", str(db),
                                                "--seats", "human:Ann,random", "--out", str(tmp_path / "out")], 0)
    assert code == 0 and "the final table after round 2 of 2" in again


def test_championship_usage_mistakes_exit_2_with_one_line(tmp_path, monkeypatch, capsys):
    db = str(tmp_path / "u.db")
    for args, says in (
        (["--championship", "New Cup", "--db", db], "--rounds is needed"),
        (["--championship", "New Cup", "--rounds", "A 1; nowhere 2", "--db", db], "Round 2"),
        (["--championship", "New Cup", "--rounds", "A 1", "--points", "3 5", "--db", db], "5"),
        (["--championship", "New Cup", "--rounds", "A 1", "--seats", "random,random", "--db", db], "person"),
        (["--championship", "New Cup", "--game", "piecepack", "--rounds", "A 1", "--db", db], "racing"),
    ):
        code, _, err = play(monkeypatch, capsys, args, 0)
        assert code == 2, (args, err)
        assert err.startswith("junkyard play: ") and says in err and err.count("\n") == 1, (args, err)
