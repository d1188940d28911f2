"""The pseudo-language ``qps`` (:mod:`rules.pseudo`) finds words that skip the catalogues: whole demo games of
every game, the terminal under a script and every slash command's words, each run in a process with
``JUNKYARD_PSEUDO_LOCALE=1``, show no ASCII word outside a ``⟦…⟧`` bracket but the narrow allowances below.

The allowances, each a thing a person types or reads as data rather than words:
- a cell, piece or tile code (``H10``, ``14b``, ``SA``): :data:`CODE`;
- a cell of the races' text board, its label and the marks its legend explains (``H11:.g``): :data:`BOARD_CELL`;
- the terminal's echo of what was typed (a line opening ``> ``);
- the notation of a move in the terminal's numbered lists and the action words before their descriptions.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import pseudo as writer
from rules import catalogue, pseudo

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, catalogue.PSEUDO_VARIABLE: "1", "PYTHONPATH": str(ROOT)}
#: a code a player types or reads as data: a cell (``H10``, ``14b``), a piece or tile (``SA``, ``MB``)
CODE = re.compile(r"[A-Z]{1,3}\d{0,3}|\d+[a-z]")
#: a cell of the races' text board: its label, then the marks of what is on it and its ground
BOARD_CELL = re.compile(r"(?<!\S)[A-Z]{1,3}\d{1,3}:[-.?!P#\d]*[mg~b]?(?=\s|$)")
#: the terminal lines whose words are notation: echoed input, a numbered legal move, an action's name
NOTATION_LINE = re.compile(r"^(?:> .*|[ \t]+\d+\.[ \t]+[^⟦(\n]*|[ \t]{2}[a-z]+(?=[ \t]+⟦))", re.MULTILINE)
#: Discord's rule for a localised command or option name (letters of any script, digits, - and _)
NAME = re.compile(r"^[-_\w]{1,32}$")
CLI = "import sys; from bot.cli import main; sys.exit(main(sys.argv[1:]))"


def stray_words(text: str) -> list[str]:
    """The words of ``text`` that skipped the catalogues: ASCII words outside every pseudo bracket, but a
    :data:`CODE` and the notation of :data:`NOTATION_LINE`."""
    text = BOARD_CELL.sub(" ", NOTATION_LINE.sub("", text))  # a bracket may span lines: the text is one
    return [w for w in pseudo.unbracketed(text) if not CODE.fullmatch(w)]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-c", CLI, *args], input=stdin, capture_output=True, text=True,
                          env=ENV, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_the_scan_finds_a_stray_word_and_passes_codes_and_notation() -> None:
    """A word outside a bracket is found (so a clean scan means something); codes and notation are not."""
    text = ("⟦Ýóú ƥĺáý ⟦ŕéđ··⟧·⟧ Score: 3\n   1. choose H10   (⟦Çĥóóšé···⟧)\n> help\n⟦Ţŕášĥ··⟧ SA 14b\n"
            "G12:P           I12:.g  K12:.")
    assert stray_words(text) == ["Score"]


def test_the_pseudo_language_is_no_language_without_its_variable() -> None:
    """Players never see ``qps``: only the variable makes it a language."""
    assert catalogue.PSEUDO not in catalogue.languages(pseudo=False)
    assert catalogue.PSEUDO in catalogue.languages(pseudo=True)
    if not catalogue.pseudo_enabled():
        assert catalogue.PSEUDO not in catalogue.LANGS
    done = subprocess.run([sys.executable, "-c", "from rules.catalogue import LANGS; print(','.join(LANGS))"],
                          capture_output=True, text=True, env=ENV, cwd=ROOT, check=True)
    assert done.stdout.split() == [",".join((*catalogue.languages(pseudo=False), catalogue.PSEUDO))]


def test_a_pseudo_text_keeps_what_programs_read() -> None:
    """Placeholders, code spans, mentions, markdown, newlines and name marks stay; the words are accented,
    padded about 40 % and bracketed; a line-opening list mark stays outside the bracket."""
    english = "**{name}** rolled `roll 2`\nsee <@{user}> and \ufdd0Ann\ufdd1 🏁"
    text = pseudo.pseudo(english)
    assert text.startswith("⟦**{name}** ŕóĺĺéđ `roll 2`\nšéé <@{user}> áńđ \ufdd0Ann\ufdd1 🏁")
    assert text.endswith("⟧") and len(text) >= 1.4 * len(english)
    assert catalogue.placeholders(text) == catalogue.placeholders(english)
    assert pseudo.pseudo("- a list item").startswith("- ⟦")
    assert pseudo.forms("terminal.word.help", ("help,?",)) == ("ĥéĺƥ,?",)


def test_the_written_files_are_up_to_date() -> None:
    """Every ``qps`` file is what ``python -m bot.pseudo`` writes from the English files now."""
    stale = [str(path.relative_to(ROOT)) for path, text in writer.files().items()
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    assert stale == [], "run `python -m bot.pseudo`"


@pytest.mark.parametrize("game", ["races", "rally", "piecepack"])
def test_a_whole_demo_game_in_qps_says_every_word_through_a_catalogue(game: str, tmp_path: Path) -> None:
    """A demo game of each game in ``qps``: its standard output and error and every message's description."""
    laps = ["--laps", "1"] if game != "piecepack" else []
    done = run("demo", "--game", game, "--lang", "qps", "--out", str(tmp_path / "out"), "--seats", "2",
               "--seed", "7", "--db", str(tmp_path / "demo.db"), *laps)
    messages = sorted((tmp_path / "out").glob("message-*.txt"))
    assert messages, "the demo wrote its messages"
    found = {f"{where}: {word}" for where, text in [("stdout", done.stdout), ("stderr", done.stderr)]
             + [(m.name, m.read_text(encoding="utf-8")) for m in messages] for word in stray_words(text)}
    assert sorted(found) == []


@pytest.mark.parametrize("game", ["races", "rally", "piecepack"])
def test_the_terminal_in_qps_says_every_word_through_a_catalogue(game: str, tmp_path: Path) -> None:
    """``junkyard play`` in ``qps`` driven by a script: help, the moves, a move, status, board, the log."""
    script = "help\nlegal\n1\nstatus\nboard\nhand\nlog\nquit\n"
    done = run("play", "--game", game, "--lang", "qps", "--seats", "human,random", "--seed", "7",
               "--db", str(tmp_path / "play.db"), "--out", str(tmp_path / "out"), stdin=script)
    assert "ĥéĺƥ" in done.stdout, "the terminal answered in qps"
    assert sorted({w for text in (done.stdout, done.stderr) for w in stray_words(text)}) == []


REGISTRATION = """
import json
from discord import app_commands
from bot.discord import JunkyardBot
from bot.discord.translator import JunkyardTranslator
from bot.store import SqliteStore

where = app_commands.TranslationContextLocation
words = JunkyardTranslator()
out = []
for command in JunkyardBot(SqliteStore(":memory:")).tree.walk_commands():
    group = isinstance(command, app_commands.Group)
    name, describe = (where.group_name, where.group_description) if group else (where.command_name,
                                                                                where.command_description)
    out.append([command.qualified_name, "name", words.worded("qps", name, command)])
    out.append([command.qualified_name, "description", words.worded("qps", describe, command)])
    for parameter in getattr(command, "parameters", []):
        at = command.qualified_name + " " + parameter.name
        out.append([at, "name", words.worded("qps", where.parameter_name, parameter)])
        out.append([at, "description", words.worded("qps", where.parameter_description, parameter)])
        for choice in parameter.choices:
            out.append([at + " =" + str(choice.value), "choice", words.worded("qps", where.choice_name, choice)])
print(json.dumps(out))
"""


def test_every_slash_command_has_qps_words_within_discords_limits() -> None:
    """The translator gives every command, group, option and choice a ``qps`` name and description that
    Discord accepts: names lower case, ``^[-_\\w]{1,32}$``; descriptions and choice names at most 100."""
    done = subprocess.run([sys.executable, "-c", REGISTRATION], capture_output=True, text=True, env=ENV, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    items = json.loads(done.stdout)
    assert len(items) > 200, "every command was walked"
    problems = []
    for at, kind, text in items:
        if not text:
            problems.append(f"/{at}: no qps {kind}")
        elif kind == "name" and (not NAME.match(text) or text != text.lower()):
            problems.append(f"/{at}: {text!r} is no Discord name")
        elif len(text) > 100:
            problems.append(f"/{at}: {kind} longer than 100")
        elif kind != "name" and text.count(pseudo.OPEN) < 1:
            problems.append(f"/{at}: {kind} {text!r} is not pseudo")
    assert problems == []


LOOKUP = """
import json
from bot.games import units
from rules import lookup

units()
asked = {"races": "what happens if I get bumped into the water", "rally": "how do I move", "piecepack": "how do I move"}
print(json.dumps({game: [[[e.id, e.lang] for e in lookup.search(game, question, limit=3, lang=lang)]
                         for lang in ("qps", "en")] for game, question in asked.items()}))
"""


def test_the_rule_lookup_asked_in_qps_answers_with_the_english_entries() -> None:
    """No entry is written in ``qps`` and its lookup words are English's: a question asked in ``qps`` finds
    what the same question finds in English, the English entries."""
    done = subprocess.run([sys.executable, "-c", LOOKUP], capture_output=True, text=True, env=ENV, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    for game, (in_qps, in_english) in json.loads(done.stdout).items():
        assert in_qps and in_qps == in_english, game
        assert {lang for _, lang in in_qps} == {"en"}, game
