"""A championship's page: ``/g/TOKEN/championship``, opened by the page link of any of its rounds' games (the
same token, so revoking that game's page closes this one too).

It shows the table after the rounds run so far as the picture the channel got (with its description as the
picture's alternative text) and its few words, and lists every round with a link to its game's page (the
replay) when that game has one; a round not run yet, or whose page was revoked, is named without a link.
Everything is read from the store at each request and drawn from public things only: the games' results.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from bot import texts
from bot.standing import series
from bot.store import Championship, Store
from bot.terminal import plain
from bot.web import links
from rules.literal import Name


@dataclass(frozen=True, slots=True)
class Round:
    """One round on the page: its number, its setup in words and its game's page token (None: no page)."""

    number: int
    setup: str
    token: str | None


@dataclass(frozen=True, slots=True)
class View:
    """What the page shows: the championship, the few words, the picture and its description, the rounds."""

    champ: Championship
    words: str
    png: bytes | None
    description: str
    rounds: tuple[Round, ...]


def _setup(setup: dict[str, object], lang: str) -> str:
    laps, track = setup.get("laps"), Name(str(setup.get("track", "")))
    if isinstance(laps, int) and laps:
        return texts.say("championship.round_laps", lang, count=laps, track=track)
    return texts.say("championship.round_track", lang, track=track)


async def view(store: Store, token: str, lang: str) -> View | None:
    """The page of the championship whose round's game ``token`` opens, in ``lang``; None when the token opens
    no game, or a game that is no championship's round."""
    game_id = await links.game_of(store, token)
    if game_id is None:
        return None
    found = await store.championships.championship_of_game(game_id)
    if found is None:
        return None
    champ = found[0]
    played = await series.played(store, champ)
    leaders = await series.lap_leaders(store, champ, played)
    ratings = await series.rating_moves(store, played) if len(played) >= len(champ.rounds) else None
    message = series.table_message(champ, played, lang, leaders, ratings)
    games = dict(await store.championships.round_games(champ.id))
    rounds = []
    for number, setup in enumerate(champ.rounds, start=1):
        game = games.get(number)
        rounds.append(Round(number, _setup(setup, lang),
                            await links.current_token(store, game) if game is not None else None))
    return View(champ, message.text, message.png, message.description, tuple(rounds))


def document(page: View, token: str, lang: str, version: str) -> str:
    """The page's HTML in ``lang`` (the pages' style sheet of ``version``, no script)."""
    name = html.escape(plain(str(Name(page.champ.name))))
    words = "".join(f"<p>{html.escape(plain(line))}</p>" for line in page.words.splitlines() if line.strip())
    picture = ""
    if page.png is not None:
        picture = (f'<figure><img id="championship" src="/g/{token}/championship.png?lang={lang}" '
                   f'alt="{html.escape(page.description)}"></figure>')
    items = []
    for r in page.rounds:
        said = html.escape(texts.say("championship.web.round", lang, round=r.number, setup=plain(r.setup)))
        if r.token is not None:
            items.append(f'<li><a href="/g/{r.token}?lang={lang}">{said}</a></li>')
        else:
            items.append(f"<li>{said} · {html.escape(texts.say('championship.web.no_page', lang))}</li>")
    title = html.escape(texts.say("championship.web.title", lang, name=plain(str(Name(page.champ.name)))))
    description = html.escape(texts.say("championship.web.description", lang,
                                        name=plain(str(Name(page.champ.name)))))
    switch = " · ".join(f'<a href="/g/{token}/championship?lang={o}" hreflang="{o}" lang="{o}">'
                        f"{html.escape(texts.language_name(o, o))}</a>" for o in texts.LANGS if o != lang)
    return (f'<!doctype html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<meta name="referrer" content="no-referrer">\n<meta name="robots" content="noindex, nofollow">\n'
            f'<meta name="description" content="{description}">\n'
            f'<title>{title}</title>\n<link rel="stylesheet" href="/s/page.css?v={version}">\n</head>\n<body>\n'
            f'<header>\n  <h1>{name}</h1>\n  <nav class="langs">{switch}</nav>\n</header>\n<main>\n'
            f'  <section aria-labelledby="table-heading">\n'
            f'    <h2 id="table-heading">{html.escape(texts.say("championship.web.table", lang))}</h2>\n'
            f'    {picture}{words}\n  </section>\n'
            f'  <section aria-labelledby="rounds-heading">\n'
            f'    <h2 id="rounds-heading">{html.escape(texts.say("championship.web.rounds", lang))}</h2>\n'
            f'    <ol class="rounds">{"".join(items)}</ol>\n  </section>\n</main>\n'
            f'<footer>{html.escape(texts.say("web.footer", lang))}</footer>\n</body>\n</html>\n')


def page_url(base: str, token: str) -> str:
    """A championship's page under the operator's public base URL, by one of its rounds' page tokens."""
    return f"{links.page_url(base, token)}/championship"


__all__ = ["Round", "View", "document", "page_url", "view"]
