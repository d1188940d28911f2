"""The command reference (``bot/discord/COMMANDS.md``): every slash command, option and choice as ``junkyard
sync`` registers them (the same command tree, :meth:`bot.discord.client.JunkyardBot.add_app_commands`, and
the same German words, :mod:`bot.discord.translator`), in English and German. ``junkyard commands --write``
writes it; a test fails when the file and the registration differ."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord.translator import LOCALE, JunkyardTranslator

#: where the reference is kept
REFERENCE = Path(__file__).with_name("COMMANDS.md")

#: Discord's option types, as the reference names them
OPTION_TYPES = {3: "text", 4: "integer", 5: "true/false", 6: "user", 7: "channel", 8: "role", 9: "user or role",
                10: "number", 11: "attachment"}

HEADER = """# Slash commands

Every command, option and choice the bot registers (`junkyard sync`), in English and, after the slash, in
German, as Discord shows them to a player whose client speaks German. Made by `junkyard commands --write`
from the registered commands; do not edit it by hand (a test fails when it differs from them).
"""


async def registered() -> list[dict[str, Any]]:
    """The payload ``junkyard sync`` sends Discord: every command with its German names and descriptions."""
    from bot.discord import JunkyardBot
    from bot.store import SqliteStore

    client = JunkyardBot(SqliteStore(":memory:"))
    try:
        translator = JunkyardTranslator()
        await client.tree.set_translator(translator)
        return [await command.get_translated_payload(client.tree, translator)
                for command in client.tree.get_commands()]
    finally:
        await client.close()


def _de(item: dict[str, Any], key: str) -> str:
    return str((item.get(f"{key}_localizations") or {}).get(LOCALE.value, item.get(key, "")))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _options(options: list[dict[str, Any]]) -> list[str]:
    if not options:
        return ["No options.", ""]
    rows = ["| option | Option | type | required | description | Beschreibung | choices / Auswahl |",
            "|---|---|---|---|---|---|---|"]
    for o in options:
        choices = "; ".join(f"`{c['value']}` {c['name']} / {_de(c, 'name')}" for c in o.get("choices", []))
        rows.append(f"| `{o['name']}` | `{_de(o, 'name')}` | {OPTION_TYPES.get(o['type'], str(o['type']))} | "
                    f"{'yes' if o.get('required') else 'no'} | {_cell(o.get('description', ''))} | "
                    f"{_cell(_de(o, 'description'))} | {_cell(choices)} |")
    return [*rows, ""]


def reference(commands: list[dict[str, Any]]) -> str:
    """The reference in Markdown: a section per command a player types, in the order of registration."""
    out = [HEADER]

    def walk(item: dict[str, Any], english: str, german: str, level: int) -> None:
        english = f"{english} {item['name']}".strip()
        german = f"{german} {_de(item, 'name')}".strip()
        subs = [o for o in item.get("options", []) if o["type"] in (1, 2)]  # subcommands and their groups
        out.append(f"{'#' * level} `/{english}` · `/{german}`\n")
        out.append(f"{_cell(item.get('description', ''))}  \n*{_cell(_de(item, 'description'))}*\n")
        if not subs:
            out.extend(_options(item.get("options", [])))
        for sub in subs:
            walk(sub, english, german, min(level + 1, 4))

    for command in commands:
        walk(command, "", "", 2)
    return "\n".join(out).rstrip("\n") + "\n"


async def current_reference() -> str:
    """The reference of the commands as registered now."""
    return reference(await registered())


__all__ = ["REFERENCE", "current_reference", "reference", "registered"]
