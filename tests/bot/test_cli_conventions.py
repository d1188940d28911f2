"""One convention for every ``junkyard`` command, in real processes where it matters: 2 for a usage mistake, 1
for a failure while running, 141 (quietly) when the reader of standard output went away; a game's option
refused for another game, named with the games that take it; the token file's problems in one line; each
database's pictures in a folder of their own; a resume command that works as printed without showing a
password; colour in the logs only on a terminal."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import SUBCOMMANDS, main
from bot.commands import EXIT_CODES, FAILED, OUTPUT_CLOSED, USAGE
from bot.commands.logs import formatter, setup_logging, wants_colour
from bot.commands.play import refused_options
from bot.commands.token import TokenUnreadable, read_token
from bot.games import new_options, unit_for, units
from bot.terminal import DB_VARIABLE, database_folder, db_argument, db_variable_note
from tests.bot.test_cli_edges import ROOT, closed_port, one_line, place, run  # noqa: F401  (place is a fixture)
from tests.bot.test_terminal_resume import games_in

#: a hang guard only
LIMIT = 120


# ------------------------------------------------------------------ a reader that goes away


def closed_early(args: list[str], cwd: Path, keep: int) -> subprocess.CompletedProcess[str]:
    """``junkyard ARGS | head -KEEP``: the first ``keep`` lines are read, then the reader closes the pipe
    (at once when ``keep`` is 0, before the command has printed anything)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "JUNKYARD_DB")}
    env["PYTHONPATH"] = str(ROOT)
    child = subprocess.Popen([sys.executable, "-m", "tests.bot.cli_child", *args], cwd=cwd, env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stderr is not None
    read = [child.stdout.readline() for _ in range(keep)]
    child.stdout.close()
    try:
        err = child.stderr.read()
        code = child.wait(timeout=LIMIT)
    finally:
        child.kill()
    return subprocess.CompletedProcess(args, code, "".join(read), err)


@pytest.mark.parametrize(("args", "keep"), [
    (["rules", "what", "does", "glue", "do"], 0),
    (["track", "--list"], 0),
    (["play", "--seats", "smart,smart", "--laps", "1", "--db", "games.db", "--out", "pics"], 2),
])
def test_a_closed_standard_output_ends_the_command_quietly_with_141(place, args, keep):  # noqa: F811
    """``junkyard rules … | head -5`` and the like: no BrokenPipeError traceback, nothing on standard error,
    the exit code a shell gives a program its pipe's reader left (128 + SIGPIPE)."""
    done = closed_early(args, place, keep)
    assert done.returncode == OUTPUT_CLOSED == 141, done
    assert done.stderr == "", done.stderr
    if args[0] == "play":  # the game it was playing is left as it was, to be resumed
        [(game, status, _)] = games_in(place / "games.db")
        assert (game, status) == (1, "active")


def test_a_help_whose_reader_went_away_is_quiet(place):  # noqa: F811
    """argparse itself lets a help it could not write go (exit 0); nothing reaches standard error."""
    done = closed_early(["play", "--help"], place, 0)
    assert done.returncode in (0, OUTPUT_CLOSED) and done.stderr == "", done


def test_a_broken_connection_that_is_not_standard_output_is_not_taken_for_one(monkeypatch, capsys):
    """Only a closed standard output ends quietly: a BrokenPipeError of the command's own (a socket) is
    not hidden behind 141."""
    import bot.cli

    def broken(argv: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(bot.cli, "_dispatch", broken)
    monkeypatch.setattr(bot.cli, "output_closed", lambda: False)
    with pytest.raises(BrokenPipeError):
        main(["rules", "glue"])


def test_output_closed_tells_a_pipe_without_reader_from_one_with_a_reader():
    read, write = os.pipe()
    stream = open(write, "w")  # noqa: SIM115
    try:
        import bot.cli

        real = sys.stdout
        sys.stdout = stream
        try:
            assert not bot.cli.output_closed()
            os.close(read)
            assert bot.cli.output_closed()
        finally:
            sys.stdout = real
    finally:
        stream.close()


# ------------------------------------------------------------------ one exit-code convention


@pytest.mark.parametrize("command", [
    ["play", "--db", "notes.db", "--out", "pics"],
    ["demo", "--db", "notes.db", "--out", "pics"],
    ["replay", "1", "--db", "notes.db", "--out", "r.gif"],
    ["web", "--db", "notes.db", "--listen", "127.0.0.1:0"],
    ["link", "1", "--db", "notes.db"],
    ["db", "copy", "notes.db", "copy.db"],
    ["ratings", "rebuild", "--db", "notes.db"],
    ["bot", "--db", "notes.db"],
])
def test_a_garbage_database_is_a_failure_while_running_for_every_command(place, command):  # noqa: F811
    (place / "notes.db").write_text("shopping list\n")
    done = run(command, place, DISCORD_TOKEN="abc.def", JUNKYARD_CHILD_DISCORD=closed_port())
    name = " ".join(command[:2]) if command[0] in ("db", "ratings") else command[0]
    assert "is not a SQLite database" in one_line(done, name)
    assert done.returncode == FAILED == 1


@pytest.mark.parametrize(("command", "said"), [
    (["demo", "--seats", "1"], "seats 2 to 8, not 1"),
    (["demo", "--laps", "0"], "1 to 5 laps, not 0"),
    (["play", "--laps", "0"], "1 to 5 laps, not 0"),
    (["play", "--track", "Z"], "no track called 'Z'"),
    (["demo", "--game", "rally", "--teams"], "--teams is for Junkyard Races only, not Schrottplatz Rally"),
    (["play", "--game", "piecepack", "--no-crew"], "--no-crew is for Junkyard Races only"),
    (["play", "--game", "piecepack", "--laps", "2"],
     "--laps is for Junkyard Races or Schrottplatz Rally only, not Junkyard (piecepack)"),
    (["demo", "--game", "races", "--direction", "cw"], "--direction is for Schrottplatz Rally only"),
    (["track", "Z", "--out", "z.png"], "no track called 'Z'"),
])
def test_a_usage_mistake_is_one_line_and_2_for_every_command(place, command, said):  # noqa: F811
    """``demo --seats 1`` gave 2 but ``demo --laps 0`` gave 1; an option the chosen game does not take
    was ignored without a word."""
    done = run([*command, "--db", "games.db", "--out", "pics"] if command[0] in ("play", "demo") else command,
               place)
    assert said in one_line(done, command[0])
    assert done.returncode == USAGE == 2
    assert not (place / "pics").exists() or not any((place / "pics").rglob("*.png"))


def test_which_game_takes_an_option_comes_from_the_games_own_option_lists():
    """For every option any game offers and every game that does not offer it, the refusal names exactly
    the games whose units list it; a game that lists it accepts it."""
    import argparse

    for name, offers in new_options().items():
        takers = {unit.key for unit, _ in offers}
        option = offers[0][1]
        value: object = True if option.type == "flag" else (1 if option.type == "integer" else "x")
        for unit in units():
            args = argparse.Namespace(lang="en", **{n: None for n in new_options()})
            setattr(args, name, value)
            said = refused_options(args, unit)
            if unit.key in takers:
                assert said is None or f"--{name} is for" not in said, (name, unit.key, said)
            else:
                assert said is not None and said.startswith(f"--{name} is for "), (name, unit.key, said)
                named = said.removeprefix(f"--{name} is for ").split(" only")[0]
                assert sorted(named.replace(" or ", ", ").split(", ")) == sorted(
                    unit_for(key).title for key in takers), said


def test_a_game_that_comes_to_list_an_option_takes_it_on_the_command_line(monkeypatch):
    """No second list to keep: once a game's unit lists ``laps``, the command line accepts it for that game
    and names it among the games that take it."""
    import argparse

    piecepack, rally = unit_for("piecepack"), unit_for("rally")
    args = argparse.Namespace(lang="en", **{n: None for n in new_options()})
    args.laps = 2
    assert (refused_options(args, piecepack) or "").startswith("--laps is for ")
    laps = next(o for o in rally.new_options if o.name == "laps")
    monkeypatch.setattr(piecepack, "new_options", (*piecepack.new_options, laps))
    assert refused_options(args, piecepack) is None
    args.laps, args.direction = None, "cw"
    said = refused_options(args, piecepack) or ""
    assert said.startswith("--direction is for Schrottplatz Rally only")
    args.direction, args.teams = None, True
    assert (refused_options(args, rally) or "").startswith("--teams is for Junkyard Races only")


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_every_help_ends_with_the_exit_codes(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert " ".join(EXIT_CODES.split()) in text


def test_the_readme_states_the_convention():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    start = readme.index("**When something is wrong**")
    paragraph = readme[start:start + 1500]
    for code in ("`2`", "`1`", "`130`", "`141`"):
        assert code in paragraph, code


# ------------------------------------------------------------------ the token file


def test_the_token_files_problems_are_one_line_each_and_a_failure(place):  # noqa: F811
    (place / "empty").write_text("\n  \n")
    secret = place / "secret"
    secret.write_text("abc.def\n")
    secret.chmod(0)
    for name, said, env in [("missing", "the token file missing does not exist", {}),
                            ("empty", "the token file empty is empty: put the bot's token on its first line", {}),
                            ("secret", "cannot read the token file secret: permission denied",
                             {"JUNKYARD_CHILD_UNPRIVILEGED": "1"})]:
        for command in ("bot", "sync"):
            done = run([command, "--token-file", name, "--db", "games.db"] if command == "bot"
                       else [command, "--token-file", name], place, **env)
            line = one_line(done, command)
            assert line == f"junkyard {command}: {said}", line
            assert done.returncode == FAILED
            assert "Error" not in line


def test_a_token_file_others_may_read_is_used_with_a_warning(place):  # noqa: F811
    token = place / "token"
    token.write_text("abc.def\n")
    token.chmod(0o644)
    done = run(["sync", "--token-file", "token"], place, JUNKYARD_CHILD_DISCORD=closed_port())
    lines = done.stderr.strip().splitlines()
    assert lines[0] == ("junkyard sync: warning: the token file token is open to other users of this machine "
                        "(mode 644); `chmod 600 token` keeps it to its owner")
    assert "cannot reach Discord" in lines[1] and len(lines) == 2  # it went on with the token
    token.chmod(0o600)
    done = run(["sync", "--token-file", "token"], place, JUNKYARD_CHILD_DISCORD=closed_port())
    assert "warning" not in done.stderr and "cannot reach Discord" in done.stderr


def test_read_token_warns_for_group_or_others_only(tmp_path):
    path = tmp_path / "token"
    path.write_text("abc.def\n")
    for mode, warned in ((0o600, False), (0o400, False), (0o640, True), (0o604, True), (0o620, True)):
        path.chmod(mode)
        said: list[str] = []
        assert read_token(str(path), said.append) == "abc.def"
        assert bool(said) is warned, oct(mode)
    path.write_text("")
    with pytest.raises(TokenUnreadable, match="is empty"):
        read_token(str(path))


# ------------------------------------------------------------------ pictures by database


def test_pictures_of_game_1_in_two_databases_do_not_overwrite_each_other(tmp_path, monkeypatch, capsys):
    """Game 1 of one database and game 1 of another, with one ``--out``: a folder per database, the game's
    inside; a resumed game goes on in its folder."""
    out = tmp_path / "pics"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "games.db", tmp_path / "b" / "games.db"  # the same name, two databases
    for db in (first, second):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert main(["play", "--game", "piecepack", "--seats", "human,smart", "--db", str(db),
                     "--out", str(out)]) == 0
    folders = {db: out / database_folder(str(db)) / "game-1" for db in (first, second)}
    assert folders[first] != folders[second]
    assert sorted(p.name for p in out.iterdir()) == sorted(f.parent.name for f in folders.values())
    assert all(f.parent.name.startswith("games-") for f in folders.values())
    before = {db: sorted(p.name for p in folder.glob("move-*.png")) for db, folder in folders.items()}
    assert all(before.values())
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", "--resume", "1", "--db", str(first), "--out", str(out)]) == 0
    assert f"Board pictures: {folders[first]}/" in capsys.readouterr().out
    assert len(list(folders[first].glob("move-*.png"))) > len(before[first])
    assert sorted(p.name for p in folders[second].glob("move-*.png")) == before[second]


def test_the_folder_of_a_database_is_stable_and_never_holds_a_password(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert database_folder("games.db") == database_folder(str(tmp_path / "games.db"))
    assert database_folder("games.db") != database_folder(str(tmp_path / "other" / "games.db"))
    url = "postgresql://gm:s3cret@db.example:5432/junkyard"
    folder = database_folder(url)
    assert folder.startswith("junkyard-") and "s3cret" not in folder
    assert folder == database_folder("postgresql://gm:changed@db.example:5432/junkyard")  # a new password
    assert folder != database_folder("postgresql://gm:s3cret@db.example:5432/other")


# ------------------------------------------------------------------ a resume command that works


def test_a_command_for_a_database_with_a_password_names_the_variable(monkeypatch):
    url = "postgresql://gm:s3cret@db.example:5432/junkyard"
    assert db_argument(url) == ' --db "$JUNKYARD_DB"'
    assert db_argument("my games.db") == " --db 'my games.db'"
    assert db_argument("postgresql://gm@db.example/junkyard") == " --db postgresql://gm@db.example/junkyard"
    assert db_argument(None) == ""
    monkeypatch.setenv(DB_VARIABLE, url)
    assert db_variable_note(url) is None  # the variable holds it: the command works as printed
    monkeypatch.setenv(DB_VARIABLE, "other.db")
    note = db_variable_note(url)
    assert note is not None and "s3cret" not in note and "postgresql://gm:***@db.example:5432/junkyard" in note
    assert "s3cret" not in (db_variable_note(url, "de") or "x s3cret")
    assert db_variable_note("games.db") is None


PG = os.environ.get("JUNKYARD_TEST_PG")


def _shell(command: str, cwd: Path, env: dict[str, str], stdin: str) -> subprocess.CompletedProcess[str]:
    """``command`` as a shell runs it, ``junkyard`` being this checkout's (see :mod:`tests.bot.cli_child`)."""
    junkyard = f"{sys.executable} -m tests.bot.cli_child"
    return subprocess.run(["bash", "-c", command.replace("junkyard ", junkyard + " ", 1)], cwd=cwd, env=env,
                          input=stdin, capture_output=True, text=True, timeout=LIMIT)


@pytest.mark.skipif(not PG, reason="set JUNKYARD_TEST_PG to a PostgreSQL URL with a password")
def test_the_resume_command_of_a_postgresql_game_runs_as_printed(tmp_path):
    """A game on PostgreSQL (``--db "$JUNKYARD_DB"``, the address holding a password) is left; the command the
    terminal printed, run by a shell as it stands, reaches the same database and resumes that very game.
    The password shows nowhere; where the variable does not hold the address, a line says to set it."""
    import asyncio
    import uuid
    from urllib.parse import urlsplit

    import asyncpg

    from bot.store.postgres import drop_schemas

    assert PG is not None
    password = urlsplit(PG).password
    if not password:
        pytest.skip("JUNKYARD_TEST_PG has no password to hide")
    schema = f"test_{uuid.uuid4().hex[:16]}"

    async def create() -> None:
        con = await asyncpg.connect(PG)
        try:
            await con.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await con.close()

    asyncio.run(create())
    url = f"{PG}{'&' if '?' in PG else '?'}search_path={schema}"  # a database of this test's own
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env.update(PYTHONPATH=str(ROOT), JUNKYARD_DB=url)
    try:
        left = _shell('junkyard play --game piecepack --seats human,smart --out pics --db "$JUNKYARD_DB"',
                      tmp_path, env, "")
        assert left.returncode == 0, left.stderr
        said = left.stdout + left.stderr
        assert f":{password}@" not in said
        assert 'End of input: game 1 waits at move' in said
        command = said.split("End of input: game 1 waits at move")[1].split("`")[1]
        assert command == 'junkyard play --db "$JUNKYARD_DB"'
        assert "stands for the address" not in said  # the variable holds it: nothing to set
        again = _shell(f"{command} --resume 1", tmp_path, env, "quit\n")
        assert again.returncode == 0, again.stderr
        assert "Game 1 goes on at move" in again.stdout and f":{password}@" not in again.stdout + again.stderr
        # the address typed out, not in the variable: the command still names it, and a line says to set it
        other = {**env, "JUNKYARD_DB": "elsewhere.db"}
        typed = _shell(f"junkyard play --db '{url}' --resume 1", tmp_path, other, "quit\n")
        assert typed.returncode == 0, typed.stderr
        assert f":{password}@" not in typed.stdout + typed.stderr
        assert '`junkyard play --db "$JUNKYARD_DB"` offers to resume it' in typed.stdout
        assert "`$JUNKYARD_DB` in that command stands for the address of the database" in typed.stdout
    finally:
        asyncio.run(drop_schemas(PG, schema))


# ------------------------------------------------------------------ colour in the logs


def test_log_lines_are_coloured_only_on_a_terminal_and_without_no_color(monkeypatch):
    """In a container discord.py colours every stream (it takes Docker for a terminal), so a log written to
    a file carried colour codes; here only a terminal gets them, and ``NO_COLOR`` turns them off."""
    import logging

    import discord.utils
    from discord.utils import _ColourFormatter

    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)
    monkeypatch.delenv("NO_COLOR", raising=False)
    written = io.StringIO()
    assert discord.utils.stream_supports_colour(written)  # what discord.py itself would have done
    assert not wants_colour(written) and not isinstance(formatter(written), _ColourFormatter)
    leader, follower = os.openpty()
    try:
        with open(follower, "w") as terminal:
            assert wants_colour(terminal) and isinstance(formatter(terminal), _ColourFormatter)
            monkeypatch.setenv("NO_COLOR", "1")
            assert not wants_colour(terminal) and not isinstance(formatter(terminal), _ColourFormatter)
    finally:
        os.close(leader)
    monkeypatch.delenv("NO_COLOR")
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    monkeypatch.setattr("sys.stderr", written)
    try:
        setup_logging(logging.INFO)
        logging.getLogger("junkyard").warning("store: SQLite games.db")
    finally:
        for handler in root.handlers[:]:
            if handler not in handlers:
                root.removeHandler(handler)
        root.setLevel(level)
    line = written.getvalue()
    assert "store: SQLite games.db" in line and "\x1b[" not in line
