"""Discord's numbers the fake speaks (gateway opcodes, intents, interaction and callback types, flags, contexts,
permissions, locales) and the JSON helpers every part answers with."""

from __future__ import annotations

import datetime
import json
from typing import Any

from aiohttp import web

DISCORD_EPOCH_MS = 1_420_070_400_000
JSON_HEADERS = {"Content-Type": "application/json"}
API_PREFIX = "/api/v10"

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME = 0, 1, 2, 6
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES = 1 << 9, 1 << 12
"""Gateway intents: message events reach a connection only when it identified with the matching intent."""

INTERACTION_COMMAND, INTERACTION_COMPONENT, INTERACTION_MODAL = 2, 3, 5
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE, CB_AUTOCOMPLETE, CB_MODAL = 4, 5, 6, 7, 8, 9
FLAG_EPHEMERAL, FLAG_LOADING, FLAG_COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15

# view channel, send messages, embed links, attach files, read history, add reactions, use application commands
MEMBER_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31))
# what a user-installed app may do in a DM or group DM it is not a member of: send messages, embed links, attach
# files, read history, use external emojis, use application commands
PRIVATE_APP_PERMISSIONS = str((1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18) | (1 << 31))

CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
INSTALL_GUILD, INSTALL_USER = 0, 1
CHANNEL_DM, CHANNEL_GROUP_DM = 1, 3

# discord.Locale values: the keys Discord accepts in name_localizations / description_localizations
LOCALES = frozenset(
    (
        *("id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl"),
        *("pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja"),
        *("zh-TW", "ko"),
    )
)
RATE_LIMIT_BODY = "You are being rate limited."
SHUTDOWN_SECONDS = 5.0
"""How long :meth:`FakeDiscord.stop` lets requests still being answered finish (aiohttp's default is 60 s)."""
IDENTIFY_WINDOW_SECONDS = 5.0
"""Discord allows ``max_concurrency`` IDENTIFYs per this many seconds, one per bucket ``shard_id % max_concurrency``
(https://discord.com/developers/docs/events/gateway#session-start-limit-object)."""
CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"
# when a request arrived (time.perf_counter()), stored on the request (aiohttp >= 3.12 wants typed keys)
ARRIVED: Any = web.RequestKey("arrived", float) if hasattr(web, "RequestKey") else "arrived"
# the fake's route template of a request (e.g. CALLBACK_ROUTE), stored on the request
ROUTE: Any = web.RequestKey("route", str) if hasattr(web, "RequestKey") else "route"


def now_iso() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def json_response(data: Any, status: int = 200) -> web.Response:
    """Answer JSON with exactly ``Content-Type: application/json`` (discord.py compares the header verbatim)."""
    return web.Response(body=dumps(data).encode(), status=status, headers=JSON_HEADERS)
