"""Every catalogue of texts is complete in every language (:func:`rules.catalogue.languages`, read from the
service's catalogue files, the pseudo-language ``qps`` included): each domain (every ``locale/`` folder under
bot, rules and render) parses, every id of its ``en.po`` has a text in each other language with exactly the
English placeholders (form by form for a counted text), and every message id the code asks for by a literal
exists in its domain."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from rules.catalogue import Catalogue, languages, placeholders

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "rules", "render")
#: every language with catalogues, the pseudo-language too (offered only with its variable, checked always)
ALL_LANGS = languages(pseudo=True)
DOMAINS = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("locale") if p.is_dir())


def domain_id(folder: Path) -> str:
    return str(folder.relative_to(ROOT))


def test_the_known_domains_are_found() -> None:
    """The scan finds the service's and the rally's catalogues (so an empty scan cannot pass)."""
    found = {domain_id(d) for d in DOMAINS}
    assert {"bot/locale", "rules/rally/locale"} <= found, found


@pytest.fixture(params=DOMAINS, ids=domain_id)
def domain(request: pytest.FixtureRequest) -> Path:
    return Path(request.param)


@pytest.mark.parametrize("lang", ALL_LANGS)
def test_each_file_parses_with_its_plural_rule_and_charset(domain: Path, lang: str) -> None:
    path = domain / f"{lang}.po"
    assert path.exists(), f"{path} is missing"
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang, abort_invalid=True)
    headers = dict(catalog.mime_headers)
    assert "charset=UTF-8" in headers.get("Content-Type", "").replace("utf-8", "UTF-8"), headers
    assert headers.get("Plural-Forms", "").startswith("nplurals="), headers
    ids = [m.id[0] if isinstance(m.id, (list, tuple)) else m.id for m in catalog if m.id]
    assert len(ids) == len(set(ids)), "an id appears twice"
    # lower_snake words dotted by area; a segment may be a piece of data as the rules write it (``facing.NE``)
    bad = [i for i in ids if not re.fullmatch(r"[a-z][a-z0-9_]*(\.[A-Za-z0-9_\-]+)*", str(i))]
    assert not bad, f"ids are stable names, not prose: {bad[:5]}"


@pytest.mark.parametrize("lang", ALL_LANGS[1:])
def test_every_english_text_has_one_in_each_language_with_the_same_placeholders(domain: Path, lang: str) -> None:
    """Every id of a domain's English file has a text in each other language of the catalogues (German
    today), with the English placeholders, and no language has an id English lacks."""
    catalogue = Catalogue(domain)
    english, other = catalogue.entries("en"), catalogue.entries(lang)
    missing = sorted(msg for msg in english if not all(other.get(msg, ("",))))
    assert not missing, f"{domain_id(domain)}: no {lang} text for {missing}"
    extra = sorted(set(other) - set(english))
    assert not extra, f"{domain_id(domain)}: {lang} texts without an English id: {extra}"
    wrong = []
    for msg, en_forms in english.items():
        assert all(en_forms), f"{domain_id(domain)}: {msg} has an empty English form"
        forms = other[msg]
        assert (len(en_forms) > 1) == (len(forms) > 1), f"{msg}: counted in one language only"
        for i, text in enumerate(forms):
            wanted = en_forms[i] if len(forms) == len(en_forms) else "".join(en_forms)
            if placeholders(text) != placeholders(wanted):
                wrong.append((msg, i, sorted(placeholders(wanted)), sorted(placeholders(text))))
    assert not wrong, f"{domain_id(domain)}: placeholders differ (id, form, English, {lang}): {wrong}"


# The ids the code asks for -----------------------------------------------------------------------------

#: callables whose first argument is a message id of the domain of the module they come from
ID_FIRST = {"say", "template", "Refusal", "BadNotation", "BadSetting", "BadQuietHours", "_event"}
#: methods of a game whose second argument is the id of the event they make (``emit(kind, msg, …)``)
ID_SECOND = {"emit"}


def _module_file(module: str) -> Path | None:
    base = ROOT.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


#: bot's group folders: their modules speak from bot/locale
BOT_GROUP_FOLDERS = ("play", "telling", "clock", "standing", "upkeep")


def _domain_of(path: Path | None) -> Path | None:
    """The catalogue a module speaks from: the ``locale/`` folder beside it, or for a module of one of bot's
    groups (``bot/play/lobby.py``) the service's own, ``bot/locale``."""
    if path is None:
        return None
    folder = path.parent / "locale"
    if path.parent.parent == ROOT / "bot" and path.parent.name in BOT_GROUP_FOLDERS:
        folder = SERVICE_TEXTS
    return folder if folder.is_dir() else None


def _names(tree: ast.Module, path: Path) -> dict[str, Path | None]:
    """Local names of imported modules and functions → the file they come from."""
    out: dict[str, Path | None] = {}
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                module = ".".join([*package.split(".")[: len(package.split(".")) - node.level + 1], module])
            for alias in node.names:
                local = alias.asname or alias.name
                out[local] = _module_file(f"{module}.{alias.name}") or _module_file(module)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = _module_file(alias.name)
    return out


def _literals(node: ast.AST) -> Iterator[tuple[str, bool]]:
    """Message ids a node can be: ``(text, exact)``; an f-string gives its fixed start (not exact)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value, True
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        start = str(node.values[0].value)
        if start:
            yield start, False


def _helpers(tree: ast.Module) -> dict[str, int]:
    """A module's own helpers that take a message id: function or method name → the position of its ``msg``
    parameter among the arguments of a call (``self`` not counted)."""
    out: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            params = [a.arg for a in node.args.args]
            if "msg" in params:
                out[node.name] = params.index("msg") - (1 if params[0] in ("self", "cls") else 0)
    return out


#: the catalogue of the service's own texts, which the lines of a message's record name (``Line(say=…)``)
SERVICE_TEXTS = ROOT / "bot" / "locale"


def asked_ids() -> Iterator[tuple[str, int, Path, str, bool]]:
    """(file, line, domain, id, exact) of every id the code asks a catalogue for by a literal."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = _names(tree, path)
            own = _domain_of(path)
            helpers = _helpers(tree)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                called = node.func.id if isinstance(node.func, ast.Name) else \
                    node.func.attr if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                    and node.func.value.id == "self" else None
                if called in helpers and called not in ID_FIRST and "texts" in names \
                        and len(node.args) > helpers[called]:
                    # a module's own wrapper (the terminal's ``words``, a command's ``_refuse``) of its texts
                    domain = _domain_of(names["texts"])
                    if domain is not None:
                        for text, exact in _literals(node.args[helpers[called]]):
                            yield str(path.relative_to(ROOT)), node.lineno, domain, text, exact
                if own is not None:  # IllegalAction(text, msg=…) and its kind: the id of a refusal
                    for keyword in node.keywords:
                        if keyword.arg == "msg":
                            for text, exact in _literals(keyword.value):
                                yield str(path.relative_to(ROOT)), node.lineno, own, text, exact
                    if isinstance(node.func, ast.Attribute) and node.func.attr in ID_SECOND and len(node.args) > 1:
                        for text, exact in _literals(node.args[1]):
                            yield str(path.relative_to(ROOT)), node.lineno, own, text, exact
                if isinstance(node.func, ast.Name) and node.func.id == "Line":  # a line of a message's record
                    for keyword in node.keywords:
                        if keyword.arg == "say":
                            for text, exact in _literals(keyword.value):
                                yield str(path.relative_to(ROOT)), node.lineno, SERVICE_TEXTS, text, exact
                if not node.args:
                    continue
                func, domain = node.func, None
                if isinstance(func, ast.Name) and func.id in ID_FIRST:
                    domain = _domain_of(names[func.id]) if func.id in names else own
                elif isinstance(func, ast.Attribute) and func.attr in ("say", "template") \
                        and isinstance(func.value, ast.Name):
                    if func.value.id == "CATALOGUE":
                        domain = _domain_of(names["CATALOGUE"]) if "CATALOGUE" in names else own
                    elif func.value.id in names:
                        domain = _domain_of(names[func.value.id])

                if domain is None:
                    continue
                for text, exact in _literals(node.args[0]):
                    yield str(path.relative_to(ROOT)), node.lineno, domain, text, exact


def test_the_scan_finds_the_ids_the_code_asks_for() -> None:
    """The scan sees ids asked through each way of asking (so it cannot pass by finding nothing)."""
    found = {(where, text) for where, _, _, text, _ in asked_ids()}
    assert ("bot/play/lobby.py", "lobby.opened") in found
    assert ("bot/discord/timing_commands.py", "notify.set") in found
    assert ("rules/rally/game.py", "must_move") in found
    assert any(where == "bot/clock/settings.py" and text == "settings.bad_" for where, text in found)  # an f-string
    assert ("bot/terminal.py", "terminal.to_act") in found  # a wrapper of the module's texts
    assert ("bot/discord/timing_commands.py", "notify.bad_mode") in found


def test_every_id_the_code_asks_for_exists_in_its_domain() -> None:
    ids = {domain: Catalogue(domain).ids for domain in DOMAINS}
    unknown = []
    for where, line, domain, text, exact in asked_ids():
        known = ids.get(domain, frozenset())
        if (text not in known) if exact else not any(i.startswith(text) for i in known):
            unknown.append(f"{where}:{line} {text!r} ({domain_id(domain)})")
    assert not unknown, "ids not in their catalogue:\n" + "\n".join(unknown)


def test_a_count_given_to_a_text_that_counts_nothing_is_ignored(tmp_path: Path) -> None:
    """Asking a plain text with ``count=`` (a rule passes the number it counts along with every event)
    gives the text, not its id."""
    header = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n' \
             '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
    for lang, text in (("en", "Nothing left."), ("de", "Nichts mehr da.")):
        (tmp_path / f"{lang}.po").write_text(header + f'msgid "none"\nmsgstr "{text}"\n', encoding="utf-8")
    assert Catalogue(tmp_path).say("none", "de", count=0) == "Nichts mehr da."
