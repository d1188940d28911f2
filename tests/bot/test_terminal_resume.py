"""A terminal game is left as it is and resumed: ``quit``, the end of the input and Ctrl-C (once) keep it
running in the database; the next ``junkyard play`` on that database offers to resume it (at a keyboard),
``--resume`` resumes without asking and ``--new`` starts another. Each game's pictures have a folder of
their own. In German the terminal's own commands have German names."""

from __future__ import annotations

import asyncio
import io
import os
import pty
import re
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.cli import main
from bot.games import playable_keys, unit_for
from bot.store import SqliteStore
from bot.terminal import COMMANDS, command_word, command_words, database_folder, interrupt_at_once, read_line

ROOT = Path(__file__).resolve().parents[2]
#: a hang guard only: how long to wait for the program to say something before the test fails
LIMIT = 90.0


def games_in(db: Path) -> list[tuple[int, str, int]]:
    """(id, status, move) of every game in the database."""

    async def read() -> list[tuple[int, str, int]]:
        async with SqliteStore(db) as store:
            out = []
            for status in ("active", "finished", "aborted", "lobby"):
                out += [(r.id, r.status, r.version) for r in await store.games.open_games(status)]
            return sorted(out)

    return asyncio.run(read())


def play(monkeypatch, capsys, args: list[str], lines: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


class Keyboard:
    """``junkyard play`` at a terminal of its own (a pseudo-terminal): type lines, press Ctrl-C, read the
    screen."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "JUNKYARD_DB"}
        env["PYTHONPATH"] = str(ROOT)
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: its own session, the pseudo-terminal its controlling terminal
            os.chdir(cwd)
            os.execve(sys.executable, [sys.executable, "-m", "bot.cli", "play", *args], env)
        self.screen = ""

    def wait_for(self, text: str, times: int = 1) -> str:
        """Read until ``text`` is on the screen ``times`` times (the test fails if it never comes)."""
        end = time.monotonic() + LIMIT
        while self.screen.count(text) < times:
            left = end - time.monotonic()
            assert left > 0, f"waited for {text!r}; the screen shows:\n{self.screen[-3000:]}"
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if ready:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                assert chunk, f"the program ended before {text!r}:\n{self.screen[-3000:]}"
                self.screen += chunk.decode("utf-8", "replace")
        return self.screen

    def type(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\r")

    def ctrl_c(self) -> None:
        os.write(self.fd, b"\x03")

    def exit_code(self) -> int:
        """The program's exit code, once it ended (reading what it still says)."""
        end = time.monotonic() + LIMIT
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self._drain()
                os.close(self.fd)
                return os.waitstatus_to_exitcode(status)
            assert time.monotonic() < end, f"the program did not end:\n{self.screen[-3000:]}"
            self._drain(0.2)

    def _drain(self, wait: float = 0.0) -> None:
        while select.select([self.fd], [], [], wait)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.screen += chunk.decode("utf-8", "replace")
            wait = 0.0

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


@pytest.fixture
def keyboards():
    started: list[Keyboard] = []

    def start(args: list[str], cwd: Path) -> Keyboard:
        started.append(Keyboard(args, cwd))
        return started[-1]

    yield start
    for k in started:
        k.kill()


def test_one_ctrl_c_leaves_the_game_and_the_next_play_offers_to_resume_it(tmp_path, keyboards):
    """A newcomer's evening: a game, Ctrl-C once while the prompt waits, ``junkyard play`` again: it offers
    the game left; Enter takes the offer, and the game goes on where it was, its pictures in its folder."""
    args = ["--game", "piecepack", "--seats", "human,smart", "--seed", "6", "--db", "games.db", "--out", "pics"]
    first = keyboards(args, tmp_path)
    first.wait_for("Player 1 (Suns)> ")
    first.type("1")  # the first move listed; the computer answers and the next roll plays itself
    screen = first.wait_for("Player 1 (Suns)> ", times=2)
    first.ctrl_c()
    assert first.exit_code() == 130
    assert "Interrupted: game 1 waits at move" in first.screen
    assert "`junkyard play --db games.db` offers to resume it" in first.screen
    assert "Traceback" not in first.screen
    [(game, status, move)] = games_in(tmp_path / "games.db")
    assert (game, status) == (1, "active") and move >= 3
    assert screen.count("rolls") >= 2

    second = keyboards(["--db", "games.db", "--out", "pics"], tmp_path)
    second.wait_for(f"Game 1 (Junkyard (piecepack), move {move}) was left unfinished in games.db. Resume it? [Y/n] ")
    second.type("")
    second.wait_for(f"Game 1 goes on at move {move}.")
    second.wait_for("Player 1 (Suns)> ")
    second.type("quit")
    assert second.exit_code() == 0
    assert "Stopped: game 1 waits at move" in second.screen
    assert [g[:2] for g in games_in(tmp_path / "games.db")] == [(1, "active")]  # no second game
    assert sorted(p.name for p in (tmp_path / "pics" / database_folder(str(tmp_path / "games.db"))).iterdir()) \
        == ["game-1"]


def test_ctrl_d_at_the_prompt_leaves_the_game_as_it_is(tmp_path, keyboards):
    k = keyboards(["--game", "piecepack", "--seats", "human,smart", "--db", "games.db", "--out", "pics"], tmp_path)
    k.wait_for("Player 1 (Suns)> ")
    os.write(k.fd, b"\x04")
    assert k.exit_code() == 0
    assert "End of input: game 1 waits at move" in k.screen
    assert [g[:2] for g in games_in(tmp_path / "games.db")] == [(1, "active")]


def test_one_interrupt_is_enough_while_waiting_for_a_line_from_a_pipe(tmp_path):
    """asyncio's own Ctrl-C handling only cancels the task, which a blocking read never notices: it took a
    second Ctrl-C. The terminal makes one enough."""
    env = {k: v for k, v in os.environ.items() if k != "JUNKYARD_DB"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "--game", "piecepack", "--seats",
                             "human,smart", "--db", "games.db", "--out", "pics"], cwd=tmp_path, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        seen = ""
        while "Your moves" not in seen:
            line = proc.stdout.readline()
            assert line, "the game never asked for a move"
            seen += line
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=LIMIT)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, (out, err)
    assert "Interrupted: game 1 waits at move" in out and "Traceback" not in err, err
    assert [g[:2] for g in games_in(tmp_path / "games.db")] == [(1, "active")]


def test_resume_and_new_from_a_script_and_pictures_by_game(tmp_path, monkeypatch, capsys):
    db, out_dir = tmp_path / "play.db", tmp_path / "out"
    common = ["--db", str(db), "--out", str(out_dir)]
    code, out, _ = play(monkeypatch, capsys, ["--game", "piecepack", "--seats", "human,smart", *common], ["roll"])
    assert code == 0 and "End of input: game 1 waits at move" in out
    left = games_in(db)[0][2]
    # a script is not asked (its lines are moves): it is told, and a new game begins
    code, out, err = play(monkeypatch, capsys, ["--game", "piecepack", "--seats", "human,smart", *common], [])
    assert "Game 1 (Junkyard (piecepack), move " in err and "--resume 1" in err
    assert [g[:2] for g in games_in(db)] == [(1, "active"), (2, "active")]
    # --resume ID plays game 1 on from where it was left
    code, out, _ = play(monkeypatch, capsys, ["--resume", "1", *common], ["1"])
    assert code == 0 and f"Game 1 goes on at move {left}." in out
    assert games_in(db)[0][2] > left
    # --new starts another without a word about the others
    code, out, err = play(monkeypatch, capsys, ["--new", "--game", "piecepack", "--seats", "human,smart", *common], [])
    assert "left unfinished" not in err and [g[0] for g in games_in(db)] == [1, 2, 3]
    # every game's pictures in a folder of its own; the resumed game's go on in its folder
    folder = out_dir / database_folder(str(db))
    assert sorted(p.name for p in out_dir.iterdir()) == [folder.name]
    assert sorted(p.name for p in folder.iterdir()) == ["game-1", "game-2", "game-3"]
    assert not list(folder.glob("*.png"))
    assert len(list((folder / "game-1").glob("move-*.png"))) > left


def test_resume_with_nothing_left_is_one_line(tmp_path, monkeypatch, capsys):
    db = tmp_path / "x.db"
    code, _, err = play(monkeypatch, capsys, ["--resume", "--db", str(db)], [])
    assert code == 1 and err.strip() == f"junkyard play: there is no unfinished terminal game in {db} to resume"
    code, _, err = play(monkeypatch, capsys, ["--resume", "7", "--db", str(tmp_path / "x.db")], [])
    assert code == 1 and "game 7 is not an unfinished terminal game" in err


def test_german_terminal_commands_have_german_names(tmp_path, monkeypatch, capsys):
    code, out, _ = play(monkeypatch, capsys, ["--game", "rally", "--lang", "de", "--seats", "human,smart", "--db",
                                              str(tmp_path / "de.db"), "--out", str(tmp_path / "o")],
                        ["hilfe", "züge", "stand", "hand", "verlauf", "ende"])
    assert code == 0
    # the usage names the German words
    assert "'züge' listet alle, 'hilfe' die Befehle" in out and "'legal'" not in out and "'help'" not in out
    assert re.search(r"^  hilfe\s+diese Hilfe$", out, re.M) and re.search(r"^  züge\s+jede erlaubte", out, re.M)
    assert re.search(r"^  ende\s+das Spiel verlassen", out, re.M)
    assert "Jede erlaubte Aktion von" in out  # züge
    assert "--- Spieler 1 (rot): deine Hand" in out or "deine Hand" in out  # hand
    assert "Unbekannte Aktion" not in out
    assert "Verlassen: Spiel 1 wartet bei Zug" in out  # ende
    assert [g[:2] for g in games_in(tmp_path / "de.db")] == [(1, "active")]


def test_the_english_names_and_short_words_work_in_every_language():
    for lang in ("en", "de"):
        words = command_words(lang)
        assert all(words[name] == name for name in COMMANDS)
        assert words["q"] == words["exit"] == "quit" and words["?"] == "help"
    assert [command_word(n, "de") for n in COMMANDS] == ["hilfe", "züge", "brett", "stand", "hand", "verlauf",
                                                          "ende"]
    assert command_words("de")["zug"] == "legal"
    assert command_words("de")["brett"] == command_words("de")["karte"] == "board"


@pytest.mark.parametrize("key", [k for k in playable_keys() if k != "toy"])
def test_help_lists_only_actions_that_can_be_typed(key, tmp_path, monkeypatch, capsys):
    """Every game action the terminal's help lists (the game's Discord commands) is understood when typed:
    at most it is not possible now, never an unknown action (Rally's ``shift`` was one)."""
    group = unit_for(key).commands
    listed = [c.name for c in group.commands if not c.look] if group is not None else []
    code, out, _ = play(monkeypatch, capsys, ["--game", key, "--seats", "human,human", "--db", str(tmp_path / "h.db"),
                                              "--out", str(tmp_path / "o")], ["help", *listed, "quit"])
    assert code == 0
    shown = re.findall(r"^  (\w+)\s", out.split("The game's actions")[1], re.M) if listed else []
    assert shown == listed
    assert not re.search(r"unknown action", out, re.I), out


async def test_a_game_left_at_the_terminal_is_never_reminded_by_a_bot_on_the_same_database(tmp_path):
    """A game left running at the terminal waits for its keyboard: the ticker of a bot sharing the database
    times no notice, reminder or deadline for it (its channel is no Discord channel)."""
    from bot.clock.timers import Ticker
    from bot.play.service import Service
    from bot.terminal import SeatSpec, new_channel_id, open_table

    async with SqliteStore(tmp_path / "shared.db") as store:
        service = Service(store)
        first, _ = await open_table(service, new_channel_id(), "piecepack", {}, [SeatSpec("human"), SeatSpec("smart")])
        assert first.ok and first.game_id is not None
        ticker = Ticker(service, messenger=None)  # type: ignore[arg-type]  (it must send nothing)
        assert await ticker.sweep() >= 1
        assert await store.turns.timers(game_id=first.game_id) == []


async def test_ctrl_c_between_awaits_cancels_at_the_next_await_and_leaves_as_an_interrupt():
    """A Ctrl-C outside a read raises nothing where it lands (it might land inside the event loop's own
    machinery): the task is cancelled, and the block ends with KeyboardInterrupt at the next ``await``."""
    before = signal.getsignal(signal.SIGINT)
    reached = []
    with pytest.raises(KeyboardInterrupt), interrupt_at_once():
        signal.raise_signal(signal.SIGINT)
        reached.append("after the press")  # nothing raised here
        await asyncio.sleep(5)
        reached.append("after the await")
    assert reached == ["after the press"]
    assert signal.getsignal(signal.SIGINT) is before
    assert asyncio.current_task().cancelling() == 0  # the task goes on as if never cancelled
    await asyncio.sleep(0)


async def test_ctrl_c_in_a_read_of_a_line_raises_there_and_a_second_press_anywhere():
    with pytest.raises(KeyboardInterrupt), interrupt_at_once() as ctrl_c, ctrl_c.reading():
        signal.raise_signal(signal.SIGINT)  # a blocking readline would be interrupted here
        pytest.fail("the read went on")
    with pytest.raises(KeyboardInterrupt), interrupt_at_once():
        signal.raise_signal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):  # the second press, with no await in between
            signal.raise_signal(signal.SIGINT)
        await asyncio.sleep(0)  # the first press's cancellation, out of the block as KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt), interrupt_at_once() as ctrl_c:
        signal.raise_signal(signal.SIGINT)  # pressed just before a read begins: the read never blocks
        with ctrl_c.reading():
            pytest.fail("the read began")


def test_a_cancellation_not_from_ctrl_c_stays_a_cancellation():
    async def cancelled() -> None:
        with interrupt_at_once():
            asyncio.current_task().cancel()
            await asyncio.sleep(5)

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(cancelled())


async def test_ctrl_c_that_the_kernel_hands_to_another_thread_still_ends_a_read_from_a_terminal():
    """The kernel may deliver the terminal's SIGINT to any thread of the process (the store's, the pictures');
    a read blocked on the main thread must still end with KeyboardInterrupt, not wait for the next line."""
    master, slave = pty.openpty()
    keyboard = os.fdopen(slave, "r", closefd=True)
    late = threading.Event()

    def press_from_another_thread() -> None:
        time.sleep(0.3)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)  # handled by this thread, not the main one
        if not ended.wait(5):
            late.set()
            os.write(master, b"too late\n")  # a read that missed the press ends here instead

    ended = threading.Event()
    presser = threading.Thread(target=press_from_another_thread, daemon=True)
    try:
        with pytest.raises(KeyboardInterrupt), interrupt_at_once() as ctrl_c, ctrl_c.reading():
            presser.start()
            try:
                read_line(keyboard)
            finally:
                ended.set()
        assert not late.is_set(), "the read waited for the next line"
    finally:
        presser.join()
        keyboard.close()
        os.close(master)
