"""Discord's limits in the longest language: a whole game of each game (Junkyard Races, Schrottplatz Rally,
Junkyard for a piecepack) played through the offline Discord stack in the pseudo-language ``qps`` (texts
about 40 % longer than English), as ``tests/bot/test_discord_spec_messages.py`` plays it. Every body the bot
sends keeps within Discord's limits, and none got there by being cut short (:func:`~bot.discord.buttons.clip`
notes each cut while a test listens; a cut that only a person's name made necessary is allowed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord.buttons import clip, recording_cuts
from rules import catalogue
from rules.literal import mark

ROOT = Path(__file__).resolve().parents[2]

#: the most characters of a text in a message's body, by the object it is in and its key
EMBED = {"title": 256, "description": 4096}
FIELD = {"name": 256, "value": 1024}
OPTION = {"label": 100, "description": 100}
#: a component's texts by its type: a button, the selects, a modal's text input
COMPONENT = {2: {"label": 80}, 3: {"placeholder": 150}, 4: {"label": 45, "placeholder": 100},
             5: {"placeholder": 150}, 6: {"placeholder": 150}, 7: {"placeholder": 150}, 8: {"placeholder": 150}}


def _over(where: str, place: dict[str, Any], limits: dict[str, int]) -> Iterator[str]:
    for key, most in limits.items():
        text = place.get(key)
        if isinstance(text, str) and len(text) > most:
            yield f"{where}.{key}: {len(text)} > {most}"


def _component(where: str, item: dict[str, Any]) -> Iterator[str]:
    yield from _over(where, item, COMPONENT.get(item.get("type", 0), {}))
    for i, option in enumerate(item.get("options") or ()):
        yield from _over(f"{where}.options[{i}]", option, OPTION)
    for i, inner in enumerate(item.get("components") or ()):
        yield from _component(f"{where}.components[{i}]", inner)


def over_limits(body: dict[str, Any], modal: bool = False) -> list[str]:
    """Every text of a message body (or a callback's ``data``) longer than Discord takes."""
    found = list(_over("", body, {"content": 2000, **({"title": 45} if modal else {})}))
    for i, embed in enumerate(body.get("embeds") or ()):
        found += _over(f"embeds[{i}]", embed, EMBED)
        found += _over(f"embeds[{i}].footer", embed.get("footer") or {}, {"text": 2048})
        for j, item in enumerate(embed.get("fields") or ()):
            found += _over(f"embeds[{i}].fields[{j}]", item, FIELD)
    for i, item in enumerate(body.get("components") or ()):
        found += _component(f"components[{i}]", item)
    for i, item in enumerate(body.get("attachments") or ()):
        found += _over(f"attachments[{i}]", item, {"description": 1024})
    for i, item in enumerate(body.get("choices") or ()):
        found += _over(f"choices[{i}]", item, {"name": 100})
    return found


def test_the_check_names_each_text_over_its_limit_and_a_cut_is_noted_unless_a_name_made_it() -> None:
    """The checks themselves: a button label of 81, a modal title of 46, a select option of 101, an embed
    field value of 1025 are named; a cut of our words is noted, a cut a long name made is not."""
    body = {"content": "x", "title": "t" * 46,
            "embeds": [{"title": "t", "fields": [{"name": "n", "value": "v" * 1025}]}],
            "components": [{"type": 1, "components": [{"type": 2, "label": "b" * 81},
                                                      {"type": 3, "options": [{"label": "o" * 101}]}]}]}
    assert over_limits(body, modal=True) == [".title: 46 > 45", "embeds[0].fields[0].value: 1025 > 1024",
                                             "components[0].components[0].label: 81 > 80",
                                             "components[0].components[1].options[0].label: 101 > 100"]
    assert over_limits({"content": "c" * 2000, "choices": [{"name": "n" * 100}]}) == []
    with recording_cuts() as cuts:
        assert clip("w" * 90, 80) == "w" * 79 + "…"
        clip("Ready, " + "n" * 90, 80, ours=len("Ready, "))
    assert [c.limit for c in cuts] == [80]
    assert mark("a*b") != "a*b"  # a name with markdown is a marked span (what ``ours`` leaves out)


def played(game: str, folder: Path) -> dict[str, Any]:
    """What a whole game of ``game`` in ``qps`` sent, and what was cut (from ``tests/bot/limits_child.py``)."""
    env = {**os.environ, catalogue.PSEUDO_VARIABLE: "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tests.bot.limits_child", game, str(folder)], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("game", ["races", "rally", "piecepack"])
def test_a_whole_game_in_qps_keeps_every_text_within_discords_limits_uncut(game: str, tmp_path: Path) -> None:
    """Content ≤ 2000, embed title ≤ 256, description ≤ 4096, field name ≤ 256 and value ≤ 1024, footer
    ≤ 2048, button label ≤ 80, select option ≤ 100, placeholder ≤ 150, modal title ≤ 45, attachment
    description ≤ 1024, autocomplete choice ≤ 100; and no text cut to get there."""
    sent = played(game, tmp_path)
    assert len(sent["bodies"]) > 50, "a whole game was played"
    problems = []
    for kind, response, payload in sent["bodies"]:
        body = payload.get("data") or {} if kind == "callback" else payload
        problems += [f"{kind} {response}: {p}" for p in over_limits(body, modal=response == 9)]
    assert problems == []
    assert [f"{limit}: {text[:200]!r}…" for text, limit in sent["cuts"]] == []
