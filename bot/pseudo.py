"""Write the pseudo-language's files (``qps``, :mod:`rules.pseudo`) from the English ones:

    python -m bot.pseudo            write them (run after changing an English text or a command)

Every ``locale/en.po`` under bot, rules and render gets a ``qps.po`` beside it; ``bot/locale`` gets
``qps.lookup.toml`` (the English lookup words) and ``qps.commands.toml``; each game with commands gets its
``qps.commands.toml``. The command words come from the commands themselves (English is the commands' own
words), so this is a front: it builds the Discord command tree offline. ``tests/test_pseudo_locale.py``
regenerates in memory and fails when a written file is stale.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from rules import pseudo
from rules.catalogue import languages

ROOT = Path(__file__).resolve().parent.parent
#: the packages whose ``locale/`` folders are catalogues
PACKAGES = ("bot", "rules", "render")
#: Discord's limits: a name, a description, a choice's name
NAME_LIMIT, DESCRIPTION_LIMIT, CHOICE_LIMIT = 32, 100, 100

_HEADER = ('msgid ""\nmsgstr ""\n"Language: qps\\n"\n"MIME-Version: 1.0\\n"\n'
           '"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n'
           '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n')
_NOTE = "# Written by `python -m bot.pseudo` from the English files: do not edit.\n"


def domains() -> list[Path]:
    """Every catalogue folder (a ``locale/`` folder with an ``en.po``)."""
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("locale") if (p / "en.po").is_file())


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    lines = escaped.split("\n")
    if len(lines) == 1:
        return f'"{escaped}"'
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return '""\n' + "\n".join(f'"{part}"' for part in parts)


def catalogue_text(english: Path) -> str:
    """The ``qps.po`` of a domain from its ``en.po``."""
    with english.open("rb") as fh:
        catalog = read_po(fh, locale="en")
    out = [_NOTE, _HEADER]
    for message in catalog:
        if not message.id:
            continue
        plural = isinstance(message.id, (tuple, list))
        key = str(message.id[0] if plural else message.id)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        texts = tuple(str(s or "") for s in strings)
        forms = pseudo.forms(key, texts)
        if plural:
            out.append(f"msgid {_quoted(key)}\nmsgid_plural {_quoted(key)}\n"
                       + "".join(f"msgstr[{i}] {_quoted(form)}\n" for i, form in enumerate(forms)))
        else:
            out.append(f"msgid {_quoted(key)}\nmsgstr {_quoted(forms[0])}\n")
    return "\n".join(out)


def _toml(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def commands_text(words: dict[str, tuple[str, str]]) -> str:
    """A ``qps.commands.toml`` of English words by path, pseudo-ised within Discord's limits."""
    lines = [_NOTE.rstrip("\n"), "# Each path's words: [name, description] (see bot/locale/de.commands.toml).", ""]
    for path, (name, description) in words.items():
        if path.startswith("="):
            worded = pseudo.pseudo(name, CHOICE_LIMIT)
            lines.append(f"{_toml(path)} = [{_toml(worded)}, \"\"]")
        else:
            lines.append(f"{_toml(path)} = [{_toml(pseudo.name(name, NAME_LIMIT))}, "
                         f"{_toml(pseudo.pseudo(description, DESCRIPTION_LIMIT))}]")
    return "\n".join(lines) + "\n"


def _parameters(command: Any, prefix: str, offered: dict[str, str]) -> Iterator[tuple[str, tuple[str, str]]]:
    """A command's options and fixed choices as table paths with their English words."""
    for parameter in getattr(command, "parameters", []):
        description = str(parameter.description)
        if parameter.name in offered:  # a game's option of /game new or /game join: its games named apart
            path = f"{prefix}:{parameter.name}"
            description = description.removesuffix(f" ({offered[parameter.name]})")
        else:
            path = f"{command.qualified_name} {parameter.name}"
        yield path, (parameter.name, description)
        for choice in parameter.choices:
            yield f"={choice.value}", (str(choice.name), "")


def command_tables() -> dict[Path, dict[str, tuple[str, str]]]:
    """The English words of every command, option and choice, by the folder whose table holds them: the
    service's (``bot/locale``) for the generic commands, a game's unit folder for its own group and the
    ``/game new`` and ``/game join`` options it offers."""
    from bot import games, texts
    from bot.discord import JunkyardBot
    from bot.discord.translator import SETUP_COMMANDS
    from bot.store import SqliteStore

    offered = {prefix: {name: games.offered_by(offers) for name, offers in table.items()}
               for prefix, table in (("new", games.new_options()), ("join", games.join_options()))}
    folder_of = {unit.key: Path(sys.modules[type(unit).__module__].__file__ or "").parent for unit in games.units()}
    groups = {unit.commands.name: unit.key for unit in games.units() if unit.commands is not None}
    generic = ROOT / "bot" / "locale"
    tables: dict[Path, dict[str, tuple[str, str]]] = {generic: {}, **{f: {} for f in folder_of.values()}}
    client = JunkyardBot(SqliteStore(":memory:"))
    for command in client.tree.walk_commands():
        root = command.qualified_name.split()[0]
        table = tables[folder_of[groups[root]]] if root in groups else tables[generic]
        table.setdefault(command.qualified_name, (command.name, str(command.description)))
        prefix = SETUP_COMMANDS.get(command.qualified_name, "")
        for path, words in _parameters(command, prefix, offered.get(prefix, {})):
            if ":" in path:  # kept by each game that offers it
                for key in offered[prefix][path.split(":", 1)[1]].split(", "):
                    tables[folder_of[key]].setdefault(path, words)
            else:
                table.setdefault(path, words)
    for lang in languages(pseudo=True):  # a language's choice (of /rules language), the pseudo-language's too
        tables[generic].setdefault(f"={lang}", (texts.language_name(lang), ""))
    return {folder: table for folder, table in tables.items() if table}


def files() -> dict[Path, str]:
    """Every ``qps`` file's path → its text."""
    out = {folder / f"{pseudo.CODE}.po": catalogue_text(folder / "en.po") for folder in domains()}
    lookup = ROOT / "bot" / "locale"
    english = (lookup / "en.lookup.toml").read_text(encoding="utf-8")
    out[lookup / f"{pseudo.CODE}.lookup.toml"] = _NOTE + "# The pseudo-language reads questions as English.\n" + english
    for folder, table in command_tables().items():
        out[folder / f"{pseudo.CODE}.commands.toml"] = commands_text(table)
    return out


def main() -> int:
    """Write every ``qps`` file; print the ones that changed."""
    for path, text in files().items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
