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
GENERIC = sorted([*(ROOT / "bot" / "play" / name for name in ("service.py", "lobby.py", "reading.py", "seats.py",
                                                              "autoplay.py", "moving.py", "memory.py")),
                  ROOT / "bot" / "terminal.py", *(ROOT / "bot" / "store").glob("*.py"),
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
    names = {p.relative_to(ROOT / "bot").as_posix() for p in GENERIC}
    assert {"play/service.py", "play/lobby.py", "play/reading.py", "play/seats.py", "store/sqlite.py",
            "store/postgres.py", "store/interface.py", "terminal.py", "commands/demo.py", "commands/play.py",
            "discord/client.py", "discord/game_commands.py"} <= names


@pytest.mark.parametrize("module", ["bot.play.service", "bot.games", "bot.terminal", "bot.commands.demo",
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


# Imports: no cycles, layers one way --------------------------------------------------------------------

PRODUCT = ("bot", "rules", "render")


def product_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the product packages, by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for package in PRODUCT:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the product modules it imports, at the top, inside a function or for the type checker alone
    (under ``if TYPE_CHECKING:``: a cycle there is a cycle of the design too); ``from package import name``
    counts as the submodule when ``name`` is one."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.add(full if full in modules else base)
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other round a circle (strongly connected, more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_product_has_no_import_cycle() -> None:
    graph = import_graph(product_modules())
    assert cycles(graph) == [], {m: sorted(graph[m]) for group in cycles(graph) for m in group}


def test_the_cycle_check_sees_imports_inside_functions_and_those_for_the_type_checker(tmp_path: Path) -> None:
    """An import inside a function closes a cycle, and so does one made for the type checker alone."""
    (tmp_path / "bot").mkdir()
    (tmp_path / "rules").mkdir()
    (tmp_path / "render").mkdir()
    (tmp_path / "bot" / "__init__.py").write_text("")
    (tmp_path / "bot" / "a.py").write_text("def f():\n    from bot import b\n")
    (tmp_path / "bot" / "b.py").write_text("from bot.a import f\n")
    (tmp_path / "bot" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                           "if TYPE_CHECKING:\n    from bot import d\n")
    (tmp_path / "bot" / "d.py").write_text("import bot.c\n")
    (tmp_path / "bot" / "e.py").write_text("import bot.a\n")
    graph = import_graph(product_modules(tmp_path))
    assert cycles(graph) == [["bot.a", "bot.b"], ["bot.c", "bot.d"]]
    assert graph["bot.c"] == {"bot.d"}


#: the service's helper modules: each takes only the parts of the service it uses, never the service itself
SERVICE_HELPERS = ("play/autoplay", "play/boards", "play/computers", "telling/delivery", "upkeep/forget",
                   "standing/history", "play/lobby", "local", "play/memory", "play/moving", "clock/notices",
                   "play/plans", "play/reading", "clock/recap", "play/seats", "play/takeback", "clock/timers",
                   "play/undo")


def service_parameters(source: str) -> list[str]:
    """``function(parameter)`` for every parameter annotated with the service (``Service``, quoted or not)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]:
                if a is not None and a.annotation is not None and re.search(
                        r"\bService\b", ast.unparse(a.annotation)):
                    out.append(f"{node.name}({a.arg})")
    return out


@pytest.mark.parametrize("name", SERVICE_HELPERS)
def test_no_helper_of_the_service_takes_or_imports_it(name: str) -> None:
    """A helper module names the few things it needs (the store or a part of it, a small Protocol the service
    satisfies), so it neither takes the service nor imports :mod:`bot.play.service`, not even for the type
    checker."""
    path = ROOT / "bot" / f"{name}.py"
    assert service_parameters(path.read_text(encoding="utf-8")) == []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    imported += [f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names]
    assert [m for m in imported if m == "bot.play.service" or m.startswith("bot.play.service.")] == []


def test_the_helper_check_sees_a_parameter_annotated_with_the_service() -> None:
    source = ("async def f(store: Store, service: Service) -> None: ...\n"
              "def g(*, service: 'Service | None' = None) -> None: ...\n"
              "def h(services: ServiceLike) -> None: ...\n")
    assert service_parameters(source) == ["f(service)", "g(service)"]


@pytest.mark.parametrize(("package", "forbidden"), [("rules", "render"), ("rules", "bot"), ("render", "bot")])
def test_layers_import_one_way(package: str, forbidden: str) -> None:
    """rules imports neither render nor bot; render does not import bot."""
    graph = import_graph(product_modules())
    wrong = sorted(f"{m} imports {d}" for m, deps in graph.items() if m.split(".")[0] == package
                   for d in deps if d.split(".")[0] == forbidden)
    assert wrong == []


def _imports_of(prefix: str) -> dict[str, set[str]]:
    graph = import_graph(product_modules())
    return {m: deps for m, deps in graph.items() if m == prefix or m.startswith(prefix + ".")}


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@pytest.mark.parametrize("forbidden", ["bot.games", "bot.drivers", "rules", "render", "bot.play.service",
                                       "bot.discord"])
def test_the_store_imports_neither_the_games_nor_the_service(forbidden: str) -> None:
    """The store keeps rows: which class a game's state belongs to is the caller's business. Its upgrade's step
    that writes people into stored texts as person spans (:data:`STORE_MAY_READ`) knows how a span is written,
    which is no game's."""
    wrong = sorted(f"{m} imports {d}" for m, deps in _imports_of("bot.store").items()
                   for d in deps if _under(d, forbidden) and (m, d) not in STORE_MAY_READ)
    assert wrong == []


#: what the store imports of the rules: the marks of our texts, for the upgrade of stored ones
STORE_MAY_READ = {("bot.store.people", "rules.literal")}


@pytest.mark.parametrize("forbidden", ["bot.play.service", "bot.discord", "bot.store"])
def test_no_game_unit_imports_the_service(forbidden: str) -> None:
    """A game's unit describes the game; who may act and how it is stored belong to the service."""
    wrong = sorted(f"{m} imports {d}" for m, deps in _imports_of("bot.games").items()
                   for d in deps if _under(d, forbidden))
    assert wrong == []



# The groups of bot/: each imports only the groups its row names ----------------------------------------

#: group → the packages and modules it holds (``bot`` alone: the package's own ``__init__``)
BOT_GROUPS: dict[str, tuple[str, ...]] = {
    "base": ("bot", "bot.texts", "bot.messages", "bot.locale", "bot.store", "bot.games", "bot.drivers"),
    "telling": ("bot.telling",),
    "clock": ("bot.clock",),
    "standing": ("bot.standing",),
    "upkeep": ("bot.upkeep",),
    "play": ("bot.play",),
    "fronts": ("bot.cli", "bot.pseudo", "bot.terminal", "bot.local", "bot.commands", "bot.discord", "bot.web",
               "bot.deploy"),
}
#: group → the groups it may import (its own included); rules and render are below them all
MAY_IMPORT: dict[str, frozenset[str]] = {
    "base": frozenset({"base"}),
    "telling": frozenset({"base", "telling"}),
    "clock": frozenset({"base", "telling", "clock"}),
    "standing": frozenset({"base", "telling", "standing"}),
    "upkeep": frozenset({"base", "upkeep"}),
    "play": frozenset({"base", "telling", "clock", "standing", "play"}),
    "fronts": frozenset(BOT_GROUPS),
}


def group_of(module: str) -> str | None:
    """The group holding ``module`` (the longest prefix listed wins), None when no group does."""
    best: tuple[int, str | None] = (-1, None)
    for group, prefixes in BOT_GROUPS.items():
        for prefix in prefixes:
            if (module == prefix or (prefix != "bot" and module.startswith(prefix + "."))) and len(prefix) > best[0]:
                best = (len(prefix), group)
    return best[1]


def against_the_groups(graph: dict[str, set[str]]) -> list[str]:
    """``module imports other`` for every import of bot's modules that its group's row does not allow, and
    ``module: in no group`` for a module of bot no group holds."""
    found = []
    for module, deps in sorted(graph.items()):
        if module.split(".")[0] != "bot":
            continue
        group = group_of(module)
        if group is None:
            found.append(f"{module}: in no group")
            continue
        for dep in sorted(deps):
            other = group_of(dep) if dep.split(".")[0] == "bot" else None
            if other is not None and other not in MAY_IMPORT[group]:
                found.append(f"{module} ({group}) imports {dep} ({other})")
    return found


def test_every_import_of_bot_goes_the_way_its_groups_allow() -> None:
    assert against_the_groups(import_graph(product_modules())) == []


def test_the_group_table_names_every_package_of_bot() -> None:
    """A new package or top-level module of bot is placed in a group before it is used."""
    tops = {f"bot.{p.stem}" for p in (ROOT / "bot").iterdir()
            if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and not p.name.startswith("__"))}
    assert {t for t in tops if group_of(t) is None} == set()
    assert set(MAY_IMPORT) == set(BOT_GROUPS)


def test_the_group_check_finds_an_import_against_the_table(tmp_path: Path) -> None:
    """telling importing play goes against its row, play importing telling is allowed, and a module outside
    every group is named."""
    for package in ("bot", "bot/telling", "bot/play", "rules", "render"):
        (tmp_path / package).mkdir(parents=True, exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "bot" / "telling" / "a.py").write_text("def f():\n    from bot.play import b\n")
    (tmp_path / "bot" / "play" / "b.py").write_text("from bot.telling.a import f\nimport rules\n")
    (tmp_path / "bot" / "stray.py").write_text("")
    assert against_the_groups(import_graph(product_modules(tmp_path))) == [
        "bot.stray: in no group", "bot.telling.a (telling) imports bot.play.b (play)"]


# Design documents: every one the code or the docs name exists ------------------------------------------

_DOC = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.md)\b")


def dangling_doc_references(root: Path = ROOT) -> list[str]:
    """``file: name`` for every ``*.md`` named in the product, the tests, the benchmarks or the docs that
    is not there: a path is read from the file's folder or the top of the repository, a bare name may be
    any document of the repository (``RULINGS.md``)."""
    files = [p for top in ("bot", "rules", "render", "tests", "bench") for p in (root / top).rglob("*")
             if p.suffix in (".py", ".md") and "node_modules" not in p.parts]  # npm's packages are not ours
    files += [p for p in root.glob("*.md")]
    existing = {p.name for p in root.rglob("*.md") if ".git" not in p.parts and "node_modules" not in p.parts}
    out = []
    for path in files:
        for name in set(_DOC.findall(path.read_text(encoding="utf-8"))):
            if (root / name).exists() or (path.parent / name).exists() or ("/" not in name and name in existing):
                continue
            out.append(f"{path.relative_to(root)}: {name}")
    return sorted(out)


def test_every_design_document_named_exists() -> None:
    assert dangling_doc_references() == []


def test_the_document_check_finds_a_file_that_is_not_there(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "ARCHITECTURE.md").write_text("the map\n")
    missing = "NOWHERE" + ".md"
    wrong_place = "bot/" + "ARCHITECTURE.md"
    (tmp_path / "bot" / "a.py").write_text(f'"""See ARCHITECTURE.md and {missing}, {wrong_place}."""\n')
    assert dangling_doc_references(tmp_path) == [f"bot/a.py: {missing}", f"bot/a.py: {wrong_place}"]


# Sizes: short functions, classes of a reasonable surface ------------------------------------------------

MAX_FUNCTION_LINES = 60
MAX_PUBLIC_METHODS = 30


def size_problems(path: Path, name: str) -> list[str]:
    """Every function of the module at ``path`` (``name`` in messages) longer than MAX_FUNCTION_LINES, from
    its ``def`` line to its last line, docstring included, and every class with more than
    MAX_PUBLIC_METHODS public methods (defined in its body, not starting with ``_``; properties count)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.lineno} function {node.name} has {lines} lines")
        elif isinstance(node, ast.ClassDef):
            public = [m.name for m in node.body
                      if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and not m.name.startswith("_")]
            if len(public) > MAX_PUBLIC_METHODS:
                found.append(f"{name}:{node.lineno} class {node.name} has {len(public)} public methods")
    return found


def test_no_product_function_is_too_long_and_no_class_too_wide() -> None:
    found = [p for name, path in sorted(product_modules().items()) for p in size_problems(path, name)]
    assert found == [], "\n".join(found)


def test_the_size_check_sees_a_long_function_and_a_wide_class(tmp_path: Path) -> None:
    """A function of 61 lines and a class of 31 public methods are found; one of 60 lines and a class of
    private methods alone pass."""
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES - 1))
    methods = "".join(f"    def m{i}(self):\n        return {i}\n" for i in range(MAX_PUBLIC_METHODS + 1))
    private = "".join(f"    def _p{i}(self):\n        return {i}\n" for i in range(40))
    source = (f"def long():\n{body}    return x0\n\n\ndef short():\n{body}\n\n"
              f"class Wide:\n{methods}\n\nclass Narrow:\n{private}")
    path = tmp_path / "sizes.py"
    path.write_text(source)
    wide = source.splitlines().index("class Wide:") + 1
    found = size_problems(path, "sizes")
    assert found == [f"sizes:1 function long has {MAX_FUNCTION_LINES + 1} lines",
                     f"sizes:{wide} class Wide has {MAX_PUBLIC_METHODS + 1} public methods"], found


#: the one place below the Discord front that reads Discord's mention markup: forgetting a person finds it in
#: texts stored by older versions (and the store's upgrade that turns those into person spans)
LEGACY_MENTIONS = {"bot/upkeep/forget.py", "bot/store/people.py"}


def mentions_below_discord(root: Path) -> list[str]:
    """The catalogues and the modules outside ``bot/discord`` (but :data:`LEGACY_MENTIONS`) that hold ``<@``."""
    found = []
    for path in sorted([*root.glob("bot/**/*.po"), *root.glob("rules/**/*.po"), *root.glob("render/**/*.po")]):
        found += [f"{path.relative_to(root)}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1)
                  if "<@" in line]
    for top in ("bot", "rules", "render"):
        for path in sorted((root / top).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            if rel.startswith("bot/discord/") or rel in LEGACY_MENTIONS:
                continue
            found += [f"{rel}:{n}" for n, line in enumerate(path.read_text().splitlines(), 1) if "<@" in line]
    return found


def test_no_discord_mention_is_written_below_the_discord_front() -> None:
    """A person goes into our texts as a ``rules.literal.Person``; only Discord's front writes ``<@id>``."""
    assert mentions_below_discord(ROOT) == []


def test_the_mention_check_finds_one_in_a_catalogue_and_in_a_module(tmp_path: Path) -> None:
    (tmp_path / "bot/locale").mkdir(parents=True)
    (tmp_path / "bot/locale/en.po").write_text('msgid "x"\nmsgstr "<@{user}> went"\n')
    (tmp_path / "bot/play").mkdir()
    (tmp_path / "bot/play/seats.py").write_text('WHO = "<@1>"\n')
    (tmp_path / "bot/discord").mkdir()
    (tmp_path / "bot/discord/shown.py").write_text('WHO = "<@1>"\n')
    (tmp_path / "bot/upkeep").mkdir()
    (tmp_path / "bot/upkeep/forget.py").write_text('OLD = "<@1>"\n')
    assert mentions_below_discord(tmp_path) == ["bot/locale/en.po:2", "bot/play/seats.py:1"]
