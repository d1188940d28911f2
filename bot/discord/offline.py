"""Run the real discord.py stack offline: raw INTERACTION_CREATE payloads in, recorded HTTP requests out.

The tests drive the bot through it, and so does the start-up benchmark; nothing in the running bot uses it.

Usage::

    async with DiscordHarness(JunkyardBot(SqliteStore(path))) as h:
        sent = await h.slash(ANN, "game new", game="toy")
        assert sent[0].content.startswith(...) and not sent[0].ephemeral
        sent = await h.press(BOB, sent[-1], "Roll")          # a button of a recorded message, by label
        names = await h.autocomplete(ANN, "game new", "track", game="toy", track="s")

Interactions are built from payloads shaped like Discord's (application command type 2, component type 3,
autocomplete type 4), parsed by ``bot._connection.parse_interaction_create`` and dispatched by discord.py
itself. Everything the bot sends passes through ``AsyncWebhookAdapter.request`` (interaction responses,
follow-ups, edits) or ``HTTPClient.request`` (channel messages, direct messages); both are replaced by
recorders that answer with plausible payloads. :class:`Sent` exposes content, the ephemeral flag (64),
attached files and component custom_ids.

The bot defers every acting interaction first, as it does in service (a command "thinking", privately; a
press as an update of its message), then answers with an edit of the original response and follow-ups. The
recorder resolves that as Discord shows it: an edit of a deferred command's original, or its first follow-up,
fills the private placeholder (and is private with it); an edit of a deferred press's original is the pressed
message. :func:`shown` lists what an interaction showed, :func:`answer` its one answer, whatever way it was
delivered (directly, or deferred and then followed up), so tests state what the player or the channel sees.

Faults are injected at the same layer: ``h.fail("callback", 404, 10062)`` makes the next interaction
callback fail as Discord does when the three seconds have passed (the interaction is then gone: its later
callbacks, follow-ups and edits of its original fail alike), ``h.fail("followup", 500, times=2)`` the
next two follow-ups with a server error (as discord.py raises it once its own retries are spent). Channel
messages honour ``nonce`` with ``enforce_nonce`` as Discord does: a repeated nonce returns the message
already posted instead of posting again.

Channels and threads answer as Discord does for the bot's permissions there (``h.deny(channel, bits)``,
``h.grant(channel, bits)``; every permission by default, sent as the interaction's ``app_permissions``): a
post without View Channel fails 403/50001, without Send Messages (Send Messages in Threads in a thread) or
Attach Files for a picture 403/50013, and into an archived thread 400/50083. ``h.thread(parent)`` opens a
thread (type 11, or 12 private) that interactions can come from (``channel_id=``); ``h.archive(thread)``
archives it, and a ``PATCH /channels/{id}`` with ``archived: false`` reopens it when the bot holds Manage
Threads there. ``POST /channels/{id}/threads`` opens a public thread as Discord does.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

APP_ID = 900_000_000_000_000_001
BOT_ID = APP_ID
GUILD_ID = 800_000_000_000_000_001
CHANNEL_ID = 700_000_000_000_000_001
#: the longest the tasks an interaction started may take to settle before that is an error naming them
SETTLE_SECONDS = 300.0
EPHEMERAL = 64
#: Permission bits: a plain member (view channel, send messages, use app commands) and Manage Channels.
MEMBER_PERMS = (1 << 10) | (1 << 11) | (1 << 31)
MANAGE_CHANNELS = 1 << 4
#: Every permission: what the bot holds in a channel unless a test takes some away (:meth:`DiscordHarness.deny`).
ALL_PERMS = (1 << 53) - 1
#: Thread channel types: public (11) and private (12).
PUBLIC_THREAD, PRIVATE_THREAD = 11, 12

_ids = itertools.count(600_000_000_000_000_001)


def snowflake() -> int:
    return next(_ids)


def user_payload(user_id: int, name: str | None = None, *, bot: bool = False) -> dict[str, Any]:
    name = name or f"user{user_id % 10000}"
    return {"id": str(user_id), "username": name, "global_name": name.title(), "discriminator": "0",
            "avatar": None, "bot": bot}


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


@dataclass
class Sent:
    """One request the bot made."""

    method: str
    path: str
    url: str
    payload: dict[str, Any]
    files: list[tuple[str, bytes]] = field(default_factory=list)
    message: dict[str, Any] | None = None
    #: a message to a direct-message channel
    dm: bool = False
    #: the request failed (an injected fault): nothing was created
    failed: bool = False
    #: a channel message whose nonce was already used: Discord returned the earlier message
    repeated: bool = False
    #: an edit of a message everyone sees (a pressed message answered with UPDATE_MESSAGE, or edited later)
    changes: bool = False
    #: whether only the asker sees it, as Discord resolves it (an edit of a private original, a follow-up that
    #: fills a private "thinking" placeholder); None: as its own flags say
    hidden: bool | None = None
    #: this request filled a deferred command's "thinking" placeholder (an edit of the original response, or
    #: the first follow-up, which Discord shows in the placeholder's place)
    fills: bool = False
    #: a press's answer changing the pressed message (UPDATE_MESSAGE, or an edit of a deferred press's original)
    pressed: bool = False
    #: how Discord refused a request for the bot's permissions or an archived thread: (status, code)
    refusal: tuple[int, int] | None = None
    #: the names of a multipart request's parts (``payload_json``, ``files[0]`` …); empty for a JSON body
    parts: list[str] = field(default_factory=list)

    @property
    def creates_message(self) -> bool:
        """Whether this request posted a new message (not an edit, not an autocomplete answer)."""
        if self.failed or self.repeated or self.fills:
            return False
        if self.kind == "callback":
            return self.response_type in (4, 5)
        return self.kind in ("followup", "channel")

    @property
    def kind(self) -> str:
        """callback, followup, edit, channel or other."""
        if self.path.endswith("/callback"):
            return "callback"
        if self.path == "/webhooks/{webhook_id}/{webhook_token}" and self.method == "POST":
            return "followup"
        if "/messages/" in self.path and self.method == "PATCH":
            return "edit"
        if "/messages/" in self.path and self.method == "DELETE":
            return "delete"
        if self.path == "/channels/{channel_id}/messages" and self.method == "POST":
            return "channel"
        return "other"

    @property
    def response_type(self) -> int | None:
        return self.payload.get("type") if self.kind == "callback" else None

    @property
    def body(self) -> dict[str, Any]:
        """The message part: the callback's ``data`` or the request itself."""
        if self.kind == "callback":
            return self.payload.get("data") or {}
        return self.payload

    @property
    def content(self) -> str:
        return self.body.get("content") or ""

    @property
    def flags(self) -> int:
        return int(self.body.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether only the asker sees it (its own flag, or the private message it edits or fills)."""
        return self.hidden if self.hidden is not None else bool(self.flags & EPHEMERAL)

    @property
    def deferral(self) -> bool:
        """A deferred answer (5: "thinking", 6: an update of the pressed message still to come): it shows no
        content of its own."""
        return self.kind == "callback" and self.response_type in (5, 6)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.body.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]] | None:
        """The components sent (None when the request leaves them unchanged; [] when it removes them)."""
        return self.body.get("components")

    def buttons(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for row in self.components or []:
            out.extend(c for c in row.get("components", []) if c.get("type") == 2)
        return out

    @property
    def custom_ids(self) -> list[str]:
        return [b["custom_id"] for b in self.buttons() if "custom_id" in b]

    @property
    def labels(self) -> list[str]:
        return [b.get("label", "") for b in self.buttons()]

    @property
    def png(self) -> bytes | None:
        for _, data in self.files:
            if data.startswith(b"\x89PNG"):
                return data
        return None

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete results (callback type 8)."""
        return list(self.body.get("choices") or [])

    @property
    def allowed_users(self) -> list[str] | None:
        am = self.body.get("allowed_mentions")
        return None if am is None else [str(u) for u in am.get("users", [])]


def _token(kind: str, url: str) -> str:
    """The interaction token in a callback's, follow-up's or original-response edit's URL."""
    parts = url.split("?")[0].split("/")
    if kind == "callback":
        return parts[-2]
    if kind == "followup":
        return parts[-1]
    return parts[-3] if len(parts) >= 3 and parts[-2] == "messages" else ""


def _read_files(files: Iterable[discord.File] | None) -> list[tuple[str, bytes]]:
    out = []
    for f in files or []:
        fp = f.fp
        data = fp.getvalue() if hasattr(fp, "getvalue") else fp.read()
        out.append((f.filename or "", bytes(data)))
    return out


def _payload_from(payload: dict[str, Any] | None, multipart: list[dict[str, Any]] | None) -> dict[str, Any]:
    if payload is not None:
        return payload
    for part in multipart or []:
        if part.get("name") == "payload_json":
            loaded: dict[str, Any] = json.loads(part["value"])
            return loaded
    return {}


def shown(sent: Sequence[Sent]) -> list[Sent]:
    """What an interaction's requests showed, in order, each message as it now shows: new messages (answers,
    follow-ups, channel posts, direct messages) and changed ones (edits, an answer that updates the pressed
    message). Deferrals, which show nothing but a placeholder the answer fills, failed and repeated requests,
    autocomplete answers and edits that leave the text and picture as they were are left out."""
    out = []
    for s in sent:
        if s.failed or s.repeated or s.deferral:
            continue
        if s.kind == "edit" or s.response_type == 7:  # a change of a message shown already
            if "content" in s.body or s.files or s.body.get("embeds"):
                out.append(s)
        elif s.kind in ("callback", "followup", "channel") and s.response_type != 8:
            out.append(s)
    return out


def pressed_edit(sent: Sequence[Sent]) -> Sent:
    """How a press's answer changed the pressed message (its text, picture or buttons), whether directly
    (UPDATE_MESSAGE) or after a deferral (an edit of the original response); fails unless there is one."""
    edits = [s for s in sent if s.pressed and not s.failed]
    assert len(edits) == 1, [(s.kind, s.content[:80]) for s in sent]
    return edits[0]


def answer(sent: Sequence[Sent]) -> Sent:
    """The one answer an interaction showed, whether given directly or deferred and followed up. A deferred
    command's private placeholder filled only to point at the public answer that follows is left out; the
    answer must be the only other thing shown (fails when there is none, or more)."""
    seen = shown(sent)
    if any(not s.ephemeral for s in seen):
        seen = [s for s in seen if not (s.fills and s.kind == "edit" and s.ephemeral)]
    assert len(seen) == 1, [(s.kind, s.ephemeral, s.content[:80]) for s in seen]
    return seen[0]


class DiscordHarness:
    """Wraps a bot for offline interaction tests; use ``async with``. ``defer_after``: a defer delay for the
    bot's run (None, the default: the bot's own, which defers first, as the bot in service does; a positive
    delay exercises the late-deferral fallback, where a quick service answers directly)."""

    def __init__(self, bot: discord.Client, *, guild_id: int = GUILD_ID, channel_id: int = CHANNEL_ID,
                 defer_after: float | None = None) -> None:
        self.bot = bot
        if defer_after is not None and hasattr(bot, "defer_after"):
            bot.defer_after = defer_after
        self.guild_id, self.channel_id = guild_id, channel_id
        self.sent: list[Sent] = []
        self.users: dict[int, str] = {}
        #: each member's nickname on the server (their display name there, exactly as given)
        self.nicks: dict[int, str] = {}
        #: each user's Discord locale (``en-US`` when not set) and the server's preferred one
        self.locales: dict[int, str] = {}
        self.guild_locale = "en-US"
        self._saved: list[tuple[Any, str, Any]] = []
        self._dm_channels: set[int] = set()
        self._faults: list[list[Any]] = []
        self._nonces: dict[str, dict[str, Any]] = {}
        #: the message each press was made on, by interaction token (an UPDATE_MESSAGE answer changes it)
        self._pressed: dict[str, dict[str, Any]] = {}
        #: each answered interaction's original response (by token): its message and, for a deferred command,
        #: whether its "thinking" placeholder is still to be filled
        self._originals: dict[str, dict[str, Any]] = {}
        self._unfilled: set[str] = set()
        #: interactions whose callback came too late (10062): nothing can answer them any more
        self._expired: set[str] = set()
        #: the bot's permissions in each channel or thread (every one where not given)
        self.app_perms: dict[int, int] = {}
        #: each thread by id: its ``type`` (11, 12), ``parent_id``, ``name``, ``archived`` and
        #: ``auto_archive_duration``
        self.threads: dict[int, dict[str, Any]] = {}

    # Faults ------------------------------------------------------------------------------------

    def fail(self, kind: str, status: int, code: int = 0, *, times: int = 1) -> None:
        """Make the next ``times`` requests of ``kind`` (callback, followup, edit, delete, channel) fail with
        HTTP ``status`` and Discord error ``code`` (404/10062: the interaction expired)."""
        self._faults.append([kind, status, code, times])

    def _fault(self, sent: Sent, token: str = "") -> None:
        if token and token in self._expired:
            self._faults.insert(0, [sent.kind, 404, 10062 if sent.kind == "callback" else 10015, 1])
        for fault in self._faults:
            kind, status, code, times = fault
            if kind == sent.kind and times > 0:
                fault[3] -= 1
                sent.failed = True
                what = {10062: "Unknown interaction", 10015: "Unknown Webhook"}.get(code, "Injected fault")
                if code == 10062 and token:
                    self._expired.add(token)
                self._raise(status, code, what)

    # Channels, threads and the bot's permissions -----------------------------------------------

    def perms(self, channel_id: int) -> int:
        """The bot's permissions in ``channel_id``."""
        return self.app_perms.get(channel_id, ALL_PERMS)

    def deny(self, channel_id: int, bits: int) -> None:
        """Take permissions ``bits`` away from the bot in ``channel_id`` (a channel's overwrite)."""
        self.app_perms[channel_id] = self.perms(channel_id) & ~bits

    def grant(self, channel_id: int, bits: int) -> None:
        """Give the bot permissions ``bits`` in ``channel_id`` again."""
        self.app_perms[channel_id] = self.perms(channel_id) | bits

    def thread(self, parent: int | None = None, *, private: bool = False, archived: bool = False,
               name: str = "game") -> int:
        """A new thread in ``parent`` (the harness's channel by default); its id."""
        tid = snowflake()
        self.threads[tid] = {"type": PRIVATE_THREAD if private else PUBLIC_THREAD, "name": name,
                             "parent_id": parent or self.channel_id, "archived": archived,
                             "auto_archive_duration": 10080}
        return tid

    def archive(self, thread_id: int, archived: bool = True) -> None:
        """Archive (or, with False, reopen by hand) a thread."""
        self.threads[thread_id]["archived"] = archived

    def _channel_payload(self, channel_id: int) -> dict[str, Any]:
        thread = self.threads.get(channel_id)
        base: dict[str, Any] = {"id": str(channel_id), "guild_id": str(self.guild_id), "nsfw": False}
        if thread is None:
            return {**base, "type": 0, "name": "games", "position": 0, "permission_overwrites": [],
                    "parent_id": None}
        return {**base, "type": thread["type"], "name": thread["name"], "parent_id": str(thread["parent_id"]),
                "owner_id": str(BOT_ID), "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
                "thread_metadata": {"archived": thread["archived"], "locked": False,
                                    "auto_archive_duration": thread["auto_archive_duration"],
                                    "archive_timestamp": _now()}}

    def _refusal(self, channel_id: int, *, post: bool, files: bool) -> tuple[int, int] | None:
        """How Discord refuses the bot's post (``post``) or edit in ``channel_id``: (status, code), or None."""
        if channel_id in self._dm_channels:
            return None
        perms = discord.Permissions(self.perms(channel_id))
        thread = self.threads.get(channel_id)
        if not perms.view_channel:
            return 403, 50001
        if thread is not None and thread["archived"]:
            return 400, 50083
        may_send = perms.send_messages_in_threads if thread is not None else perms.send_messages
        if (post and not may_send) or (files and not perms.attach_files):
            return 403, 50013
        return None

    @staticmethod
    def _raise(status: int, code: int, what: str = "Injected fault") -> None:
        # a stand-in for aiohttp's response: the exceptions read only these two fields
        response: Any = SimpleNamespace(status=status, reason="Injected")
        message = {"code": code, "message": what}
        if status >= 500:
            raise discord.DiscordServerError(response, message)
        if status == 404:
            raise discord.NotFound(response, message)
        if status == 403:
            raise discord.Forbidden(response, message)
        raise discord.HTTPException(response, message)

    def _channel_request(self, sent: Sent, route: Any) -> Any:
        """``PATCH /channels/{id}`` (a thread archived or reopened) and ``POST /channels/{id}/threads``."""
        cid = int(route.url.split("/channels/")[1].split("/")[0])
        perms = discord.Permissions(self.perms(cid))
        if route.method == "POST":
            if not (perms.view_channel and perms.create_public_threads):
                sent.failed = True
                self._raise(403, 50013, "Missing Permissions")
            tid = self.thread(cid, name=str(sent.payload.get("name", "")))
            self.threads[tid]["auto_archive_duration"] = sent.payload.get("auto_archive_duration", 1440)
            return self._channel_payload(tid)
        thread = self.threads.get(cid)
        if thread is not None and "archived" in sent.payload:
            if not (perms.view_channel and perms.manage_threads):
                sent.failed = True
                self._raise(403, 50013, "Missing Permissions")
            thread["archived"] = bool(sent.payload["archived"])
        return self._channel_payload(cid)

    # Setup -------------------------------------------------------------------------------------

    async def __aenter__(self) -> DiscordHarness:
        self._patch(AsyncWebhookAdapter, "request", self._webhook_request)
        self._patch(HTTPClient, "request", self._http_request)
        bot = self.bot
        await bot._async_setup_hook()
        me = user_payload(BOT_ID, "junkyard", bot=True)
        bot._connection.user = discord.ClientUser(state=bot._connection, data=me)  # type: ignore[arg-type]
        bot._connection.application_id = APP_ID
        await bot.setup_hook()
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.settle()
            await self.bot.close()
        finally:
            for owner, name, value in reversed(self._saved):
                setattr(owner, name, value)
            self._saved.clear()

    def _patch(self, owner: Any, name: str, replacement: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))
        harness = self

        async def patched(_self: Any, *args: Any, **kwargs: Any) -> Any:
            return await replacement(*args, **kwargs)

        patched.__name__ = name
        setattr(owner, name, patched)
        del harness

    async def settle(self) -> None:
        """Wait until every task the interaction started has finished (view timers and the bot's own
        background loops excepted)."""
        current = asyncio.current_task()
        background = set(getattr(self.bot, "_background", []))
        end = time.monotonic() + SETTLE_SECONDS
        while True:
            pending = [t for t in asyncio.all_tasks() if t is not current and not t.done() and t not in background
                       and "timeout" not in getattr(t.get_coro(), "__qualname__", "")]
            if not pending:
                return
            left = end - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"interaction tasks never settled: {sorted(t.get_name() for t in pending)}")
            await asyncio.wait(pending, timeout=min(30.0, left))

    # Recording ---------------------------------------------------------------------------------

    def _message(self, body: dict[str, Any], *, message_id: int | None = None, channel_id: int | None = None,
                 files: Sequence[tuple[str, bytes]] = ()) -> dict[str, Any]:
        mid = message_id or snowflake()
        return {
            "id": str(mid), "channel_id": str(channel_id or self.channel_id), "guild_id": str(self.guild_id),
            "type": 0, "content": body.get("content") or "", "author": user_payload(BOT_ID, "junkyard", bot=True),
            "attachments": [{"id": str(snowflake()), "filename": name, "size": len(data),
                             "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}"}
                            for name, data in files],
            "embeds": body.get("embeds") or [], "components": body.get("components") or [],
            "flags": int(body.get("flags") or 0), "timestamp": _now(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False,
            "application_id": str(APP_ID), "webhook_id": str(APP_ID),
        }

    async def _webhook_request(self, route: Any, session: Any = None, *, payload: dict[str, Any] | None = None,
                               multipart: list[dict[str, Any]] | None = None, files: Any = None,
                               params: Any = None, **_: Any) -> Any:
        sent = Sent(route.method, route.path, route.url, _payload_from(payload, multipart), _read_files(files),
                    parts=[str(part.get("name")) for part in multipart or []])
        self.sent.append(sent)
        kind = sent.kind
        token = _token(kind, route.url)
        self._fault(sent, token)
        pressed = self._pressed.get(token, {})
        if kind == "callback":
            rtype = sent.payload.get("type")
            if rtype in (6, 7) and pressed:  # the pressed message is the original response
                self._originals[token] = pressed
            if rtype == 7 and pressed:  # UPDATE_MESSAGE: the pressed message, as it now shows
                sent.pressed = True
                sent.message = self._message(sent.body, message_id=int(pressed["id"]), files=sent.files)
                sent.hidden = bool(int(pressed.get("flags") or 0) & EPHEMERAL)
                if sent.hidden:
                    sent.message["flags"] |= EPHEMERAL
                sent.changes = not sent.hidden
            elif rtype in (4, 5, 7):
                sent.message = self._message(sent.body, files=sent.files)
                self._originals[token] = sent.message
                if rtype == 5:
                    self._unfilled.add(token)
                return {"interaction": {"id": str(route.webhook_id), "type": 2,
                                        "response_message_id": sent.message["id"],
                                        "response_message_loading": rtype == 5,
                                        "response_message_ephemeral": sent.ephemeral},
                        "resource": {"type": rtype, "message": sent.message}}
            return {"interaction": {"id": str(route.webhook_id), "type": 2}}
        if kind in ("followup", "edit"):
            m = re.search(r"/messages/(\d+)$", route.url)
            mid = int(m.group(1)) if m else None
            original = self._originals.get(token) or pressed or None
            fills = token in self._unfilled and (kind == "followup" or route.url.endswith("/messages/@original"))
            if route.url.endswith("/messages/@original") and original is not None:
                mid = int(original["id"])
                sent.hidden = bool(int(original.get("flags") or 0) & EPHEMERAL)
                sent.pressed = bool(pressed) and original is pressed  # a press deferred as an update: its message
                sent.changes = sent.pressed and not sent.hidden
            elif fills and original is not None:  # the first follow-up takes the "thinking" placeholder's place
                mid = int(original["id"])
                sent.hidden = bool(int(original.get("flags") or 0) & EPHEMERAL)
            if fills:
                sent.fills = True
                self._unfilled.discard(token)
            sent.message = self._message(sent.body, message_id=mid, files=sent.files)
            if sent.hidden:
                sent.message["flags"] |= EPHEMERAL
            return sent.message
        return None

    async def _http_request(self, route: Any, *, files: Any = None, form: Any = None, **kwargs: Any) -> Any:
        body = kwargs.get("json")
        if body is None and form:
            body = _payload_from(None, list(form))
        sent = Sent(route.method, route.path, route.url, body or {}, _read_files(files),
                    parts=[str(part.get("name")) for part in form or []])
        self.sent.append(sent)
        self._fault(sent)
        if route.method == "GET" and route.path == "/users/{user_id}":
            uid = int(route.url.rsplit("/", 1)[1])
            return user_payload(uid, self.users.get(uid))
        if route.path == "/users/@me/channels":
            uid = int(sent.payload["recipient_id"])
            dm_id = snowflake()
            self._dm_channels.add(dm_id)
            return {"id": str(dm_id), "type": 1, "recipients": [user_payload(uid, self.users.get(uid))]}
        if route.path in ("/channels/{channel_id}", "/channels/{channel_id}/threads"):
            return self._channel_request(sent, route)
        if sent.kind in ("channel", "edit"):
            cid = int(route.url.split("/channels/")[1].split("/")[0])
            refused = self._refusal(cid, post=sent.kind == "channel", files=bool(sent.files))
            if refused is not None:
                sent.failed, sent.refusal = True, refused
                self._raise(*refused, "Refused")
        if sent.kind == "channel":
            cid = int(route.url.split("/channels/")[1].split("/")[0])
            sent.dm = cid in self._dm_channels
            nonce = sent.payload.get("nonce")
            if nonce is not None and sent.payload.get("enforce_nonce") and f"{cid}:{nonce}" in self._nonces:
                sent.repeated = True
                sent.message = self._nonces[f"{cid}:{nonce}"]
                return sent.message
            sent.message = self._message(sent.payload, channel_id=cid, files=sent.files)
            if nonce is not None:
                self._nonces[f"{cid}:{nonce}"] = sent.message
            return sent.message
        if sent.kind == "edit":
            m = re.search(r"/channels/(\d+)/messages/(\d+)$", route.url)
            if m:
                sent.changes = True
                sent.message = self._message(sent.payload, message_id=int(m.group(2)), channel_id=int(m.group(1)),
                                             files=sent.files)
                return sent.message
        return {}

    # Interactions ------------------------------------------------------------------------------

    def _base(self, itype: int, user_id: int, *, permissions: int, channel_id: int | None) -> dict[str, Any]:
        ch = channel_id or self.channel_id
        user = user_payload(user_id, self.users.get(user_id))
        return {
            "id": str(snowflake()), "application_id": str(APP_ID), "type": itype, "token": f"token-{snowflake()}",
            "version": 1, "guild_id": str(self.guild_id), "channel_id": str(ch),
            "channel": self._channel_payload(ch),
            "member": {"user": user, "roles": [], "joined_at": _now(), "deaf": False, "mute": False,
                       "permissions": str(permissions), "flags": 0, "nick": self.nicks.get(user_id),
                       "avatar": None},
            "app_permissions": str(self.perms(ch)), "locale": self.locales.get(user_id, "en-US"),
            "guild_locale": self.guild_locale, "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    async def _dispatch(self, data: dict[str, Any]) -> list[Sent]:
        start = len(self.sent)
        self.bot._connection.parse_interaction_create(data)  # type: ignore[arg-type]
        await self.settle()
        return self.sent[start:]

    def _command(self, path: str) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
        names = path.split()
        tree = self.bot.tree  # type: ignore[attr-defined]
        cmd: Any = tree.get_command(names[0])
        if cmd is None:
            raise KeyError(f"no command /{names[0]}")
        for name in names[1:]:
            cmd = cmd.get_command(name)
            if cmd is None:
                raise KeyError(f"no command /{path}")
        return names, cmd

    def _command_data(self, path: str, options: dict[str, Any], focused: str | None = None
                      ) -> dict[str, Any]:
        names, cmd = self._command(path)
        by_name = {p.display_name: p for p in cmd.parameters}
        leaf: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        for name, value in options.items():
            param = by_name.get(name)
            if param is None:
                raise KeyError(f"/{path} has no option {name!r}; it has {sorted(by_name)}")
            otype = param.type.value
            if otype in (6, 9) and isinstance(value, int):  # user / mentionable
                resolved.setdefault("users", {})[str(value)] = user_payload(value, self.users.get(value))
                resolved.setdefault("members", {})[str(value)] = {"roles": [], "joined_at": _now(), "deaf": False,
                                                                   "mute": False, "permissions": "0", "flags": 0}
                value = str(value)
            entry: dict[str, Any] = {"name": name, "type": otype, "value": value}
            if name == focused:
                entry["focused"] = True
            leaf.append(entry)
        inner: list[dict[str, Any]] = leaf
        for depth in range(len(names) - 1, 0, -1):
            otype = 1 if depth == len(names) - 1 else 2
            inner = [{"name": names[depth], "type": otype, "options": inner}]
        data: dict[str, Any] = {"id": str(snowflake()), "name": names[0], "type": 1, "options": inner}
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash_raw(self, user_id: int, data: dict[str, Any], *, channel_id: int | None = None) -> list[Sent]:
        """An application command with ``data`` as Discord sends it (e.g. a command the bot does not have)."""
        payload = self._base(2, user_id, permissions=MEMBER_PERMS, channel_id=channel_id)
        payload["data"] = data
        return await self._dispatch(payload)

    async def slash(self, user_id: int, path: str, *, permissions: int = MEMBER_PERMS,
                    channel_id: int | None = None, **options: Any) -> list[Sent]:
        """Run ``/path`` (e.g. ``"game new"``) as ``user_id`` with options by their Discord names."""
        data = self._base(2, user_id, permissions=permissions, channel_id=channel_id)
        data["data"] = self._command_data(path, options)
        return await self._dispatch(data)

    async def autocomplete(self, user_id: int, path: str, focused: str, *, channel_id: int | None = None,
                           **options: Any) -> list[dict[str, Any]]:
        """The choices the bot offers while ``user_id`` types option ``focused`` of ``/path``."""
        data = self._base(4, user_id, permissions=MEMBER_PERMS, channel_id=channel_id)
        options.setdefault(focused, "")
        data["data"] = self._command_data(path, options, focused)
        sent = await self._dispatch(data)
        results = [s for s in sent if s.response_type == 8]
        assert len(results) == 1, f"expected one autocomplete answer, got {sent}"
        return results[0].choices

    async def press(self, user_id: int, message: Sent | dict[str, Any], button: str, *,
                    permissions: int = MEMBER_PERMS, channel_id: int | None = None) -> list[Sent]:
        """Press the button labelled (or with custom_id) ``button`` on a message the bot sent."""
        msg = message.message if isinstance(message, Sent) else message
        if msg is None:
            raise ValueError("that request created no message")
        cid = None
        for row in msg.get("components", []):
            for comp in row.get("components", []):
                if button in (comp.get("label"), comp.get("custom_id")):
                    cid = comp["custom_id"]
        if cid is None:
            raise KeyError(f"no button {button!r} on the message")
        return await self.press_custom_id(user_id, msg, cid, permissions=permissions, channel_id=channel_id)

    async def press_custom_id(self, user_id: int, message: dict[str, Any], custom_id: str, *,
                              permissions: int = MEMBER_PERMS, channel_id: int | None = None) -> list[Sent]:
        data = self._base(3, user_id, permissions=permissions, channel_id=channel_id)
        data["message"] = message
        data["data"] = {"custom_id": custom_id, "component_type": 2}
        self._pressed[data["token"]] = message
        return await self._dispatch(data)

    def messages(self) -> list[Sent]:
        """Requests that created a message, in order."""
        return [s for s in self.sent if s.creates_message]
