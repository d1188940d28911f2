"""Texts from the catalogues: how long one text takes to say, in microseconds.

``texts_say`` says a service text (``your_turn``), a rally event with its worded parameters (``lose``: a
car, a supply with its article) and a counted rally text (``win``), each in English and German, and prints
the median time per call; texts are said on every move, status and picture.
"""

from __future__ import annotations

from collections.abc import Callable

from bench.registry import Figures, benchmark, median_ms
from bot.texts import LANGS

CALLS = 2000


@benchmark("texts_say")
def texts_say() -> Figures:
    from bot import texts
    from rules.rally import texts as rally

    cases: dict[str, Callable[[str], str]] = {
        "service": lambda lang: texts.say("your_turn", lang, user=5),
        "rally_event": lambda lang: rally.say("lose", lang, car="red", name="Ann", item="engine", gear=5),
        "rally_counted": lambda lang: rally.say("win", lang, car="red", name="Ann", laps=3, count=3),
    }
    out: Figures = {}
    for name, say in cases.items():
        for lang in LANGS:
            def run(say: Callable[[str], str] = say, lang: str = lang) -> None:
                for _ in range(CALLS):
                    say(lang)

            ms = median_ms(run)
            out[f"{name}_{lang}_us"] = round(ms * 1000 / CALLS, 2)
    return out
