"""Discord's published OpenAPI specification as a judge of what the bot sends: the request body schema of
each route, resolved against the whole document, and the limits Discord documents beside it.

The specification stays out of the repository: ``JUNKYARD_DISCORD_SPEC`` names the file (``.ci/run`` points
it at ``../shared/discord/openapi.json`` when that file is there). Without it the tests that need it skip,
saying so in one line; under ``CI=true`` with the file beside the repository but the variable unset, they
fail instead, so CI never skips them by mistake.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import regex
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

VARIABLE = "JUNKYARD_DISCORD_SPEC"
#: where .ci/run finds the specification: the repository's parent folder holds ``shared/``
BESIDE = Path(__file__).resolve().parents[3] / "shared" / "discord" / "openapi.json"
SKIP = f"Discord's API specification tests need {VARIABLE}=path/to/openapi.json (Discord's discord-api-spec)"
#: the URI the specification is registered under, so every ``$ref`` resolves against the whole document
BASE = "urn:discord:openapi"

#: Discord's documented rule for a command, option or choice-less name (application command naming)
NAME = regex.compile(r"^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$")
#: Discord's documented limits the specification does not state
MAX_COMMAND_CHARS = 4000
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_DESCRIPTION = 100
MAX_CHOICE_NAME = 100


def spec_path(environ: Mapping[str, str] = os.environ, beside: Path = BESIDE) -> Path | None:
    """The specification's file, or None (with the reason given to ``pytest.skip``) when it is not there.
    Under CI with the file beside the repository, a missing variable is a failure, not a skip."""
    named = environ.get(VARIABLE)
    if not named:
        if environ.get("CI") == "true" and beside.is_file():
            pytest.fail(f"{beside} is there but {VARIABLE} is unset: .ci/run exports it")
        return None
    path = Path(named)
    if not path.is_file():
        if environ.get("CI") == "true" and beside.is_file():
            pytest.fail(f"{VARIABLE} names {named}, which is not a file, while {beside} is there")
        return None
    return path


def skip_reason(environ: Mapping[str, str] = os.environ) -> str:
    """The one line a test that needs the specification skips with."""
    named = environ.get(VARIABLE)
    return SKIP if not named else f"{VARIABLE} names {named}, which is not a file: {SKIP}"


@dataclass(frozen=True)
class Spec:
    """The specification loaded once, with a validator per request schema."""

    document: dict[str, Any]
    registry: Registry[Any]
    validators: dict[str, Draft202012Validator] = field(default_factory=dict)

    def validator(self, pointer: str) -> Draft202012Validator:
        """A validator for the schema at ``pointer`` inside the document, its ``$ref``s resolved (made once)."""
        if pointer not in self.validators:
            self.validators[pointer] = Draft202012Validator({"$ref": f"{BASE}#{quote(pointer, safe='/~')}"},
                                                            registry=self.registry)
        return self.validators[pointer]

    def request_schema(self, method: str, template: str, media: str = "application/json") -> str | None:
        """The pointer of ``method template``'s request body schema (its parameters' names aside: discord.py
        names ``/interactions/{interaction_id}/…`` ``{webhook_id}``), or None when the route takes no body."""
        wanted = _shape(template)
        for path, operations in self.document["paths"].items():
            if _shape(path) == wanted and method.lower() in operations:
                body = operations[method.lower()].get("requestBody")
                if body is None or media not in body["content"]:
                    return None
                return "/" + "/".join(_escape(p) for p in ("paths", path, method.lower(), "requestBody",
                                                           "content", media, "schema"))
        raise KeyError(f"the specification has no route {method} {template}")

    def errors(self, pointer: str, body: Any) -> list[str]:
        """Each way ``body`` breaks the schema at ``pointer``, one line each (the deepest cause of each)."""
        return [_line(e) for e in sorted(self.validator(pointer).iter_errors(body), key=lambda e: list(e.path))]

    def locales(self) -> set[str]:
        """The locales Discord accepts as keys of a localisation."""
        return {c["const"] for c in self.document["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]}


@cache
def load(path: Path) -> Spec:
    document = json.loads(path.read_text(encoding="utf-8"))
    resource = Resource.from_contents(document, default_specification=DRAFT202012)
    return Spec(document, Registry().with_resource(BASE, resource))


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _shape(template: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", template.split("?")[0])


def _line(error: ValidationError) -> str:
    """Where and why: the branch of a oneOf/anyOf that fits best (jsonschema's choice), or, when none fits
    better than the others, why each fails."""
    error = best_match([error])
    where = "/".join(str(p) for p in error.absolute_path) or "(the body)"
    if error.validator in ("anyOf", "oneOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0], []).append(sub)
        why = sorted({_line(best_match(subs)) for subs in branches.values()})
        return f"{where}: fits none of its {len(branches)} schemas: " + " | ".join(why)
    return f"{where}: {error.message[:300]}"


# Application commands ----------------------------------------------------------------------------------------


def _longest(item: Mapping[str, Any], key: str) -> int:
    """The characters of a field as Discord counts them toward a command's size: its longest localisation."""
    if item.get(key) is None:
        return 0
    return max([len(str(item[key]))] + [len(v) for v in (item.get(f"{key}_localizations") or {}).values()])


def command_chars(item: Mapping[str, Any], lang: str | None = None) -> int:
    """A command's size by Discord's count: name, description, and the names, descriptions and values of its
    subcommands, groups, options and choices, each at its longest localisation (``lang``: that language's
    text only, the default where it has none)."""
    def chars(of: Mapping[str, Any], key: str) -> int:
        if lang is None:
            return _longest(of, key)
        text = (of.get(f"{key}_localizations") or {}).get(lang, of.get(key))
        return len(str(text)) if text is not None else 0

    size = chars(item, "name") + chars(item, "description")
    for choice in item.get("choices") or []:
        size += chars(choice, "name") + len(str(choice["value"]))
    return size + sum(command_chars(option, lang) for option in item.get("options") or [])


def walk(items: list[dict[str, Any]], where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand, group and option with its path (``/game new laps``)."""
    for item in items:
        at = f"{where} {item['name']}".strip()
        yield at, item
        yield from walk(item.get("options") or [], at)


def documented_limits(command: dict[str, Any], locales: set[str]) -> list[str]:
    """What breaks Discord's documented limits for application commands, one line each."""
    out = []
    size = command_chars(command)
    if size > MAX_COMMAND_CHARS:
        out.append(f"/{command['name']}: {size} characters by Discord's count, more than {MAX_COMMAND_CHARS}")
    for at, item in walk([command]):
        names = {"": item["name"], **(item.get("name_localizations") or {})}
        for locale, name in names.items():
            if not NAME.match(name) or name != name.lower():
                out.append(f"/{at}: name {name!r} ({locale or 'default'}) breaks Discord's naming rule")
        descriptions = {"": item.get("description"), **(item.get("description_localizations") or {})}
        for locale, text in descriptions.items():
            if not text or len(text) > MAX_DESCRIPTION:
                out.append(f"/{at}: description ({locale or 'default'}) of {len(text or '')} characters, "
                           f"not 1 to {MAX_DESCRIPTION}")
        for key in ("name_localizations", "description_localizations"):
            wrong = set(item.get(key) or {}) - locales
            if wrong:
                out.append(f"/{at}: {key} for locales Discord does not have: {sorted(wrong)}")
        if len(item.get("options") or []) > MAX_OPTIONS:
            out.append(f"/{at}: {len(item['options'])} options, more than {MAX_OPTIONS}")
        choices = item.get("choices") or []
        if len(choices) > MAX_CHOICES:
            out.append(f"/{at}: {len(choices)} choices, more than {MAX_CHOICES}")
        for choice in choices:
            for locale, name in {"": choice["name"], **(choice.get("name_localizations") or {})}.items():
                if not 1 <= len(name) <= MAX_CHOICE_NAME:
                    out.append(f"/{at} choice {choice['value']!r}: name ({locale or 'default'}) of {len(name)} "
                               f"characters, not 1 to {MAX_CHOICE_NAME}")
            wrong = set(choice.get("name_localizations") or {}) - locales
            if wrong:
                out.append(f"/{at} choice {choice['value']!r}: locales Discord does not have: {sorted(wrong)}")
    return out


# Requests ----------------------------------------------------------------------------------------------------

#: a multipart request's file parts, as Discord names them
FILE_PART = re.compile(r"^files\[(\d+)\]$")


def request_problems(spec: Spec, method: str, template: str, body: dict[str, Any], parts: list[str]) -> list[str]:
    """What is wrong with one request the bot made, as the specification describes its route: a body that
    breaks the route's request schema (a multipart request's ``payload_json`` part judged by the same schema),
    a file part the route does not take, or one its ``attachments`` do not describe."""
    where = f"{method} {template}"
    pointer = spec.request_schema(method, template)
    if pointer is None:
        return [f"{where}: the route takes no body, but got {sorted(body)}"] if body else []
    out = [f"{where}: {line}" for line in spec.errors(pointer, body)]
    if not parts:
        return out
    if "payload_json" not in parts:
        out.append(f"{where}: a multipart request without its payload_json part")
    multipart = spec.request_schema(method, template, "multipart/form-data")
    if multipart is None:
        return [*out, f"{where}: the route takes no multipart body"]
    message = body.get("data") or {} if template.endswith("/callback") else body
    described = {str(a.get("id")) for a in message.get("attachments") or []}
    for part in parts:
        found = FILE_PART.match(part)
        if part == "payload_json":
            continue
        if found is None or int(found[1]) >= MAX_FILES:
            out.append(f"{where}: a part {part!r} the route does not take")
        elif found[1] not in described:
            out.append(f"{where}: {part} has no attachment of id {found[1]} in the payload")
    return out


#: the most files one message takes (the specification's ``files[0]`` … ``files[9]``)
MAX_FILES = 10
