"""The structure the design asks for: a game is one unit, and the generic modules (the service, the store,
the terminal, the command-line commands and the Discord front) name no game and import no game's
package; importing the front-end-neutral modules does not load discord.py."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import bot.games as games

ROOT = Path(__file__).resolve().parents[1]
GENERIC = sorted([ROOT / "bot" / "service.py", ROOT / "bot" / "store.py", ROOT / "bot" / "terminal.py",
                  *(ROOT / "bot" / "commands").glob("*.py"), *(ROOT / "bot" / "discord").glob("*.py")])


def game_words() -> list[str]:
    """Every game's key and title."""
    return sorted({w for unit in games.units() for w in (unit.key, unit.title)})


def game_packages() -> list[str]:
    """The packages and modules that belong to one game: its unit's package, its rules package, its
    drivers' modules, and the per-game packages of bot.games, bot.drivers, rules and render."""
    out = set()
    for unit in games.units():
        out.add(type(unit).__module__.rsplit(".", 1)[0] if type(unit).__module__.count(".") > 2
                else type(unit).__module__)
        out.add(unit.rules.__module__.rsplit(".", 1)[0])
        out.update(f.__module__ for f in unit.drivers.values())
        out.update(f"{top}.{unit.key}" for top in ("bot.games", "bot.drivers", "rules", "render"))
    return sorted(out)


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes (prose may use a game as an example)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def problems(source: str, words: list[str], packages: list[str]) -> list[str]:
    """Where ``source`` names a game (in a string or a name; docstrings and comments aside) or imports
    one of a game's packages."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found = []
    patterns = [(w, re.compile(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", re.IGNORECASE)) for w in words]
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = [a.name for a in node.names]
            modules = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            modules += names if isinstance(node, ast.Import) else [f"{node.module}.{n}" for n in names]
            for mod in modules:
                if any(mod == p or mod.startswith(p + ".") for p in packages):
                    found.append(f"line {node.lineno}: imports {mod}")
        for text in texts:
            for word, pattern in patterns:
                if pattern.search(text.replace("_", " ")):
                    found.append(f"line {node.lineno}: names {word!r} in {text[:60]!r}")
    return found


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_generic_module_names_no_game_and_imports_no_games_package(path):
    assert problems(path.read_text(encoding="utf-8"), game_words(), game_packages()) == []


def test_the_checker_finds_a_game_key_a_title_and_a_games_import():
    """The check above can fail: a branch on a key, a title in a message and an import of a game's
    package are all found; the same words in a docstring are prose and pass."""
    words, packages = game_words(), game_packages()
    unit = games.units()[0]
    source = (f'"""Plays {unit.title} ({unit.key}) among others."""\n'
              f"import {packages[0]}\n"
              f"def f(game):\n    return game.key == {unit.key!r}\n"
              f"MESSAGE = 'Welcome to {unit.title}!'\n")
    found = problems(source, words, packages)
    assert sorted({p.split(":")[0] for p in found}) == ["line 2", "line 4", "line 5"], found


def test_every_generic_module_is_checked():
    names = {p.name for p in GENERIC}
    assert {"service.py", "store.py", "terminal.py", "demo.py", "play.py", "client.py", "game_commands.py"} <= names


@pytest.mark.parametrize("module", ["bot.service", "bot.games", "bot.terminal", "bot.commands.demo",
                                    "bot.commands.play", "bot.commands.replay"])
def test_importing_a_front_end_neutral_module_does_not_load_discord(module):
    """Checked in a fresh interpreter: loading every game's unit must not pull discord.py in either."""
    code = (f"import sys, importlib; importlib.import_module({module!r}); import bot.games as g; g.units(); "
            "print(sorted(m for m in sys.modules if m == 'discord' or m.startswith('discord.')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_the_list_of_games_exists_once():
    """Each listed module holds one unit, registered under its rules' key; the rules registry holds no list
    of its own."""
    import importlib

    import rules.registry

    for name in games.GAMES:
        unit = importlib.import_module(name).GAME
        assert games.unit_for(unit.key) is unit
        assert rules.registry.game_class(unit.key) is unit.rules
    assert not any(isinstance(v, tuple | list) and v and all(isinstance(x, str) and "." in x for x in v)
                   for v in vars(rules.registry).values())
