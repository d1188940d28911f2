"""The README's worked turn, replayed: its position, its actions and the narration it quotes."""

from __future__ import annotations

import json
import re
from importlib import resources

from rules.rally import RallyGame


def section(title: str) -> str:
    text = resources.files("rules.rally").joinpath("README.md").read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_the_worked_turn_replays_as_written() -> None:
    part = section("A worked turn")
    found = re.search(r"```json\n(.*?)\n```", part, re.S)
    assert found is not None
    position = json.loads(found.group(1))
    steps = re.findall(r"^\d+\. `([^`]+)` → (.*?)(?=^\d+\. |\n\n|\Z)", part, re.S | re.M)
    assert len(steps) == 3
    g = RallyGame.from_position(position)
    checked = 0
    for action, told in steps:
        events = g.apply(action)
        quoted = re.findall(r'"([^"]+)"', told.replace("\n   ", " "))
        assert quoted == [e.text for e in events]
        legal = re.search(r"`((?:move|park) [^`]*)`\.?$", told.strip().replace("\n   ", " "))
        if legal:
            assert g.describe_legal() == legal.group(1)
            checked += 1
    assert checked == 2 and g.to_act == 1
