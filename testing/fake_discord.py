"""A test double of Discord's REST API v10 and gateway, for e2e tests and load benchmarks.

Start it in-process (``async with FakeDiscord() as fake``) or standalone (``python -m testing.fake_discord``),
point a discord.py bot at it with :meth:`FakeDiscord.env`, then inject slash commands and button presses and
inspect the callbacks, the per-channel message store, the synced command trees and any rule violations.

Like Discord, it answers over a network: every REST answer is delayed by a round trip drawn from
:attr:`FakeDiscord.latency` (a request is applied when it arrives; only its answer waits), and
:meth:`FakeDiscord.inject` makes chosen requests fail (429 with ``retry_after``, 5xx, an answer lost after the
request was applied, a dropped connection, or just a slow answer). Guilds live on shards, and DMs and group DMs
serve interactions of user-installed apps (the bot's channel REST answers 403 there). An interaction token works
for followups and edits of its messages for :attr:`FakeDiscord.token_lifetime` seconds (Discord: 15 minutes), then
401/50027.

Every JSON body (and every ``payload_json`` of a multipart body) is checked against the request-body schema of its
operation in Discord's OpenAPI description (``../shared/discord-api-spec/openapi.json`` from the repository root,
see :class:`SpecValidator`), then against the message rules the schema does not carry (:func:`message_errors`:
Components V2, layouts, custom_ids, ``attachment://`` references). A refused body is answered as Discord does
(400/50035 "Invalid Form Body" with its nested ``errors``) and recorded in :attr:`FakeDiscord.violations`; the e2e
conftest fails the test. Uploaded files are stored and served back at the attachment's ``url`` on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import datetime
import functools
import importlib
import io
import json
import logging
import math
import mimetypes
import os
import random
import re
import secrets
import time
import unicodedata
import zlib
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

import aiohttp
import jsonschema  # type: ignore[import-untyped]
from aiohttp import WSMsgType, web
from jsonschema import Draft202012Validator
from PIL import Image
from referencing import Registry
from referencing.jsonschema import DRAFT202012

log = logging.getLogger(__name__)

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


def _now_iso() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _json(data: Any, status: int = 200) -> web.Response:
    """Answer JSON with exactly ``Content-Type: application/json`` (discord.py compares the header verbatim)."""
    return web.Response(body=_dumps(data).encode(), status=status, headers=JSON_HEADERS)


def _make_compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """Per-connection stream compressor for ``?compress=``: each message is flushed so it decodes on its own.

    Raises ValueError for an unsupported kind. discord.py asks for ``zstd-stream`` only when ``zstandard`` or
    Python 3.14's ``compression.zstd`` is importable, otherwise ``zlib-stream``.
    """
    if kind is None:
        return None
    if kind == "zlib-stream":
        zobj = zlib.compressobj()
        return lambda data: zobj.compress(data) + zobj.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            zstd: Any = importlib.import_module("compression.zstd")  # Python >= 3.14
        except ImportError:
            try:
                zstandard: Any = importlib.import_module("zstandard")
            except ImportError:
                raise ValueError("zstd-stream requested but no zstd module is installed") from None
            zcobj = zstandard.ZstdCompressor().compressobj()
            return lambda data: zcobj.compress(data) + zcobj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        zc = zstd.ZstdCompressor()
        return lambda data: zc.compress(data, zstd.ZstdCompressor.FLUSH_BLOCK)
    raise ValueError(f"unsupported gateway compression {kind!r}")


def _image_size(data: bytes) -> tuple[int, int] | None:
    """``(width, height)`` in pixels of an image Pillow can read, else ``None``."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Exception:
        return None


def _walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component, depth first, including children and section accessories."""
    for comp in components:
        yield comp
        yield from _walk_components(comp.get("components") or [])
        if isinstance(comp.get("accessory"), dict):
            yield comp["accessory"]


# ---------------------------------------------------------------------- Discord's OpenAPI specification

SPEC_ENV = "DISCORD_API_SPEC"
"""Environment variable naming the OpenAPI file to validate against instead of :data:`SPEC_RELATIVE`."""
SPEC_RELATIVE = Path("..", "shared", "discord-api-spec", "openapi.json")
"""Where Discord's OpenAPI description lives, relative to the repository root (read there, never copied)."""
_SPEC_URI = "urn:discord-openapi"
SPEC_OPERATIONS: dict[tuple[str, str], str] = {
    ("POST", CALLBACK_ROUTE): "/interactions/{interaction_id}/{interaction_token}/callback",
    ("POST", "/webhooks/{app_id}/{token}"): "/webhooks/{webhook_id}/{webhook_token}",
    ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}"): (
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    ),
    ("POST", "/channels/{channel_id}/messages"): "/channels/{channel_id}/messages",
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"): "/channels/{channel_id}/messages/{message_id}",
    ("PUT", "/applications/{app_id}/commands"): "/applications/{application_id}/commands",
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands"): (
        "/applications/{application_id}/guilds/{guild_id}/commands"
    ),
}
"""The fake's routes that take a JSON body -> the path of the same operation in Discord's specification."""

# jsonschema keyword -> the code Discord puts in an Invalid Form Body error
_FORM_ERROR_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_BAD_LENGTH",
    "minItems": "BASE_TYPE_BAD_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "type": "BASE_TYPE_INVALID",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
}


def find_spec(start: Path | None = None) -> Path:
    """The OpenAPI file: ``$DISCORD_API_SPEC``, else :data:`SPEC_RELATIVE` from the repository root (the nearest
    directory above ``start`` holding ``pyproject.toml``). Raises FileNotFoundError, naming where it looked."""
    override = os.environ.get(SPEC_ENV)
    if override:
        path = Path(override)
    else:
        here = (start or Path(__file__)).resolve()
        root = next((p for p in here.parents if (p / "pyproject.toml").is_file()), None)
        if root is None:
            raise FileNotFoundError(f"no pyproject.toml above {here}: can't locate the repository root")
        path = root / SPEC_RELATIVE
    if not path.is_file():
        raise FileNotFoundError(f"Discord's OpenAPI specification is not at {path} (set {SPEC_ENV} to its path)")
    return path.resolve()


def _discriminated(branches: list[Any], schemas: dict[str, Any]) -> dict[str, Any] | None:
    """``oneOf``/``anyOf`` over ``$ref``s to objects that each require an integer ``type`` from disjoint enums,
    rewritten with the :data:`BY_TYPE` keyword: the same instances pass, but only the branch of the instance's
    ``type`` is checked (jsonschema otherwise validates every branch of every component: ~30 ms for a 3x3 board).
    ``None`` when the branches are not of that shape."""
    by_type: dict[str, Any] = {}
    for branch in branches:
        ref = branch.get("$ref", "") if isinstance(branch, dict) and len(branch) == 1 else ""
        target = schemas.get(ref.removeprefix("#/components/schemas/")) if ref.startswith("#/components/") else None
        kinds = ((target or {}).get("properties") or {}).get("type", {}).get("enum")
        if not target or "type" not in target.get("required", []) or not isinstance(kinds, list):
            return None
        if not all(isinstance(k, int) and str(k) not in by_type for k in kinds):
            return None
        by_type.update((str(k), branch) for k in kinds)
    return {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": sorted(int(k) for k in by_type)}},
        BY_TYPE: by_type,
    }


def _by_type(
    validator: Any, by_type: dict[str, Any], instance: Any, schema: dict[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    """The :data:`BY_TYPE` keyword: validate an object against the schema its ``type`` picks."""
    if not validator.is_type(instance, "object"):
        return
    kind = instance.get("type")
    if isinstance(kind, float) and kind.is_integer():
        kind = int(kind)
    branch = by_type.get(str(kind)) if isinstance(kind, int) and not isinstance(kind, bool) else None
    if branch is None:
        return
    key = (id(branch), _shape_key(instance))
    if key in _VALID:
        return
    failed = False
    for error in validator.descend(instance, branch):
        failed = True
        yield error
    if not failed:
        if len(_VALID) >= _VALID_MAX:
            _VALID.clear()
        _VALID.add(key)


def _shape_key(instance: Any) -> str:
    """``instance`` as JSON with each string that :data:`_LENGTH_PATTERN` finds replaced by ``#<length>``: all the
    spec's verdict depends on (boards of two games differ mostly in their text and custom_ids). In JSON text a
    quote inside a string is always escaped, so the pattern only ever matches a real key and its value."""
    text = json.dumps(instance, ensure_ascii=False, separators=(",", ":"))
    if _LENGTH_PATTERN is None:
        return text
    return _LENGTH_PATTERN.sub(_length_of, text)


def _length_of(match: re.Match[str]) -> str:
    quoted = match.group(2)
    length = len(json.loads(quoted)) if "\\" in quoted else len(quoted) - 2
    return f"{match.group(1)}#{length}"


_VALID: set[tuple[int, str]] = set()
"""``(id(schema), _shape_key(object))`` of objects found valid, so that each is checked once. A schema's verdict
depends only on the object (the spec has no ``unevaluated*`` or ``$dynamicRef``), and the prepared schemas live
as long as the process."""
_VALID_MAX = 200_000
_LENGTH_PATTERN: re.Pattern[str] | None = None
"""Matches ``"content":"<string>"`` in compact JSON for the names of :func:`_length_only_names` (``content``,
``custom_id``...); set by :func:`_spec_registry` from the spec it loads."""


def _length_only_names(spec: Any) -> list[str]:
    """The property names whose every schema in ``spec`` only bounds the length of a string (or takes null), e.g.
    ``content`` and ``custom_id``: for those, a value's length is all the verdict depends on. Returns [] if the
    spec uses a keyword that could judge a property by its name or position (``patternProperties`` and kin)."""
    schemas: dict[str, list[Any]] = {}
    stack = [spec]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.keys() & {"patternProperties", "propertyNames", "dependentSchemas", "unevaluatedProperties"}:
                return []
            if isinstance(node.get("properties"), dict):
                for name, schema in node["properties"].items():
                    schemas.setdefault(name, []).append(schema)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)

    def length_only(schema: Any) -> bool:
        if not isinstance(schema, dict) or not set(schema) <= {"type", "minLength", "maxLength"}:
            return False
        kinds = schema.get("type")
        return "string" in (kinds := kinds if isinstance(kinds, list) else [kinds]) and set(kinds) <= {"string", "null"}

    return sorted(name for name, found in schemas.items() if all(length_only(s) for s in found))


def _nullable(
    validator: Any, schema_if_not_null: Any, instance: Any, schema: dict[str, Any]
) -> Iterator[jsonschema.ValidationError]:
    """The :data:`NULLABLE` keyword: ``null``, or an instance valid under the given schema."""
    if instance is not None:
        yield from validator.descend(instance, schema_if_not_null)


BY_TYPE = "x-fake-discord-by-type"
"""A keyword of our own: ``{"1": schema, "2": schema, ...}``, the schema of each value of the object's ``type``."""
NULLABLE = "x-fake-discord-nullable"
"""A keyword of our own for the spec's ``oneOf: [{type: null}, schema]``: null, or valid under ``schema`` (whose
errors then name the field at fault, where ``oneOf`` only says "not valid under any")."""
_Validator = jsonschema.validators.extend(Draft202012Validator, {BY_TYPE: _by_type, NULLABLE: _nullable})


def _prepare_spec(node: Any, schemas: dict[str, Any]) -> Any:
    """A copy of the spec with equivalent, faster schemas (see :func:`_discriminated`; a ``oneOf`` of ``const``s
    becomes an ``enum``, a ``oneOf`` of null and one schema the :data:`NULLABLE` keyword)."""
    if isinstance(node, list):
        return [_prepare_spec(item, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _prepare_spec(value, schemas) for key, value in node.items()}
    for key in ("oneOf", "anyOf"):
        branches = node.get(key)
        if not isinstance(branches, list) or not branches:
            continue
        if all(isinstance(b, dict) and "const" in b for b in branches):
            del out[key]
            out["enum"] = [b["const"] for b in branches]
        elif len(branches) == 2 and {"type": "null"} in branches:
            del out[key]  # null, or else the other schema (which takes no null): errors then name the field
            out[NULLABLE] = _prepare_spec(branches[1 - branches.index({"type": "null"})], schemas)
        elif (rewritten := _discriminated(branches, schemas)) is not None:
            del out[key]
            if out.keys() & rewritten.keys():
                out.setdefault("allOf", []).append(rewritten)
            else:
                out.update(rewritten)
    return out


def _redundant(node: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """Whether ``node`` is an ``enum`` whose ``allOf`` only names the enum type it was drawn from (e.g. a button's
    ``type: {enum: [2], allOf: [MessageComponentTypes]}``), so the ``allOf`` can go."""
    refs = node.get("allOf")
    if "enum" not in node or not isinstance(refs, list):
        return False
    for ref in refs:
        name = ref.get("$ref", "").removeprefix("#/components/schemas/") if isinstance(ref, dict) else ""
        consts = [b.get("const") for b in (schemas.get(name) or {}).get("oneOf", []) if isinstance(b, dict)]
        if len(ref) != 1 or not consts or not set(node["enum"]) <= set(consts):
            return False
    return True


def _inline(node: Any, schemas: dict[str, Any], done: dict[str, Any], stack: tuple[str, ...] = ()) -> Any:
    """``node`` with every ``$ref`` to ``#/components/schemas/X`` replaced by (prepared) X itself, except where X
    refers back to itself (those stay ``$ref``s, resolved by the registry): one lookup less per keyword."""
    if isinstance(node, list):
        return [_inline(item, schemas, done, stack) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/") and len(node) == 1:
        name = ref.removeprefix("#/components/schemas/")
        if name in stack:
            return {"$ref": f"{_SPEC_URI}{ref}"}
        if name not in done:
            done[name] = _inline(schemas[name], schemas, done, (*stack, name))
        return done[name]
    out = {key: _inline(value, schemas, done, stack) for key, value in node.items() if key != "allOf"}
    if "allOf" in node and not _redundant(node, schemas):
        out["allOf"] = _inline(node["allOf"], schemas, done, stack)
    return out


@functools.cache
def _spec_registry(path: Path) -> tuple[dict[str, Any], Registry[Any]]:
    """The prepared spec and a registry resolving its remaining ``$ref``s (loaded once per process)."""
    spec = json.loads(path.read_text(encoding="utf-8"))
    prepared = _prepare_spec(spec, spec["components"]["schemas"])
    schemas = prepared["components"]["schemas"]
    # Discord takes a snowflake as a string or an integer (discord.py sends attachment ids as integers); the
    # specification only lists the string form.
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    global _LENGTH_PATTERN
    names = [re.escape(name) for name in _length_only_names(spec)]
    _LENGTH_PATTERN = re.compile(f'("(?:{"|".join(names)})":)("(?:[^"\\\\]|\\\\.)*")') if names else None
    return prepared, Registry().with_resource(_SPEC_URI, DRAFT202012.create_resource(prepared))


class SpecValidator:
    """Validates request bodies against the request-body schema of the matching operation in Discord's OpenAPI
    description (OpenAPI 3.1, JSON Schema 2020-12), with one compiled validator per operation.

    Raises FileNotFoundError (see :func:`find_spec`) when the specification can't be found.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = (path or find_spec()).resolve()
        self._spec, self._registry = _spec_registry(self.path)
        self._validators: dict[tuple[str, str], Any] = {}
        self._inlined: dict[str, Any] = {}

    def validator(self, method: str, route: str) -> Any:
        """The compiled validator of the fake's ``route`` (e.g. :data:`CALLBACK_ROUTE`); ``None``: no body."""
        key = (method, route)
        if key not in self._validators:
            spec_path = SPEC_OPERATIONS.get(key)
            operation = self._spec["paths"].get(spec_path, {}).get(method.lower(), {}) if spec_path else {}
            content = (operation.get("requestBody") or {}).get("content", {})
            if "application/json" not in content:
                self._validators[key] = None
            else:
                schemas = self._spec["components"]["schemas"]
                schema = _inline(content["application/json"]["schema"], schemas, self._inlined)
                self._validators[key] = _Validator(schema, registry=self._registry)
        return self._validators[key]

    def errors(self, method: str, route: str, body: Any) -> list[jsonschema.ValidationError]:
        """The schema errors of ``body`` (empty: valid), the most relevant first, at most 5."""
        validator = self.validator(method, route)
        if validator is None or validator.is_valid(body):
            return []
        found = [_deepest(e) for e in sorted(validator.iter_errors(body), key=jsonschema.exceptions.relevance)]
        return found[:5]

    @classmethod
    @functools.cache
    def shared(cls, path: Path | None = None) -> SpecValidator:
        """One validator per specification file and process, so each operation is compiled once."""
        return cls(path)


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For an ``anyOf``/``oneOf`` failure, the error of the branch that got furthest (the deepest path), which
    names the field at fault (e.g. a button's missing ``style``), rather than "not valid under any"."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def _field_path(error: jsonschema.ValidationError) -> list[str]:
    """The path of the field an error is about (for ``required``: the missing field itself)."""
    path = [str(part) for part in error.absolute_path]
    if error.validator == "required":
        missing = next((f for f in error.validator_value if f not in error.instance), None)
        if missing is not None:
            path.append(str(missing))
    return path


def _discord_message(error: jsonschema.ValidationError) -> str:
    """The sentence Discord answers for a broken limit (e.g. ``Must be 2000 or fewer in length.``)."""
    keyword, value = error.validator, error.validator_value
    if keyword in ("maxLength", "maxItems"):
        return f"Must be {value} or fewer in length."
    if keyword in ("minLength", "minItems"):
        return f"Must be {value} or more in length."
    if keyword == "required":
        return "This field is required"
    if keyword in ("enum", "const"):
        return f"Value must be one of {value if keyword == 'enum' else [value]!r}."
    if keyword == "maximum":
        return f"Int value should be less than or equal to {value}."
    if keyword == "minimum":
        return f"Int value should be greater than or equal to {value}."
    message = str(error.message)
    return message if len(message) <= 200 else message[:197] + "..."


def form_errors(errors: list[jsonschema.ValidationError]) -> dict[str, Any]:
    """Discord's nested ``errors`` object of a 50035 Invalid Form Body answer, e.g.
    ``{"data": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": ...}]}}}``."""
    tree: dict[str, Any] = {}
    for error in errors:
        node = tree
        for part in _field_path(error):
            node = node.setdefault(part, {})
        code = _FORM_ERROR_CODES.get(str(error.validator), "INVALID")
        node.setdefault("_errors", []).append({"code": code, "message": _discord_message(error)})
    return tree


def describe(error: jsonschema.ValidationError) -> str:
    """``data.components.0.label: Must be 80 or fewer in length.``: the field's path as Discord writes it in
    ``errors``, and the message."""
    return f"{'.'.join(_field_path(error)) or '(body)'}: {_discord_message(error)}"


# ---------------------------------------------------------------------- messages: components and attachments

V2_TOP_LEVEL = frozenset({1, 9, 10, 12, 13, 14, 17})
"""Component types a Components V2 message may have at its top level: action row, section, text display, media
gallery, file, separator, container (Discord's component reference)."""
MAX_COMPONENTS_V2 = 40
"""Components in a Components V2 message, nested ones (row children, section accessories...) included."""
MAX_TEXT_DISPLAY_CHARS = 4000
"""Characters across all the text displays of a message."""
MAX_ROWS, MAX_ROW_ITEMS = 5, 5
"""A classic message: at most 5 action rows of at most 5 buttons (or one select menu)."""
FILE_PART = re.compile(r"files\[(\d+)\]")
ATTACHMENT_SCHEME = "attachment://"


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart/form-data request."""

    index: int
    filename: str
    content_type: str
    data: bytes


def _walk_paths(components: list[dict[str, Any]], prefix: str = "components") -> Iterator[tuple[str, dict[str, Any]]]:
    """``(path, component)`` of every component, depth first, e.g. ``("components.0.components.1", button)``."""
    for i, comp in enumerate(components):
        at = f"{prefix}.{i}"
        yield at, comp
        yield from _walk_paths(comp.get("components") or [], f"{at}.components")
        if isinstance(comp.get("accessory"), dict):
            yield f"{at}.accessory", comp["accessory"]


def _media_urls(message: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """``(where, url)`` of every media reference of a message: thumbnails, media gallery items, file components,
    and embed images, thumbnails and icons."""
    for at, comp in _walk_paths(message.get("components") or []):
        kind = comp.get("type")
        if kind == 11:
            yield f"{at}.media.url", str((comp.get("media") or {}).get("url"))
        elif kind == 12:
            for j, item in enumerate(comp.get("items") or []):
                yield f"{at}.items.{j}.media.url", str((item.get("media") or {}).get("url"))
        elif kind == 13:
            yield f"{at}.file.url", str((comp.get("file") or {}).get("url"))
    for i, embed in enumerate(message.get("embeds") or []):
        for key in ("image", "thumbnail", "author", "footer"):
            part = embed.get(key) or {}
            for field_name in ("url", "icon_url"):
                if isinstance(part.get(field_name), str) and not (key == "author" and field_name == "url"):
                    yield f"embeds.{i}.{key}.{field_name}", part[field_name]


def _component_errors(components: list[dict[str, Any]], *, v2: bool) -> list[str]:
    """Discord's layout rules for a message's components (``v2``: the message has IS_COMPONENTS_V2)."""
    errors: list[str] = []
    everything = list(_walk_components(components))
    if v2:
        for i, comp in enumerate(components):
            if comp.get("type") not in V2_TOP_LEVEL:
                errors.append(f"components.{i}: type {comp.get('type')} can't be at the top level")
        if len(everything) > MAX_COMPONENTS_V2:
            errors.append(
                f"components: at most {MAX_COMPONENTS_V2} components in total, nested ones included "
                f"(got {len(everything)})"
            )
        text = sum(len(c.get("content") or "") for c in everything if c.get("type") == 10)
        if text > MAX_TEXT_DISPLAY_CHARS:
            errors.append(f"components: text displays hold at most {MAX_TEXT_DISPLAY_CHARS} characters (got {text})")
    else:
        if len(components) > MAX_ROWS:
            errors.append(f"components: must be {MAX_ROWS} or fewer in length (got {len(components)} rows)")
        for i, comp in enumerate(components):
            if comp.get("type") != 1:
                errors.append(
                    f"components.{i}: top-level components must be action rows without IS_COMPONENTS_V2 "
                    f"(got type {comp.get('type')})"
                )
    for comp in everything:
        if comp.get("type") != 1:
            continue
        children = comp.get("components") or []
        if not 1 <= len(children) <= MAX_ROW_ITEMS:
            errors.append(f"action row: must have 1 to {MAX_ROW_ITEMS} items (got {len(children)})")
        elif len(children) > 1 and any(c.get("type") != 2 for c in children):
            errors.append("action row: a select menu must be alone in its row")
    custom_ids: set[str] = set()
    ids: set[int] = set()
    for comp in everything:
        label, custom_id, cid = comp.get("label"), comp.get("custom_id"), comp.get("id")
        if label is not None and len(label) > 80:
            errors.append(f"button label must be 80 or fewer in length (got {len(label)})")
        if comp.get("type") == 2 and comp.get("style") not in (5, 6) and not custom_id:
            errors.append("a non-link button needs a custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                errors.append(f"custom_id must be 1 to 100 characters (got {len(custom_id)})")
            if custom_id in custom_ids:
                errors.append(f"duplicate custom_id {custom_id!r}")
            custom_ids.add(custom_id)
        if isinstance(cid, int) and cid:  # 0 or none: Discord numbers it
            if cid in ids:
                errors.append(f"duplicate component id {cid}")
            ids.add(cid)
        if comp.get("type") == 13 and not str((comp.get("file") or {}).get("url")).startswith(ATTACHMENT_SCHEME):
            errors.append("a file component must refer to an uploaded file (attachment://<filename>)")
    return errors


def message_errors(message: dict[str, Any], *, partial: bool = False) -> list[str]:
    """Discord's rules for a message as it will be stored (after an edit: the merged result): content length,
    Components V2 (no content or embeds, 40 components, 4,000 characters of text displays, allowed top-level
    types), classic layouts (5 rows of 5), custom_ids (unique, 1-100 characters), ``attachment://`` references to
    the message's files, and (unless ``partial``) a non-empty message."""
    errors: list[str] = []
    content = message.get("content")
    if content is not None and len(content) > 2000:
        errors.append(f"content: must be 2000 or fewer in length (got {len(content)})")
    v2 = bool((message.get("flags") or 0) & FLAG_COMPONENTS_V2)
    if v2:
        for key in ("content", "embeds", "poll", "sticker_ids"):
            if message.get(key):
                errors.append(f"{key}: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS)")
    components = message.get("components") or []
    errors += _component_errors(components, v2=v2)
    names = {a.get("filename") for a in message.get("attachments") or []}
    for where, url in _media_urls(message):
        if url.startswith(ATTACHMENT_SCHEME) and url[len(ATTACHMENT_SCHEME) :] not in names:
            errors.append(f"{where}: {url} refers to no file of the message")
    if not partial and not (
        content
        or message.get("embeds")
        or components
        or message.get("attachments")
        or message.get("poll")
        or message.get("sticker_ids")
    ):
        errors.append("Cannot send an empty message")
    return errors


class FakeDiscordError(Exception):
    """Raised by injection helpers for an action a real Discord client could not perform."""


class ApiError(Exception):
    """An error answered to the bot as Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: list[str] | None = None,
        tree: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors or []
        self.tree = tree  # Discord's nested ``errors`` object (see form_errors), instead of a flat list

    def response(self) -> web.Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.tree:
            body["errors"] = self.tree
        elif self.errors:
            body["errors"] = {"_errors": [{"code": "INVALID", "message": e} for e in self.errors]}
        return _json(body, self.status)


BODY_RULES = frozenset({"openapi_schema", "invalid_message", "invalid_commands", "invalid_attachments"})
"""Violations of a request body's shape: the e2e conftest fails any test whose bot sent one."""


@dataclass
class Violation:
    """A Discord rule the bot broke; the request was refused with ``status``/``code``."""

    rule: str
    detail: str
    route: str
    status: int
    code: int
    interaction_id: str | None = None

    def __str__(self) -> str:
        return f"{self.rule} ({self.status}/{self.code}) at {self.route}: {self.detail}"

    @property
    def invalid_body(self) -> bool:
        """Whether the request's body broke Discord's specification or its message rules (see BODY_RULES)."""
        return self.rule in BODY_RULES


@dataclass
class CallbackEvent:
    """One accepted response to an interaction: the callback, a followup, or an edit/delete of one."""

    kind: str  # callback | followup | edit_original | delete_original | edit_message | delete_message
    at: float  # time.perf_counter()
    payload: dict[str, Any]
    message_id: str | None
    callback_type: int | None = None


@dataclass
class RestCall:
    """One REST request as the fake answered it (``status`` 0: the connection was dropped instead)."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/1/messages/2"
    status: int
    arrived: float  # time.perf_counter()
    answered: float


@dataclass
class GatewayClose:
    """A closed gateway connection: who closed it, with which code, and the shard it had identified as."""

    code: int | None
    by: Literal["client", "server"]
    shard: tuple[int, int] | None
    at: float


@dataclass(eq=False)
class Fault:
    """An injected failure (see :meth:`FakeDiscord.inject`); ``hits`` lists the requests it answered."""

    method: str
    route: re.Pattern[str]
    status: int | None
    retry_after: float
    global_: bool
    remaining: int | None  # None: always
    applied: bool
    drop: bool
    delay: float | None
    code: int
    message: str | None
    interaction: Callable[[InteractionRecord], bool] | None
    hits: list[str] = field(default_factory=list)

    @property
    def active(self) -> bool:
        """Whether it still answers requests (``times`` not used up)."""
        return self.remaining is None or self.remaining > 0

    def matches(self, method: str, path: str, record: InteractionRecord | None) -> bool:
        """Whether this active fault applies to a request (path without the API prefix)."""
        if not self.active or self.method not in ("*", method) or self.route.search(path) is None:
            return False
        return self.interaction is None or (record is not None and self.interaction(record))

    def take(self) -> None:
        """Reserve one use (at match time, so concurrent requests can't share the last one)."""
        if self.remaining is not None:
            self.remaining -= 1

    def give_back(self) -> None:
        """Return a reserved use that did not happen (an ``applied`` fault whose request failed anyway)."""
        if self.remaining is not None:
            self.remaining += 1

    def response(self, bucket: str) -> web.Response | None:
        """What the client gets: Discord's 429 (with the headers discord.py honours), a 5xx/4xx body, or ``None``
        for a dropped connection (or a fault that only delays)."""
        if self.drop or self.status is None:
            return None
        if self.status == 429:
            reset_after = f"{self.retry_after:.3f}"
            headers = {
                **JSON_HEADERS,
                "Retry-After": str(math.ceil(self.retry_after)),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + self.retry_after:.3f}",
                "X-RateLimit-Reset-After": reset_after,
                "X-RateLimit-Bucket": bucket,
                "X-RateLimit-Scope": "global" if self.global_ else "user",
                "Via": "1.1 google",  # without it discord.py takes a 429 for a Cloudflare ban and gives up
            }
            if self.global_:
                headers["X-RateLimit-Global"] = "true"
            body = {"message": RATE_LIMIT_BODY, "retry_after": self.retry_after, "global": self.global_}
            return web.Response(body=_dumps(body).encode(), status=429, headers=headers)
        reason = self.message or {500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}.get(
            self.status, "Error"
        )
        body = {"message": reason if self.status < 500 else f"{self.status}: {reason}", "code": self.code}
        return _json(body, self.status)


def _valid_name(name: Any) -> bool:
    """Discord's rule for command and option names (and their localizations): ``^[-_\\p{L}\\p{N}\\p{sc=Deva}
    \\p{sc=Thai}]{1,32}$``, in lower case wherever a letter has a lower-case form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        if char in "-_" or unicodedata.category(char)[0] in "LN":
            continue
        if unicodedata.name(char, "").startswith(("DEVANAGARI", "THAI")):
            continue
        return False
    return True


def _text_errors(where: str, value: Any, low: int, high: int) -> list[str]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        return [f"{where}: must be {low}-{high} characters (got {value!r})"]
    return []


def _localization_errors(where: str, table: Any, check: Callable[[str, Any], list[str]]) -> list[str]:
    if table is None:
        return []
    if not isinstance(table, dict):
        return [f"{where}: must be an object of locale -> text"]
    errors = [f"{where}: {key!r} is not a Discord locale" for key in table if key not in LOCALES]
    for key, value in table.items():
        errors += check(f"{where}.{key}", value)
    return errors


def _name_errors(where: str, name: Any) -> list[str]:
    return [] if _valid_name(name) else [f"{where}: invalid name {name!r} (lower case, no spaces, 1-32 characters)"]


def _option_errors(where: str, options: Any) -> list[str]:
    """Discord's limits on a command's options, their choices and localizations (recursively)."""
    if not options:
        return []
    errors = [f"{where}: at most 25 options"] if len(options) > 25 else []
    seen_optional = False
    for i, option in enumerate(options):
        at = f"{where}.{i}"
        errors += _name_errors(f"{at}.name", option.get("name"))
        errors += _localization_errors(f"{at}.name_localizations", option.get("name_localizations"), _name_errors)
        errors += _text_errors(f"{at}.description", option.get("description"), 1, 100)
        errors += _localization_errors(
            f"{at}.description_localizations",
            option.get("description_localizations"),
            lambda w, v: _text_errors(w, v, 1, 100),
        )
        if option.get("type") in (1, 2):
            errors += _option_errors(f"{at}.options", option.get("options"))
            continue
        if option.get("required") and seen_optional:
            errors.append(f"{at}: required options must come before optional ones")
        seen_optional = seen_optional or not option.get("required")
        choices = option.get("choices") or []
        if len(choices) > 25:
            errors.append(f"{at}.choices: at most 25 choices")
        for j, choice in enumerate(choices):
            errors += _text_errors(f"{at}.choices.{j}.name", choice.get("name"), 1, 100)
            errors += _localization_errors(
                f"{at}.choices.{j}.name_localizations",
                choice.get("name_localizations"),
                lambda w, v: _text_errors(w, v, 1, 100),
            )
            if isinstance(choice.get("value"), str):
                errors += _text_errors(f"{at}.choices.{j}.value", choice["value"], 1, 100)
    return errors


def _command_errors(cmd: dict[str, Any]) -> list[str]:
    """Discord's rules for one command of a bulk overwrite (names, descriptions, localizations, contexts)."""
    name, ctype = cmd.get("name", ""), cmd.get("type", 1)
    errors: list[str] = []
    if ctype == 1:
        errors += _name_errors(f"{name}.name", name)
        errors += _localization_errors(f"{name}.name_localizations", cmd.get("name_localizations"), _name_errors)
        errors += _text_errors(f"{name}.description", cmd.get("description"), 1, 100)
        errors += _localization_errors(
            f"{name}.description_localizations",
            cmd.get("description_localizations"),
            lambda w, v: _text_errors(w, v, 1, 100),
        )
        errors += _option_errors(f"{name}.options", cmd.get("options"))
    elif not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.append(f"invalid command name {name!r}")
    if not set(cmd.get("integration_types") or []) <= {INSTALL_GUILD, INSTALL_USER}:
        errors.append(f"{name}.integration_types: unknown value in {cmd['integration_types']!r}")
    if not set(cmd.get("contexts") or []) <= {CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL}:
        errors.append(f"{name}.contexts: unknown value in {cmd['contexts']!r}")
    return errors


class InteractionRecord:
    """An injected interaction; ``await record`` waits (5 s) for the first callback attempt and returns the record."""

    def __init__(self, payload: dict[str, Any], raw: str, component_message_id: str | None = None) -> None:
        self._raw = raw
        self._interaction: dict[str, Any] | None = None
        self.id: str = payload["id"]
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.guild_id: str | None = payload.get("guild_id")
        self.channel_id: str = payload["channel_id"]
        self.user: dict[str, Any] = payload["member"]["user"] if "member" in payload else payload["user"]
        self.component_message_id = component_message_id
        self.dispatched_at = 0.0
        self.first_callback_at: float | None = None
        self.acknowledged = False
        self.callback_type: int | None = None
        self.flags = 0
        self.payload: dict[str, Any] = {}
        self.message_id: str | None = None  # the @original message
        self.message_ids: set[str] = set()  # @original and followups
        self.events: list[CallbackEvent] = []
        self.error: ApiError | None = None  # set when the first callback attempt was refused
        self.callback_statuses: list[int] = []  # the HTTP status of every callback POST (0: connection dropped)
        self.answer_lost = False  # the callback was applied but its HTTP answer failed (an injected fault)
        self.context: int = payload.get("context", CONTEXT_GUILD)
        self.shard: tuple[int, int] | None = None  # (shard_id, shard_count) of the connection it was dispatched to
        self._first: asyncio.Future[InteractionRecord] = asyncio.get_running_loop().create_future()
        self._waiters: list[tuple[Callable[[CallbackEvent], bool], asyncio.Future[CallbackEvent]]] = []

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} callback={self.callback_type} latency={self.latency}>"

    @property
    def interaction(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload exactly as dispatched (a snapshot, parsed on first access)."""
        if self._interaction is None:
            self._interaction = json.loads(self._raw)
        return self._interaction

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first callback attempt (accepted or refused)."""
        return None if self.first_callback_at is None else self.first_callback_at - self.dispatched_at

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.payload.get("content")

    @property
    def components(self) -> list[dict[str, Any]] | None:
        return self.payload.get("components")

    @property
    def followups(self) -> list[CallbackEvent]:
        """Every accepted event after the first callback (followups, edits, deletes)."""
        return self.events[1:]

    def __await__(self) -> Generator[Any, None, InteractionRecord]:
        return self.wait().__await__()

    async def wait(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the first callback attempt; ``self.error`` is set if it was refused."""
        return await asyncio.wait_for(asyncio.shield(self._first), timeout)

    async def wait_for_event(
        self, predicate: Callable[[CallbackEvent], bool] | None = None, timeout: float = 5.0
    ) -> CallbackEvent:
        """Wait for an accepted event (already recorded or future) matching ``predicate``."""
        pred = predicate or (lambda _e: True)
        for event in self.events:
            if pred(event):
                return event
        fut: asyncio.Future[CallbackEvent] = asyncio.get_running_loop().create_future()
        self._waiters.append((pred, fut))
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._waiters.remove((pred, fut))

    def _attempted(self, at: float) -> None:
        if self.first_callback_at is None:
            self.first_callback_at = at

    def _resolve_first(self) -> None:
        if not self._first.done():
            self._first.set_result(self)

    def _add_event(self, event: CallbackEvent) -> None:
        self.events.append(event)
        for pred, fut in list(self._waiters):
            if not fut.done() and pred(event):
                fut.set_result(event)


@dataclass(eq=False)
class _Waiter:
    predicate: Callable[..., bool]
    future: asyncio.Future[Any]


@dataclass(eq=False)
class _Session:
    id: str
    shard: tuple[int, int]
    intents: int = 0
    seq: int = 0
    replay: collections.deque[tuple[int, str]] = field(default_factory=lambda: collections.deque(maxlen=5000))
    conn: _Connection | None = None


class _Connection:
    """One gateway websocket, written by a single task so frames (and the shared zlib stream) stay in order."""

    def __init__(self, ws: web.WebSocketResponse, compressor: Callable[[bytes], bytes] | None, order: int) -> None:
        self.ws = ws
        self.compressor = compressor
        self.session: _Session | None = None
        self.ready = False
        self.dead = False
        self.order = order
        self.closed_by_server: int | None = None
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    @property
    def alive(self) -> bool:
        return not (self.dead or self.ws.closed)

    def post(self, raw: str) -> bool:
        """Queue one already-serialised gateway message."""
        if not self.alive:
            return False
        self._queue.put_nowait(raw)
        return True

    def send(self, payload: dict[str, Any]) -> bool:
        return self.post(_dumps(payload))

    def dispatch(self, event: str, data: Any, *, raw_data: str | None = None) -> bool:
        """Queue a sequenced DISPATCH, serialised now so later store changes don't leak into it."""
        assert self.session is not None
        self.session.seq += 1
        body = _dumps(data) if raw_data is None else raw_data
        raw = f'{{"op":{OP_DISPATCH},"t":"{event}","s":{self.session.seq},"d":{body}}}'
        self.session.replay.append((self.session.seq, raw))
        return self.post(raw)

    async def _write_loop(self) -> None:
        while True:
            raw = await self._queue.get()
            try:
                if self.compressor is not None:
                    await self.ws.send_bytes(self.compressor(raw.encode()))
                else:
                    await self.ws.send_str(raw)
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway send failed: %s", exc)
                self.dead = True
                return

    def stop_writer(self) -> None:
        self.dead = True
        self._writer.cancel()


@dataclass(frozen=True)
class InvalidSession:
    """An INVALID_SESSION (op 9) the fake sent: ``reason`` is ``"identify too early"`` (a second IDENTIFY in its
    ``max_concurrency`` bucket within :attr:`FakeDiscord.identify_window` seconds) or ``"unknown session"`` (a RESUME
    it cannot resume); ``shard`` is ``(shard_id, shard_count)`` when known."""

    reason: str
    shard: tuple[int, int] | None
    at: float


class FakeDiscord:
    """Fake Discord REST v10 + gateway on 127.0.0.1 with a coherent message store and rule enforcement.

    Starting sessions follows Discord's session start limit: ``GET /gateway/bot`` reports ``max_concurrency``, and an
    IDENTIFY less than ``identify_window`` seconds (Discord: 5) after the previous accepted IDENTIFY of its bucket
    (``shard_id % max_concurrency``), on any connection, gets an INVALID_SESSION (``d: false``), recorded in
    :attr:`invalid_sessions`. Without ``identify_window`` the class default :attr:`default_identify_window` applies;
    :meth:`env` passes the window to a bot as ``DISCORD_IDENTIFY_WINDOW_SECONDS``.

    ``latency`` is the range (seconds) of the uniformly drawn round trip added to every REST answer, and
    ``callback_latency`` the range for interaction callbacks only (``None``: the same as ``latency``); both can be
    changed at run time. Without ``latency`` the class default :attr:`default_latency` applies (the e2e suite's
    conftest sets it). ``seed`` seeds the draws.
    """

    default_latency: ClassVar[tuple[float, float]] = (0.0, 0.0)
    default_identify_window: ClassVar[float] = IDENTIFY_WINDOW_SECONDS
    observers: ClassVar[list[Callable[[FakeDiscord], None]]] = []
    """Called with every new fake (the e2e conftest uses it to fail a test whose fakes refused a body)."""

    def __init__(
        self,
        *,
        token: str | None = None,
        port: int = 0,
        bot_name: str = "TicTacToe",
        guild_name: str = "Test Guild",
        channels: int = 3,
        ack_deadline: float = 3.0,
        token_lifetime: float = 900.0,
        heartbeat_interval_ms: int = 41_250,
        message_events: bool = False,
        allow_unregistered_commands: bool = False,
        latency: tuple[float, float] | None = None,
        callback_latency: tuple[float, float] | None = None,
        seed: int | None = 0,
        guild_shard: tuple[int, int] | None = None,
        spec: SpecValidator | Literal[False] | None = None,
        max_concurrency: int = 1,
        identify_window: float | None = None,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency!r}")
        self.max_concurrency = max_concurrency
        self.identify_window = type(self).default_identify_window if identify_window is None else identify_window
        self.invalid_sessions: list[InvalidSession] = []
        self._last_identify: dict[int, float] = {}  # bucket -> time.monotonic() of its last accepted IDENTIFY
        self.latency = latency if latency is not None else type(self).default_latency
        self.callback_latency = callback_latency
        self.rng = random.Random(seed)
        self.spec: SpecValidator | None = None if spec is False else spec or SpecValidator.shared()
        self.faults: list[Fault] = []
        self.rest_log: list[RestCall] = []
        self.in_flight = 0  # REST requests received and not yet answered
        self.gateway_closes: list[GatewayClose] = []
        self.recommended_shards = 1
        self.private_channels: dict[str, dict[str, Any]] = {}
        self._private_members: dict[str, set[str]] = {}
        self._bot_in_private: set[str] = set()
        self.token = token
        self.port = port
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime  # s an interaction token works for webhooks (Discord: 15 minutes)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.message_events = message_events
        self.allow_unregistered_commands = allow_unregistered_commands
        self._last_snowflake = 0
        self.users: dict[str, dict[str, Any]] = {}
        self.application_id = self._snowflake()
        self.bot_user = self.make_user(self.application_id, bot_name, bot=True)
        self.guilds: dict[str, dict[str, Any]] = {}
        self._channel_guild: dict[str, str] = {}
        self._messages: dict[str, dict[str, dict[str, Any]]] = {}
        self.files: dict[str, tuple[dict[str, Any], bytes]] = {}  # attachment id -> (attachment, bytes)
        self._ephemeral_owner: dict[str, str] = {}
        self._commands: dict[str | None, list[dict[str, Any]]] = {}
        self.records: list[InteractionRecord] = []
        self._records_by_id: dict[str, InteractionRecord] = {}
        self._records_by_token: dict[str, InteractionRecord] = {}
        self.violations: list[Violation] = []
        self.unknown_routes: list[str] = []
        self.route_hits: collections.Counter[str] = collections.Counter()
        self.identify_count = 0
        self.identifies: list[dict[str, Any]] = []
        self.gateway_queries: list[dict[str, str]] = []
        self._sessions: dict[str, _Session] = {}
        self._connections: list[_Connection] = []
        self._conn_counter = 0
        self._stopping = False
        self._message_waiters: dict[str | None, list[_Waiter]] = {}
        self._state_waiters: list[_Waiter] = []
        self._runner: web.AppRunner | None = None
        self.default_guild_id = self.add_guild(guild_name, channels=channels, shard=guild_shard)
        for observer in type(self).observers:
            observer(self)

    # ------------------------------------------------------------------ network behaviour

    @property
    def latency(self) -> tuple[float, float]:
        """The (low, high) range in seconds of the round trip added to every REST answer."""
        return self._latency

    @latency.setter
    def latency(self, value: tuple[float, float]) -> None:
        self._latency = self._checked_range(value)

    @property
    def callback_latency(self) -> tuple[float, float] | None:
        """The range for interaction callback answers; ``None``: :attr:`latency`."""
        return self._callback_latency

    @callback_latency.setter
    def callback_latency(self, value: tuple[float, float] | None) -> None:
        self._callback_latency = None if value is None else self._checked_range(value)

    @staticmethod
    def _checked_range(value: tuple[float, float]) -> tuple[float, float]:
        low, high = (float(v) for v in value)
        if not 0 <= low <= high:
            raise ValueError(f"a latency range needs 0 <= low <= high, got {value!r}")
        return low, high

    def _draw_delay(self, route: str) -> float:
        low, high = (self.callback_latency if route == CALLBACK_ROUTE else None) or self.latency
        return low if low == high else self.rng.uniform(low, high)

    def inject(
        self,
        method: str,
        route_regex: str,
        *,
        status: int | None = 429,
        retry_after: float = 1.0,
        times: int | Literal["always"] = 1,
        global_: bool = False,
        applied: bool = False,
        drop: bool = False,
        delay: float | None = None,
        code: int = 0,
        message: str | None = None,
        interaction: Callable[[InteractionRecord], bool] | None = None,
    ) -> Fault:
        """Make the next ``times`` matching REST requests (or every one: ``"always"``) fail.

        A request matches when its method is ``method`` (``"*"``: any) and ``re.search(route_regex, path)`` finds
        its path without the ``/api/v10`` prefix (e.g. ``/channels/1/messages/2``,
        ``/interactions/1/tok/callback``, ``/webhooks/app/tok/messages/@original``); ``interaction`` further
        restricts callback and webhook requests to the interactions it accepts. The earliest injected matching
        fault wins.

        - ``status=429``: refused with Discord's rate-limit body and headers (``retry_after``, ``global_``);
        - ``status`` 4xx/5xx: refused with that status (``code``/``message`` in the JSON body);
        - ``applied=True``: the request IS applied (the message posted/edited, the callback acknowledged) but its
          answer is ``status`` (e.g. 502); a retried interaction callback then gets 400/40060, as on Discord;
        - ``drop=True``: the connection is closed without an answer (before or, with ``applied``, after applying);
        - ``status=None``: answered normally; only ``delay`` applies;
        - ``delay``: the answer's round trip in seconds, instead of one drawn from :attr:`latency`.

        Raises ValueError for a combination that means nothing (e.g. ``applied`` with a 2xx status).
        """
        if times != "always" and (not isinstance(times, int) or times < 1):
            raise ValueError(f"times must be a positive int or 'always', got {times!r}")
        if status is not None and not 400 <= status <= 599:
            raise ValueError(f"status must be a 4xx/5xx error or None, got {status}")
        if applied and status is None and not drop:
            raise ValueError("applied=True needs an error status or drop=True: what should the answer be?")
        if status is None and not drop and delay is None:
            raise ValueError("a fault without status, drop or delay changes nothing")
        fault = Fault(
            method=method.upper(),
            route=re.compile(route_regex),
            status=None if drop else status,
            retry_after=retry_after,
            global_=global_,
            remaining=None if times == "always" else times,
            applied=applied,
            drop=drop,
            delay=delay,
            code=code,
            message=message,
            interaction=interaction,
        )
        self.faults.append(fault)
        return fault

    def remove_fault(self, fault: Fault) -> None:
        """Stop ``fault`` (requests already answered by it stay answered)."""
        with contextlib.suppress(ValueError):
            self.faults.remove(fault)

    def clear_faults(self) -> None:
        """Remove every injected fault."""
        self.faults.clear()

    def _match_fault(self, method: str, path: str, record: InteractionRecord | None) -> Fault | None:
        for fault in self.faults:
            if fault.matches(method, path, record):
                fault.take()
                return fault
        return None

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Bind 127.0.0.1 on ``port`` (0 = a random free port) and serve."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        routes: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._create_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/channels/{channel_id}/messages", self._list_channel_messages),
            ("POST", "/channels/{channel_id}/messages", self._create_channel_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._channel_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._channel_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._channel_message),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API_PREFIX + path, self._wrap(handler, path))
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_SECONDS)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("fake discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Refuse new gateway connections, close every open one, stop the server, and cancel pending waits. (A
        client told 1001 reconnects at once; its new connection would hold the server's shutdown open.)"""
        self._stopping = True
        for conn in self._connections:
            conn.closed_by_server = 1001
        await asyncio.gather(
            *(c.ws.close(code=1001, message=b"fake discord shutting down") for c in self._connections),
            return_exceptions=True,
        )
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for waiters in [*self._message_waiters.values(), self._state_waiters]:
            for w in waiters:
                w.future.cancel()
        self._message_waiters.clear()
        self._state_waiters.clear()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` / ``DISCORD_API_BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables that point a bot subprocess at this fake."""
        return {
            "DISCORD_TOKEN": self.token or "fake-token",
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_IDENTIFY_WINDOW_SECONDS": f"{self.identify_window:g}",
        }

    # ------------------------------------------------------------------ world building

    def _snowflake(self, shard: tuple[int, int] | None = None) -> str:
        """A new, increasing id; with ``shard=(id, count)`` one whose guild would live on that shard."""
        value = max((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22, self._last_snowflake + 1)
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"shard {shard_id} is not in 0..{count - 1}")
            stamp = value >> 22
            while stamp % count != shard_id:
                stamp += 1
            if stamp != value >> 22:
                value = stamp << 22
        self._last_snowflake = value
        return str(value)

    @staticmethod
    def shard_of(guild_id: str | int | None, shard_count: int) -> int:
        """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``; DMs go to shard 0."""
        return 0 if guild_id is None else (int(guild_id) >> 22) % shard_count

    def make_user(self, id: int | str, name: str, bot: bool = False) -> dict[str, Any]:
        """A Discord user object (also remembered for ``GET /users/{id}``)."""
        user: dict[str, Any] = {
            "id": str(id),
            "username": name,
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
            "flags": 0,
        }
        self.users[user["id"]] = user
        return user

    def add_guild(self, name: str = "Guild", *, channels: int = 1, shard: tuple[int, int] | None = None) -> str:
        """Create a guild (with @everyone and the bot as member) and ``channels`` text channels.

        ``shard=(shard_id, shard_count)`` picks an id that shard owns. A client already connected on the owning
        shard gets GUILD_CREATE, as when a bot joins a guild.
        """
        gid = self._snowflake(shard)
        self.guilds[gid] = {
            "id": gid,
            "name": name,
            "channels": {},
            "members": {},
            "roles": [
                {
                    "id": gid,
                    "name": "@everyone",
                    "permissions": MEMBER_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
        }
        self.add_member(gid, self.bot_user)
        self.guilds[gid]["announced"] = False  # its channels arrive with GUILD_CREATE, not as CHANNEL_CREATEs
        self.add_channels(channels, guild_id=gid)
        self.guilds[gid]["announced"] = True
        conn = self._target(gid)
        if conn is not None:
            conn.dispatch("GUILD_CREATE", self._guild_payload(gid))
        return gid

    def add_member(self, guild_id: str, user: dict[str, Any]) -> dict[str, Any]:
        """Make ``user`` a member of the guild (idempotent); returns the member object."""
        members = self.guilds[str(guild_id)]["members"]
        uid = user["id"]
        if uid not in members:
            self.users.setdefault(uid, user)
            members[uid] = {
                "user": user,
                "roles": [],
                "joined_at": _now_iso(),
                "deaf": False,
                "mute": False,
                "flags": 0,
                "nick": None,
                "pending": False,
            }
        return members[uid]  # type: ignore[no-any-return]

    def add_channel(self, guild_id: str | None = None, name: str | None = None) -> str:
        """Add a text channel (announced with CHANNEL_CREATE to a connected bot); returns its id."""
        gid = str(guild_id or self.default_guild_id)
        guild = self.guilds[gid]
        cid = self._snowflake()
        channel = {
            "id": cid,
            "type": 0,
            "guild_id": gid,
            "name": name or f"channel-{len(guild['channels'])}",
            "position": len(guild["channels"]),
            "permission_overwrites": [],
            "parent_id": None,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        guild["channels"][cid] = channel
        self._channel_guild[cid] = gid
        self._messages[cid] = {}
        conn = self._target(gid)
        if conn is not None and guild.get("announced", True):
            conn.dispatch("CHANNEL_CREATE", channel)
        return cid

    def add_dm_channel(self, user: dict[str, Any], *, other: dict[str, Any] | None = None) -> str:
        """A DM channel of ``user``; returns its id.

        Without ``other`` it is the DM with the bot (interaction context 1, BOT_DM): the bot is a recipient and may
        use the channel's REST routes. With ``other`` it is the DM between two users (context 2, PRIVATE_CHANNEL),
        where only a user-installed app's interactions reach the bot: channel REST answers 403/50001.
        """
        self.users.setdefault(user["id"], user)
        cid = self._snowflake()
        peer = other or self.bot_user
        if other is not None:
            self.users.setdefault(other["id"], other)
        self.private_channels[cid] = {
            "id": cid,
            "type": CHANNEL_DM,
            "recipients": [peer],
            "last_message_id": None,
            "flags": 0,
        }
        self._private_members[cid] = {user["id"], peer["id"]}
        if other is None:
            self._bot_in_private.add(cid)
        self._messages[cid] = {}
        return cid

    def add_group_dm(self, users: list[dict[str, Any]], *, name: str | None = None) -> str:
        """A group DM of ``users`` (the first owns it); the bot is not a member (context 2: channel REST -> 403)."""
        if len(users) < 2:
            raise FakeDiscordError("a group DM needs at least two users")
        for user in users:
            self.users.setdefault(user["id"], user)
        cid = self._snowflake()
        self.private_channels[cid] = {
            "id": cid,
            "type": CHANNEL_GROUP_DM,
            "recipients": list(users),
            "owner_id": users[0]["id"],
            "name": name,
            "icon": None,
            "last_message_id": None,
            "flags": 0,
        }
        self._private_members[cid] = {u["id"] for u in users}
        self._messages[cid] = {}
        return cid

    def add_channels(self, count: int, guild_id: str | None = None) -> list[str]:
        return [self.add_channel(guild_id) for _ in range(count)]

    def channels(self, guild_id: str | None = None) -> list[str]:
        return list(self.guilds[str(guild_id or self.default_guild_id)]["channels"])

    def _guild_payload(self, gid: str) -> dict[str, Any]:
        g = self.guilds[gid]
        return {
            "id": gid,
            "name": g["name"],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": self.bot_user["id"],
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": g["roles"],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "preferred_locale": "en-US",
            "premium_tier": 0,
            "nsfw_level": 0,
            "joined_at": _now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(g["members"]),
            "members": list(g["members"].values()),
            "channels": list(g["channels"].values()),
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # ------------------------------------------------------------------ inspection and waiting

    def messages(self, channel_id: str, *, include_ephemeral: bool = True) -> list[dict[str, Any]]:
        """Messages of a channel, oldest first (live objects: don't mutate)."""
        msgs = self._messages.get(str(channel_id), {}).values()
        return [m for m in msgs if include_ephemeral or not m["flags"] & FLAG_EPHEMERAL]

    def message(self, channel_id: str, message_id: str) -> dict[str, Any] | None:
        return self._messages.get(str(channel_id), {}).get(str(message_id))

    def commands(self, guild_id: str | None = None) -> list[dict[str, Any]]:
        """The command tree last synced globally (``None``) or for ``guild_id``."""
        return self._commands.get(None if guild_id is None else str(guild_id), [])

    @property
    def max_first_callback_latency(self) -> float:
        return max((r.latency for r in self.records if r.latency is not None), default=0.0)

    @property
    def connected(self) -> bool:
        """Whether a gateway client is connected and has identified or resumed."""
        return any(c.ready and c.alive for c in self._connections)

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until ``predicate()`` is true; re-checked on every state change (no polling)."""
        if predicate():
            return
        waiter = _Waiter(predicate, asyncio.get_running_loop().create_future())
        self._state_waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter.future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._state_waiters.remove(waiter)

    async def wait_for_message(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0, *, channel_id: str | None = None
    ) -> dict[str, Any]:
        """Return the first message (existing, created or edited) matching ``predicate``.

        With ``channel_id`` only that channel's changes are checked, which keeps hundreds of concurrent waiters cheap.
        """
        key = None if channel_id is None else str(channel_id)
        channels = [self._messages.get(key, {})] if key else list(self._messages.values())
        for msg in (m for ch in channels for m in ch.values()):
            if predicate(msg):
                return msg
        waiter = _Waiter(predicate, asyncio.get_running_loop().create_future())
        self._message_waiters.setdefault(key, []).append(waiter)
        try:
            message: dict[str, Any] = await asyncio.wait_for(waiter.future, timeout)
            return message
        finally:
            with contextlib.suppress(ValueError):
                self._message_waiters[key].remove(waiter)

    async def wait_for_ready(self, timeout: float = 10.0, *, count: int = 1) -> None:
        """Wait until a client is connected and ready, and at least ``count`` IDENTIFYs happened in total."""
        await self.wait_for(lambda: self.identify_count >= count and self.connected, timeout)

    async def wait_for_disconnect(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: not self.connected, timeout)

    def _notify(self, message: dict[str, Any] | None = None) -> None:
        if message is not None:
            for key in (message["channel_id"], None):
                waiters = self._message_waiters.get(key)
                if waiters:
                    self._check_waiters(waiters, message)
        if self._state_waiters:
            self._check_waiters(self._state_waiters)

    @staticmethod
    def _check_waiters(waiters: list[_Waiter], *args: Any) -> None:
        for w in list(waiters):
            if w.future.done():
                waiters.remove(w)
                continue
            try:
                hit = w.predicate(*args)
            except Exception as exc:  # surface predicate bugs to the waiting test
                w.future.set_exception(exc)
                waiters.remove(w)
                continue
            if hit:
                w.future.set_result(args[0] if args else None)
                waiters.remove(w)

    # ------------------------------------------------------------------ injection

    def _member_payload(self, guild_id: str, user: dict[str, Any]) -> dict[str, Any]:
        return {**self.add_member(guild_id, user), "permissions": MEMBER_PERMISSIONS}

    def _check_channel(self, guild_id: str, channel_id: str) -> dict[str, Any]:
        channel = self.guilds.get(guild_id, {}).get("channels", {}).get(channel_id)
        if channel is None:
            raise FakeDiscordError(f"channel {channel_id} is not in guild {guild_id}")
        return channel  # type: ignore[no-any-return]

    def _is_private(self, channel_id: str) -> bool:
        return channel_id in self.private_channels

    def _private_context(self, channel_id: str) -> int:
        return CONTEXT_BOT_DM if channel_id in self._bot_in_private else CONTEXT_PRIVATE_CHANNEL

    def _check_private(self, channel_id: str, user: dict[str, Any]) -> dict[str, Any]:
        if user["id"] not in self._private_members[channel_id]:
            raise FakeDiscordError(f"user {user['id']} is not a recipient of private channel {channel_id}")
        return self.private_channels[channel_id]

    async def _inject(
        self,
        itype: int,
        guild_id: str | None,
        channel_id: str,
        user: dict[str, Any],
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
        *,
        owners: dict[str, str] | None = None,
    ) -> InteractionRecord:
        """Dispatch an INTERACTION_CREATE; ``guild_id`` ``None`` means ``channel_id`` is a DM or group DM."""
        private = guild_id is None
        channel = self._check_private(channel_id, user) if private else self._check_channel(str(guild_id), channel_id)
        conn = self._target(guild_id)
        if conn is None:
            raise FakeDiscordError("no gateway client is connected and ready")
        payload: dict[str, Any] = {
            "id": self._snowflake(),
            "application_id": self.application_id,
            "type": itype,
            "data": data,
            "channel_id": channel_id,
            "token": "itok_" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": user.get("locale", "en-US"),  # the user's client language (make_user(..., locale=...))
            "entitlements": [],
            "authorizing_integration_owners": owners or {str(INSTALL_GUILD): guild_id},
            "context": CONTEXT_GUILD,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if private:
            payload.update(
                channel=channel,
                user=user,
                context=self._private_context(channel_id),
                app_permissions=PRIVATE_APP_PERMISSIONS
                if payload["context"] == CONTEXT_PRIVATE_CHANNEL
                else MEMBER_PERMISSIONS,
            )
        else:
            assert guild_id is not None
            payload.update(
                guild_id=guild_id,
                guild={"id": guild_id, "locale": "en-US", "features": []},
                channel={**channel, "permissions": MEMBER_PERMISSIONS},
                member=self._member_payload(guild_id, user),
                app_permissions=MEMBER_PERMISSIONS,
                guild_locale="en-US",
            )
        if message is not None:
            payload["message"] = message
        raw = _dumps(payload)
        record = InteractionRecord(payload, raw, component_message_id=message["id"] if message else None)
        self.records.append(record)
        self._records_by_id[record.id] = record
        self._records_by_token[record.token] = record
        record.dispatched_at = time.perf_counter()
        record.shard = conn.session.shard if conn.session is not None else None
        if not conn.dispatch("INTERACTION_CREATE", None, raw_data=raw):
            raise FakeDiscordError("the gateway client disconnected while dispatching")
        return record

    def _where(self, guild_id: str | None, channel_id: str | int) -> tuple[str | None, str]:
        """``(guild_id, channel_id)`` of an injection: ``None`` for a private channel, else the guild (default
        guild when ``guild_id`` is ``None``)."""
        cid = str(channel_id)
        if self._is_private(cid):
            if guild_id is not None:
                raise FakeDiscordError(f"channel {cid} is a private channel, not in guild {guild_id}")
            return None, cid
        return str(guild_id or self.default_guild_id), cid

    def _owners(
        self, guild_id: str | None, channel_id: str, user: dict[str, Any], install: str | None
    ) -> dict[str, str]:
        """authorizing_integration_owners: ``{"1": user}`` for a user install, ``{"0": guild or "0"}`` otherwise."""
        install = install or ("guild" if guild_id is not None or channel_id in self._bot_in_private else "user")
        if install == "user":
            return {str(INSTALL_USER): user["id"]}
        if install != "guild":
            raise ValueError(f"install must be 'guild' or 'user', not {install!r}")
        if guild_id is None and channel_id not in self._bot_in_private:
            raise FakeDiscordError("a guild-installed app can't be used in other people's DMs or group DMs")
        return {str(INSTALL_GUILD): guild_id or "0"}

    @staticmethod
    def _check_available(cmd: dict[str, Any], scope: str | None, context: int, owners: dict[str, str]) -> None:
        """A Discord client only offers a command where its ``contexts`` and ``integration_types`` allow it."""
        if context != CONTEXT_GUILD and scope is not None:
            raise FakeDiscordError(f"/{cmd['name']} is a guild command: it is not offered in DMs")
        installs = cmd.get("integration_types") or [INSTALL_GUILD]
        if not any(int(kind) in installs for kind in owners):
            raise FakeDiscordError(f"/{cmd['name']} has integration_types {installs}: not for this installation")
        contexts = cmd.get("contexts")
        if contexts is None:
            contexts = [CONTEXT_GUILD, CONTEXT_PRIVATE_CHANNEL]
            if cmd.get("dm_permission") is not False:
                contexts.append(CONTEXT_BOT_DM)
        if context not in contexts:
            raise FakeDiscordError(f"/{cmd['name']} has contexts {contexts}: not offered in context {context}")

    def _find_command(self, name: str, guild_id: str | None) -> tuple[dict[str, Any] | None, str | None]:
        for scope in (guild_id, None) if guild_id is not None else (None,):
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd, scope
        return None, None

    def _build_options(
        self,
        guild_id: str | None,
        schema: list[dict[str, Any]] | None,
        values: dict[str, Any],
        resolved: dict[str, Any],
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema or []}
        if schema is not None:
            unknown = set(values) - set(by_name)
            missing = {n for n, o in by_name.items() if o.get("required") and n not in values}
            if unknown or missing:
                raise FakeDiscordError(f"bad options: unknown {sorted(unknown)}, missing required {sorted(missing)}")
        out = []
        for name, value in values.items():
            spec = by_name.get(name, {})
            otype = spec.get("type") or self._infer_option_type(value)
            if otype in (6, 9) and isinstance(value, dict):
                user = value
                self.users.setdefault(user["id"], user)
                resolved.setdefault("users", {})[user["id"]] = user
                if guild_id is not None:
                    member = self.add_member(guild_id, user)
                    resolved.setdefault("members", {})[user["id"]] = {
                        **{k: v for k, v in member.items() if k != "user"},
                        "permissions": MEMBER_PERMISSIONS,
                    }
                value = user["id"]
            elif otype == 7:
                if guild_id is None:
                    raise FakeDiscordError("channel options are not supported in DMs by this fake")
                channel = self._check_channel(guild_id, str(value))
                resolved.setdefault("channels", {})[channel["id"]] = {
                    k: channel[k] for k in ("id", "name", "type", "parent_id")
                } | {"permissions": MEMBER_PERMISSIONS}
                value = channel["id"]
            elif otype == 4:
                value = int(value)
            elif otype == 10:
                value = float(value)
            elif otype == 5:
                value = bool(value)
            elif otype == 3:
                value = str(value)
            choices = spec.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise FakeDiscordError(f"option {name}={value!r} is not one of the declared choices")
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and value < low) or (high is not None and value > high):
                raise FakeDiscordError(f"option {name}={value!r} is outside [{low}, {high}]")
            out.append({"name": name, "type": otype, "value": value})
        return out

    @staticmethod
    def _infer_option_type(value: Any) -> int:
        if isinstance(value, bool):
            return 5
        if isinstance(value, int):
            return 4
        if isinstance(value, float):
            return 10
        if isinstance(value, dict) and "username" in value:
            return 6
        return 3

    async def slash_command(
        self,
        guild_id: str | None,
        channel_id: str,
        user: dict[str, Any],
        name: str = "ttt",
        subcommand: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        install: Literal["guild", "user"] | None = None,
    ) -> InteractionRecord:
        """Dispatch a CHAT_INPUT APPLICATION_COMMAND interaction; ``subcommand`` may be ``"group sub"``.

        ``channel_id`` may be a guild channel (``guild_id`` ``None``: the default guild) or a DM / group DM made by
        :meth:`add_dm_channel` / :meth:`add_group_dm` (``guild_id`` must then be ``None``). ``install`` says which
        installation authorises the command: ``"guild"`` (default in guilds and the bot DM) or ``"user"`` (default
        in other DMs and group DMs); the command must allow it and the context (``integration_types``,
        ``contexts``), or a Discord client would not offer it (FakeDiscordError).

        Option types come from the synced command tree when the command is registered (and are validated against
        it); otherwise they are inferred from the Python values (user dicts become USER options with resolved data).
        """
        gid, cid = self._where(guild_id, channel_id)
        owners = self._owners(gid, cid, user, install)
        context = CONTEXT_GUILD if gid is not None else self._private_context(cid)
        cmd, scope = self._find_command(name, gid)
        if cmd is None and not self.allow_unregistered_commands:
            raise FakeDiscordError(f"command {name!r} is not registered for guild {gid} or globally")
        if cmd is not None:
            self._check_available(cmd, scope, context, owners)
        resolved: dict[str, Any] = {}
        schema: list[dict[str, Any]] | None = cmd.get("options", []) if cmd else None
        path = subcommand.split() if subcommand else []
        chain: list[tuple[str, int]] = []
        for i, part in enumerate(path):
            sub = next((o for o in schema or [] if o["name"] == part and o["type"] in (1, 2)), None)
            if cmd is not None and sub is None:
                raise FakeDiscordError(f"/{name} has no subcommand {part!r}")
            chain.append((part, sub["type"] if sub else (1 if i == len(path) - 1 else 2)))
            schema = sub.get("options", []) if sub else None
        leaf = self._build_options(gid, schema, options or {}, resolved)
        for part, otype in reversed(chain):
            leaf = [{"name": part, "type": otype, "options": leaf}]
        data: dict[str, Any] = {"id": cmd["id"] if cmd else self._snowflake(), "name": name, "type": 1, "options": leaf}
        if scope is not None:
            data["guild_id"] = scope
        if resolved:
            data["resolved"] = resolved
        return await self._inject(INTERACTION_COMMAND, gid, cid, user, data, owners=owners)

    async def press_button(
        self, guild_id: str | None, channel_id: str, user: dict[str, Any], message_id: str, custom_id: str
    ) -> InteractionRecord:
        """Dispatch a MESSAGE_COMPONENT interaction for an enabled button on a stored message.

        Raises FakeDiscordError for anything a Discord client can't click: a missing message, a custom_id not on
        it, a disabled or link button, or someone else's ephemeral message.
        """
        gid, cid = self._where(guild_id, channel_id)
        msg = self._pressable(gid, cid, user, str(message_id))
        comp = next((c for c in _walk_components(msg.get("components") or []) if c.get("custom_id") == custom_id), None)
        if comp is None:
            raise FakeDiscordError(f"message {msg['id']} has no component with custom_id {custom_id!r}")
        if comp.get("type") != 2 or comp.get("style") in (5, 6):
            raise FakeDiscordError(f"component {custom_id!r} is not a clickable button")
        if comp.get("disabled"):
            raise FakeDiscordError(f"button {custom_id!r} on message {msg['id']} is disabled")
        data = {"custom_id": custom_id, "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._inject(
            INTERACTION_COMPONENT, gid, cid, user, data, message=msg, owners=self._message_owners(gid, cid, msg, user)
        )

    async def press_custom_id(
        self,
        guild_id: str | None,
        channel_id: str,
        user: dict[str, Any],
        message_id: str,
        custom_id: str,
        *,
        like: str | None = None,
    ) -> InteractionRecord:
        """Dispatch a press on a stored message's button as if that button carried ``custom_id``: what the bot sees
        for a board sent by an older version of itself or a tampered one (forged or unmatched ids).

        Discord only sends presses of components that are on the message, and discord.py ignores a press whose
        custom_id is missing from the interaction's message, so the dispatched message snapshot has the button
        ``like`` (default: its first button) carrying ``custom_id``; the stored message is not changed.

        Raises FakeDiscordError for a missing message, one without such a button, or someone else's ephemeral one.
        """
        gid, cid = self._where(guild_id, channel_id)
        msg = self._pressable(gid, cid, user, str(message_id))
        snapshot = json.loads(_dumps(msg))
        target = next(
            (
                c
                for c in _walk_components(snapshot.get("components") or [])
                if c.get("type") == 2 and c.get("custom_id") and (like is None or c["custom_id"] == like)
            ),
            None,
        )
        if target is None:
            raise FakeDiscordError(f"message {msg['id']} has no button {like or ''} to press")
        target.update(custom_id=custom_id, disabled=False)
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._inject(
            INTERACTION_COMPONENT,
            gid,
            cid,
            user,
            data,
            message=snapshot,
            owners=self._message_owners(gid, cid, msg, user),
        )

    def _pressable(
        self, guild_id: str | None, channel_id: str, user: dict[str, Any], message_id: str
    ) -> dict[str, Any]:
        if guild_id is None:
            self._check_private(channel_id, user)
        else:
            self._check_channel(guild_id, channel_id)
        msg = self.message(channel_id, message_id)
        if msg is None:
            raise FakeDiscordError(f"message {message_id} does not exist in channel {channel_id}")
        owner = self._ephemeral_owner.get(message_id)
        if owner is not None and owner != user["id"]:
            raise FakeDiscordError(f"message {message_id} is ephemeral and belongs to user {owner}")
        return msg

    def _message_owners(
        self, guild_id: str | None, channel_id: str, message: dict[str, Any], user: dict[str, Any]
    ) -> dict[str, str]:
        """A component interaction is authorised by the installation that made its message."""
        metadata = message.get("interaction_metadata") or {}
        owners = metadata.get("authorizing_integration_owners")
        return dict(owners) if owners else self._owners(guild_id, channel_id, user, None)

    def create_message(
        self,
        channel_id: str,
        content: str = "",
        *,
        components: list[dict[str, Any]] | None = None,
        author: dict[str, Any] | None = None,
        flags: int = 0,
    ) -> dict[str, Any]:
        """Put a message straight into the store (default author: the bot), e.g. a board for ``press_button``."""
        data = {"content": content, "components": components or [], "flags": flags}
        errors = message_errors(data)
        if errors:
            raise FakeDiscordError("; ".join(errors))
        return self._new_message(str(channel_id), data, author=author or self.bot_user)

    # ------------------------------------------------------------------ gateway

    def _target(self, guild_id: str | None) -> _Connection | None:
        """The most recently identified ready connection whose shard owns ``guild_id`` (``None``, a DM: shard 0)."""
        for conn in reversed(self._connections):
            if conn.ready and conn.alive and conn.session is not None:
                shard_id, count = conn.session.shard
                if self.shard_of(guild_id, count) == shard_id:
                    return conn
        return None

    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every ready gateway connection, in connection order."""
        return [c.session.shard for c in self._connections if c.ready and c.alive and c.session is not None]

    async def close_gateway(self, code: int = 4000, reason: str = "", *, shard_id: int | None = None) -> int:
        """Close every ready gateway connection (or only those of ``shard_id``) with ``code``, as Discord does
        (e.g. 4004 "Authentication failed.", 4009 "Session timed out."); returns how many were closed."""
        targets = [
            c
            for c in self._connections
            if c.alive and c.session is not None and (shard_id is None or c.session.shard[0] == shard_id)
        ]
        for conn in targets:
            conn.closed_by_server = code
            await conn.ws.close(code=code, message=reason.encode()[:120])
        return len(targets)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if self._stopping:
            raise web.HTTPServiceUnavailable(text="fake discord shutting down")
        ws = web.WebSocketResponse(max_msg_size=0, compress=False, timeout=2.0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        try:
            if request.query.get("encoding", "json") != "json":
                raise ValueError("only encoding=json is supported")
            compressor = _make_compressor(request.query.get("compress"))
        except ValueError as exc:
            log.error("refusing gateway connection %s: %s", dict(request.query), exc)
            await ws.close(code=4002, message=str(exc).encode()[:120])
            return ws
        self._conn_counter += 1
        conn = _Connection(ws, compressor, self._conn_counter)
        self._connections.append(conn)
        try:
            conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.ERROR:
                        break
                    continue
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"decode error")
                    break
                await self._gateway_op(conn, frame)
        except Exception:
            log.exception("gateway connection failed")
        finally:
            conn.ready = False
            conn.stop_writer()
            self._connections.remove(conn)
            shard = conn.session.shard if conn.session is not None else None
            if conn.closed_by_server is not None:
                self.gateway_closes.append(GatewayClose(conn.closed_by_server, "server", shard, time.perf_counter()))
            else:
                self.gateway_closes.append(GatewayClose(ws.close_code, "client", shard, time.perf_counter()))
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self._notify()
            with contextlib.suppress(Exception):
                await ws.close()
        return ws

    async def _gateway_op(self, conn: _Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == OP_HEARTBEAT:
            conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            await self._resume(conn, d or {})
        elif op == OP_REQUEST_MEMBERS and conn.session is not None:
            gid = str((d or {}).get("guild_id"))
            if gid in self.guilds:
                conn.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": gid,
                        "members": list(self.guilds[gid]["members"].values()),
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "not_found": [],
                        "nonce": (d or {}).get("nonce"),
                    },
                )
        else:
            log.debug("ignoring gateway op %s", op)

    async def _identify(self, conn: _Connection, d: dict[str, Any]) -> None:
        if self.token is not None and d.get("token") != self.token:
            conn.closed_by_server = 4004
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies.append({k: v for k, v in d.items() if k != "token"})
        shard_id, count = d.get("shard") or [0, 1]
        if not 0 <= int(shard_id) < int(count):
            conn.closed_by_server = 4010
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        shard = (int(shard_id), int(count))
        bucket, now = shard[0] % self.max_concurrency, time.monotonic()
        last = self._last_identify.get(bucket)
        if last is not None and now - last < self.identify_window:
            self._invalid_session(conn, "identify too early", shard)
            return
        self._last_identify[bucket] = now
        session = _Session(id=secrets.token_hex(16), shard=shard, intents=int(d.get("intents") or 0), conn=conn)
        self._sessions[session.id] = session
        conn.session = session
        gids = [g for g in self.guilds if self.shard_of(g, session.shard[1]) == session.shard[0]]
        conn.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**self.bot_user, "verified": True, "mfa_enabled": False},
                "session_type": "normal",
                "guilds": [{"id": g, "unavailable": True} for g in gids],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": list(session.shard),
                "application": {"id": self.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "_trace": ["fake-discord"],
            },
        )
        for gid in gids:
            conn.dispatch("GUILD_CREATE", self._guild_payload(gid))
        conn.ready = True
        self.identify_count += 1
        self._notify()

    async def _resume(self, conn: _Connection, d: dict[str, Any]) -> None:
        session = self._sessions.get(str(d.get("session_id")))
        if session is None or (self.token is not None and d.get("token") != self.token):
            self._invalid_session(conn, "unknown session", None)
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.ready = False
        session.conn, conn.session = conn, session
        seq = int(d.get("seq") or 0)
        for s, raw in list(session.replay):
            if s > seq:
                conn.post(raw)
        conn.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        conn.ready = True
        self._notify()

    def _invalid_session(self, conn: _Connection, reason: str, shard: tuple[int, int] | None) -> None:
        log.info("INVALID_SESSION (%s) for shard %s", reason, shard)
        self.invalid_sessions.append(InvalidSession(reason, shard, time.perf_counter()))
        conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
        self._notify()

    def dispatch_event(self, event: str, data: Any, guild_id: str | None = None) -> bool:
        """Queue an arbitrary DISPATCH event to the client responsible for ``guild_id``."""
        conn = self._target(str(guild_id or self.default_guild_id))
        return conn is not None and conn.dispatch(event, data)

    # ------------------------------------------------------------------ REST plumbing

    def _wrap(self, handler: Callable[..., Any], path: str) -> Callable[[web.Request], Any]:
        needs_auth = not path.startswith(("/interactions/", "/webhooks/"))
        bucket = secrets.token_hex(8)  # X-RateLimit-Bucket: one per route, as Discord hashes them

        async def wrapped(request: web.Request) -> web.StreamResponse:
            self.in_flight += 1
            try:
                return await answer(request)
            finally:
                self.in_flight -= 1
                if self.in_flight == 0:
                    self._notify()

        async def answer(request: web.Request) -> web.StreamResponse:
            arrived = time.perf_counter()
            request[ARRIVED] = arrived
            request[ROUTE] = path
            self.route_hits[f"{request.method} {path}"] += 1
            rel = request.path[len(API_PREFIX) :]
            record = self._record_of(request)
            response: web.StreamResponse | None
            fault = None
            if needs_auth and not self._authorized(request):
                response = _json({"message": "401: Unauthorized", "code": 0}, 401)
            else:
                fault = self._match_fault(request.method, rel, record)
                if fault is not None and not fault.applied and (fault.status is not None or fault.drop):
                    response = fault.response(bucket)
                else:
                    try:
                        response = await handler(request)
                    except ApiError as err:
                        response = err.response()
                    if fault is not None and fault.applied:
                        if 200 <= response.status < 300:
                            response = fault.response(bucket)
                            if record is not None and path == CALLBACK_ROUTE:
                                record.answer_lost = True
                        else:  # nothing was applied, so the fault did not happen
                            fault.give_back()
                            fault = None
                if fault is not None:
                    fault.hits.append(f"{request.method} {rel}")
            delay = fault.delay if fault is not None and fault.delay is not None else self._draw_delay(path)
            if delay > 0:
                await asyncio.sleep(delay)
            status = 0 if response is None else response.status
            self.rest_log.append(RestCall(request.method, rel, status, arrived, time.perf_counter()))
            if record is not None and path == CALLBACK_ROUTE:
                record.callback_statuses.append(status)
                self._notify()
            if response is None:
                if request.transport is not None:
                    request.transport.close()
                return web.Response(status=204)  # never reaches the client: its connection is gone
            return response

        return wrapped

    def _authorized(self, request: web.Request) -> bool:
        auth = request.headers.get("Authorization", "")
        return auth.startswith("Bot ") and (self.token is None or auth == f"Bot {self.token}")

    def _record_of(self, request: web.Request) -> InteractionRecord | None:
        """The interaction a callback or webhook request belongs to, if any."""
        interaction_id = request.match_info.get("interaction_id")
        if interaction_id is not None:
            return self._records_by_id.get(interaction_id)
        token = request.match_info.get("token")
        return None if token is None else self._records_by_token.get(token)

    async def _unknown(self, request: web.Request) -> web.Response:
        route = f"{request.method} {request.path}"
        self.unknown_routes.append(route)
        log.warning("unknown route %s", route)
        return _json({"message": "404: Not Found", "code": 0}, 404)

    def _refuse(
        self,
        rule: str,
        status: int,
        code: int,
        message: str,
        request: web.Request,
        record: InteractionRecord | None = None,
        errors: list[str] | None = None,
        tree: dict[str, Any] | None = None,
    ) -> ApiError:
        """Record a rule violation and build the Discord error to answer with."""
        violation = Violation(
            rule,
            "; ".join(errors or []) or message,
            f"{request.method} {request.path}",
            status,
            code,
            record.id if record else None,
        )
        self.violations.append(violation)
        log.warning("violation: %s", violation)
        self._notify()
        return ApiError(status, code, message, errors, tree)

    def _check_spec(self, request: web.Request, body: Any, record: InteractionRecord | None = None) -> None:
        """Refuse (400/50035, rule ``openapi_schema``) a body that the specification's schema of its operation
        rejects; the answer's ``errors`` is nested by field path as Discord's is."""
        if self.spec is None:
            return
        errors = self.spec.errors(request.method, request[ROUTE], body)
        if errors:
            raise self._refuse(
                "openapi_schema",
                400,
                50035,
                "Invalid Form Body",
                request,
                record,
                [describe(e) for e in errors],
                form_errors(errors),
            )

    async def _read_payload(self, request: web.Request) -> tuple[Any, list[Upload]]:
        """The JSON body, or a multipart/form-data body's ``payload_json`` and its ``files[n]`` parts.

        Raises ApiError (400/50035, rule ``invalid_attachments``) for a part that is neither, or a file sent twice.
        """
        if request.content_type != "multipart/form-data":
            if not request.can_read_body:
                return {}, []
            return await request.json(loads=json.loads), []
        raw: str | bytes | None = None
        uploads: list[Upload] = []
        errors = []
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, aiohttp.BodyPartReader):
                errors.append("nested multipart bodies are not accepted")
                continue
            name = part.name or ""
            match = FILE_PART.fullmatch(name)
            if name == "payload_json":
                raw = await part.read()
            elif match is not None and part.filename:
                index = int(match.group(1))
                if any(u.index == index for u in uploads):
                    errors.append(f"{name}: sent twice")
                content_type = part.headers.get("Content-Type", "application/octet-stream")
                uploads.append(Upload(index, part.filename, content_type, bytes(await part.read())))
            else:
                errors.append(f"unexpected form part {name!r} (expected payload_json or files[n] with a filename)")
        if errors:
            raise self._refuse(
                "invalid_attachments", 400, 50035, "Invalid Form Body", request, self._record_of(request), errors
            )
        return (json.loads(raw) if raw else {}), uploads

    def _attachment(self, upload: Upload, entry: dict[str, Any] | None, ephemeral: bool) -> dict[str, Any]:
        """Store an uploaded file and return Discord's attachment object for it (served at ``url``)."""
        aid = self._snowflake()
        filename = str((entry or {}).get("filename") or upload.filename)
        url = f"{self.base_url}/attachments/{aid}/{filename}"
        guessed = mimetypes.guess_type(filename)[0]
        attachment: dict[str, Any] = {
            "id": aid,
            "filename": filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": guessed or upload.content_type,
        }
        if (entry or {}).get("description"):
            attachment["description"] = entry["description"]  # type: ignore[index]
        if ephemeral:
            attachment["ephemeral"] = True
        size = _image_size(upload.data) if (guessed or "").startswith("image/") else None
        if size is not None:
            attachment["width"], attachment["height"] = size
        self.files[aid] = (attachment, upload.data)
        return attachment

    def _attachments(
        self,
        data: dict[str, Any],
        uploads: list[Upload],
        current: list[dict[str, Any]] | None,
        errors: list[str],
        ephemeral: bool,
    ) -> list[dict[str, Any]] | None:
        """The message's attachments after this request (``None``: unchanged), as Discord builds them.

        ``data["attachments"]`` lists every attachment the message keeps: an ``id`` is the ``n`` of a ``files[n]``
        part of this request or, in an edit (``current`` not ``None``), the id of one of the message's
        attachments (the others go). Without it, an edit keeps the old files; new ones are added. Problems go to
        ``errors``.
        """
        by_index = {u.index: u for u in uploads}
        listed = data.get("attachments")
        if listed is None:
            if not uploads:
                return None
            return [*(current or []), *(self._attachment(u, None, ephemeral) for u in uploads)]
        kept = {str(a["id"]): a for a in current or []}
        result, used = [], set()
        for i, entry in enumerate(listed):
            ident = str(entry.get("id"))
            if ident.isdigit() and int(ident) in by_index and ident not in kept:
                used.add(int(ident))
                result.append(self._attachment(by_index[int(ident)], entry, ephemeral))
            elif ident in kept:
                result.append(kept[ident])
            else:
                where = "no files[n] part" + (" and not an attachment of the message" if current is not None else "")
                errors.append(f"attachments.{i}.id: {ident!r} matches {where}")
        result += [self._attachment(u, None, ephemeral) for u in uploads if u.index not in used]
        return result

    def _validate(
        self,
        data: dict[str, Any],
        uploads: list[Upload],
        request: web.Request,
        record: InteractionRecord | None,
        *,
        current: dict[str, Any] | None = None,
        ephemeral: bool = False,
    ) -> list[dict[str, Any]] | None:
        """Check a message create (``current`` ``None``) or an edit of ``current`` against Discord's message rules
        on the message it leaves (:func:`message_errors`), and store its uploads. Returns its attachments
        (``None``: an edit that keeps them). Raises ApiError (400; 50006 for an empty message, else 50035)."""
        errors: list[str] = []
        attachments = self._attachments(
            data, uploads, None if current is None else current["attachments"], errors, ephemeral
        )
        if current is None:
            merged = {**data, "attachments": attachments or []}
        else:
            merged = {
                key: data[key] if key in data else current.get(key) for key in ("content", "embeds", "components")
            }
            merged["attachments"] = current["attachments"] if attachments is None else attachments
            merged["flags"] = self._edited_flags(current["flags"], data.get("flags"))
        if not errors:
            errors = message_errors(merged, partial=current is not None)
        if errors:
            for attachment in attachments or []:
                self.files.pop(attachment["id"], None)
            rule = "invalid_attachments" if any("attachment" in e for e in errors) else "invalid_message"
            code = 50006 if errors == ["Cannot send an empty message"] else 50035
            message = "Invalid Form Body" if code == 50035 else errors[0]
            raise self._refuse(rule, 400, code, message, request, record, errors)
        return attachments

    @staticmethod
    def _edited_flags(old: int, new: int | None) -> int:
        """A message's flags after an edit: ephemeral stays as it was, IS_COMPONENTS_V2 once set stays set (Discord:
        a message can't opt out of Components V2), SUPPRESS_EMBEDS and IS_COMPONENTS_V2 may be set."""
        kept = old & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2 | 4)
        if new is None:
            return kept
        return (old & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)) | (new & (FLAG_COMPONENTS_V2 | 4))

    async def _serve_attachment(self, request: web.Request) -> web.Response:
        """``GET /attachments/{id}/{filename}``: an uploaded file's bytes (what Discord's CDN serves)."""
        stored = self.files.get(request.match_info["attachment_id"])
        if stored is None or stored[0]["filename"] != request.match_info["filename"]:
            return web.Response(status=404, text="404: Not Found")
        attachment, data = stored
        return web.Response(body=data, content_type=attachment["content_type"])

    # ------------------------------------------------------------------ message store

    def _new_message(
        self,
        channel_id: str,
        data: dict[str, Any],
        *,
        author: dict[str, Any],
        record: InteractionRecord | None = None,
        files: list[dict[str, Any]] | None = None,
        extra_flags: int = 0,
    ) -> dict[str, Any]:
        flags = ((data.get("flags") or 0) & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2 | 4 | 4096)) | extra_flags
        msg: dict[str, Any] = {
            "id": self._snowflake(),
            "channel_id": channel_id,
            "guild_id": self._channel_guild.get(channel_id),
            "author": author,
            "content": data.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": bool(data.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": files or [],
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": data.get("components") or [],
        }
        if record is not None:
            msg.update(
                webhook_id=self.application_id,
                application_id=self.application_id,
                interaction_metadata={
                    "id": record.id,
                    "type": record.type,
                    "user": record.user,
                    "authorizing_integration_owners": record.interaction["authorizing_integration_owners"],
                },
            )
            if record.type == INTERACTION_COMMAND and not record.message_ids:
                msg["type"] = 20  # CHAT_INPUT_COMMAND
            if flags & FLAG_EPHEMERAL:
                self._ephemeral_owner[msg["id"]] = record.user["id"]
        self._messages[channel_id][msg["id"]] = msg
        self._message_event("MESSAGE_CREATE", msg)
        self._notify(msg)
        return msg

    def _edit_message(
        self,
        channel_id: str,
        message_id: str,
        data: dict[str, Any],
        attachments: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Apply an edit; ``attachments`` (from :meth:`_validate`) replaces the message's unless ``None``."""
        msg = self.message(channel_id, message_id)
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        for key in ("content", "embeds", "components"):
            if key in data:
                msg[key] = data[key] if data[key] is not None else ("" if key == "content" else [])
        if attachments is not None:
            for gone in {a["id"] for a in msg["attachments"]} - {a["id"] for a in attachments}:
                self.files.pop(gone, None)
            msg["attachments"] = attachments
        msg["flags"] = self._edited_flags(msg["flags"], data.get("flags")) & ~FLAG_LOADING
        msg["edited_timestamp"] = _now_iso()
        self._message_event("MESSAGE_UPDATE", msg)
        self._notify(msg)
        return msg

    def _delete_message(self, channel_id: str, message_id: str) -> None:
        msg = self._messages.get(channel_id, {}).pop(message_id, None)
        if msg is None:
            raise ApiError(404, 10008, "Unknown Message")
        self._ephemeral_owner.pop(message_id, None)
        for attachment in msg["attachments"]:
            self.files.pop(attachment["id"], None)
        self._message_event(
            "MESSAGE_DELETE",
            {"id": message_id, "channel_id": channel_id, "guild_id": msg.get("guild_id")},
            ephemeral=bool(msg["flags"] & 64),
        )
        self._notify()

    def _message_event(self, event: str, msg: dict[str, Any], *, ephemeral: bool | None = None) -> None:
        if not self.message_events or (msg.get("flags", 0) & FLAG_EPHEMERAL if ephemeral is None else ephemeral):
            return
        if self._is_private(msg["channel_id"]) and msg["channel_id"] not in self._bot_in_private:
            return  # the bot is not in that channel
        guild_id = self._channel_guild.get(msg["channel_id"])
        conn = self._target(guild_id)
        wanted = INTENT_DIRECT_MESSAGES if guild_id is None else INTENT_GUILD_MESSAGES
        if conn is not None and conn.session is not None and conn.session.intents & wanted:
            conn.dispatch(event, msg)

    # ------------------------------------------------------------------ REST handlers

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json({**self.bot_user, "verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(request.match_info["user_id"])
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return _json(user)

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return _json(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": self.application_id,
                "name": self.bot_user["username"],
                "icon": None,
                "description": "",
                "summary": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.make_user("1", "owner"),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    def _scope(self, request: web.Request) -> str | None:
        if request.match_info["app_id"] != self.application_id:
            raise self._refuse("wrong_application", 403, 50001, "Missing Access", request)
        gid = request.match_info.get("guild_id")
        if gid is not None and gid not in self.guilds:
            raise self._refuse("unknown_guild", 403, 50001, "Missing Access", request)
        return gid

    async def _get_commands(self, request: web.Request) -> web.Response:
        return _json(self._commands.get(self._scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body, _ = await self._read_payload(request)
        self._check_spec(request, body)
        if not isinstance(body, list):
            raise self._refuse("invalid_commands", 400, 50035, "Invalid Form Body", request, errors=["not a list"])
        errors = []
        if len(body) > 100:
            errors.append("at most 100 commands per scope")
        for cmd in body:
            errors += _command_errors(cmd)
        if errors:
            raise self._refuse("invalid_commands", 400, 50035, "Invalid Form Body", request, errors=errors)
        old = {(c["name"], c.get("type", 1)): c["id"] for c in self._commands.get(scope, [])}
        stored = []
        for cmd in body:
            entry = {
                "type": 1,
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **cmd,
                "id": old.get((cmd["name"], cmd.get("type", 1))) or self._snowflake(),
                "application_id": self.application_id,
                "version": self._snowflake(),
            }
            if scope is not None:
                entry["guild_id"] = scope
            stored.append(entry)
        self._commands[scope] = stored
        self._notify()
        return _json(stored)

    async def _interaction_callback(self, request: web.Request) -> web.StreamResponse:
        now: float = request.get(ARRIVED) or time.perf_counter()
        record = self._records_by_id.get(request.match_info["interaction_id"])
        if record is None or record.token != request.match_info["token"]:
            raise self._refuse("unknown_interaction", 404, 10062, "Unknown interaction", request)
        record._attempted(now)
        try:
            body, uploads = await self._read_payload(request)
            message = self._apply_callback(record, body, uploads, request, now)
        except ApiError as err:
            if record.first_callback_at == now:
                record.error = err
            record._resolve_first()
            raise
        record._resolve_first()
        self._notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        ctype = record.callback_type
        resource: dict[str, Any] = {"type": ctype}
        if message is not None and ctype in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE):
            resource["message"] = message
        return _json(
            {
                "interaction": {
                    "id": record.id,
                    "type": record.type,
                    "activity_instance_id": None,
                    "response_message_id": record.message_id,
                    "response_message_loading": ctype == CB_DEFERRED_MESSAGE,
                    "response_message_ephemeral": record.ephemeral,
                },
                "resource": resource,
            }
        )

    def _apply_callback(
        self,
        record: InteractionRecord,
        body: dict[str, Any],
        uploads: list[Upload],
        request: web.Request,
        now: float,
    ) -> dict[str, Any] | None:
        self._check_spec(request, body, record)
        if record.acknowledged:
            if record.answer_lost:  # the client never learnt of the acknowledgement: a retry is no rule broken
                raise ApiError(400, 40060, "Interaction has already been acknowledged.")
            raise self._refuse(
                "double_acknowledgement", 400, 40060, "Interaction has already been acknowledged.", request, record
            )
        if now - record.dispatched_at > self.ack_deadline:
            raise self._refuse(
                "late_callback",
                404,
                10062,
                "Unknown interaction",
                request,
                record,
                [f"first callback after {now - record.dispatched_at:.3f}s > {self.ack_deadline}s"],
            )
        ctype, data = body.get("type"), body.get("data") or {}
        component_only = (CB_DEFERRED_UPDATE, CB_UPDATE)
        if ctype not in (CB_MESSAGE, CB_DEFERRED_MESSAGE, *component_only, CB_AUTOCOMPLETE, CB_MODAL) or (
            ctype in component_only and record.type not in (INTERACTION_COMPONENT, INTERACTION_MODAL)
        ):
            raise self._refuse(
                "invalid_callback_type",
                400,
                50035,
                "Invalid Form Body",
                request,
                record,
                [f"callback type {ctype} is not valid for interaction type {record.type}"],
            )
        message = None
        if ctype == CB_MESSAGE:
            ephemeral = bool((data.get("flags") or 0) & FLAG_EPHEMERAL)
            attachments = self._validate(data, uploads, request, record, ephemeral=ephemeral)
            message = self._new_message(record.channel_id, data, author=self.bot_user, record=record, files=attachments)
        elif ctype == CB_DEFERRED_MESSAGE:
            message = self._new_message(
                record.channel_id,
                {"flags": data.get("flags")},
                author=self.bot_user,
                record=record,
                extra_flags=FLAG_LOADING,
            )
        elif ctype in component_only:
            if (
                record.component_message_id is None
                or self.message(record.channel_id, record.component_message_id) is None
            ):
                raise self._refuse("unknown_message", 404, 10008, "Unknown Message", request, record)
            message = self.message(record.channel_id, record.component_message_id)
            if ctype == CB_UPDATE:
                assert message is not None
                attachments = self._validate(
                    data, uploads, request, record, current=message, ephemeral=bool(message["flags"] & FLAG_EPHEMERAL)
                )
                message = self._edit_message(record.channel_id, record.component_message_id, data, attachments)
        record.acknowledged = True
        record.callback_type = ctype
        # the response's message flags; an ephemeral message updated (UPDATE_MESSAGE) stays ephemeral
        answered_with = message is not None and ctype in (CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_UPDATE)
        record.flags = message["flags"] if message is not None and answered_with else data.get("flags") or 0
        record.payload = data
        if message is not None:
            record.message_id = message["id"]
            record.message_ids.add(message["id"])
        record._add_event(CallbackEvent("callback", now, data, record.message_id, ctype))
        return message

    def _webhook_record(self, request: web.Request) -> InteractionRecord:
        record = self._records_by_token.get(request.match_info["token"])
        if record is None or request.match_info["app_id"] != self.application_id:
            raise self._refuse("unknown_webhook", 404, 10015, "Unknown Webhook", request)
        age = time.perf_counter() - record.dispatched_at
        if age > self.token_lifetime:  # Discord: 401/50027 once the token's 15 minutes are over
            raise self._refuse(
                "expired_token",
                401,
                50027,
                "Invalid Webhook Token",
                request,
                record,
                [f"interaction token used {age:.3f}s after dispatch > {self.token_lifetime}s"],
            )
        if not record.acknowledged:
            raise self._refuse(
                "followup_before_ack",
                404,
                10015,
                "Unknown Webhook",
                request,
                record,
                ["the interaction was never acknowledged"],
            )
        return record

    async def _create_followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body, record)
        ephemeral = bool((body.get("flags") or 0) & FLAG_EPHEMERAL)
        attachments = self._validate(body, uploads, request, record, ephemeral=ephemeral)
        msg = self._new_message(record.channel_id, body, author=self.bot_user, record=record, files=attachments)
        record.message_ids.add(msg["id"])
        record._add_event(CallbackEvent("followup", time.perf_counter(), body, msg["id"]))
        self._notify()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return _json(msg)
        return web.Response(status=204)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        raw_id = request.match_info["message_id"]
        original = raw_id == "@original"
        mid = record.message_id if original else raw_id
        if mid is None or mid not in record.message_ids or self.message(record.channel_id, mid) is None:
            if request.method == "GET":
                raise ApiError(404, 10008, "Unknown Message")
            raise self._refuse("unknown_message", 404, 10008, "Unknown Message", request, record)
        suffix = "original" if original else "message"
        if request.method == "GET":
            return _json(self.message(record.channel_id, mid))
        if request.method == "DELETE":
            self._delete_message(record.channel_id, mid)
            record._add_event(CallbackEvent(f"delete_{suffix}", time.perf_counter(), {}, mid))
            return web.Response(status=204)
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body, record)
        current = self.message(record.channel_id, mid)
        assert current is not None
        ephemeral = bool(current["flags"] & FLAG_EPHEMERAL)
        attachments = self._validate(body, uploads, request, record, current=current, ephemeral=ephemeral)
        msg = self._edit_message(record.channel_id, mid, body, attachments)
        record._add_event(CallbackEvent(f"edit_{suffix}", time.perf_counter(), body, mid))
        return _json(msg)

    def _channel(self, request: web.Request) -> str:
        cid = request.match_info["channel_id"]
        if self._is_private(cid):
            if cid not in self._bot_in_private:  # a DM or group DM the bot is not in (user-installed app)
                raise self._refuse("missing_access", 403, 50001, "Missing Access", request)
            return cid
        if cid not in self._channel_guild:
            raise self._refuse("unknown_channel", 404, 10003, "Unknown Channel", request)
        return cid

    async def _get_channel(self, request: web.Request) -> web.Response:
        cid = self._channel(request)
        if self._is_private(cid):
            return _json(self.private_channels[cid])
        return _json(self.guilds[self._channel_guild[cid]]["channels"][cid])

    async def _list_channel_messages(self, request: web.Request) -> web.Response:
        cid = self._channel(request)
        limit = max(1, min(100, int(request.query.get("limit", "50"))))
        public = self.messages(cid, include_ephemeral=False)
        return _json(list(reversed(public))[:limit])

    async def _create_channel_message(self, request: web.Request) -> web.Response:
        cid = self._channel(request)
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body)
        if (body.get("flags") or 0) & FLAG_EPHEMERAL:
            raise self._refuse(
                "invalid_message",
                400,
                50035,
                "Invalid Form Body",
                request,
                errors=["channel messages can't be ephemeral"],
            )
        attachments = self._validate(body, uploads, request, None)
        return _json(self._new_message(cid, body, author=self.bot_user, files=attachments))

    async def _channel_message(self, request: web.Request) -> web.StreamResponse:
        cid, mid = self._channel(request), request.match_info["message_id"]
        msg = self.message(cid, mid)
        if msg is None or msg["flags"] & FLAG_EPHEMERAL:
            if request.method == "GET":
                raise ApiError(404, 10008, "Unknown Message")
            raise self._refuse("unknown_message", 404, 10008, "Unknown Message", request)
        if request.method == "GET":
            return _json(msg)
        if request.method == "DELETE":
            self._delete_message(cid, mid)
            return web.Response(status=204)
        if msg["author"]["id"] != self.bot_user["id"]:
            raise self._refuse(
                "edit_foreign_message", 403, 50005, "Cannot edit a message authored by another user", request
            )
        body, uploads = await self._read_payload(request)
        self._check_spec(request, body)
        attachments = self._validate(body, uploads, request, None, current=msg)
        return _json(self._edit_message(cid, mid, body, attachments))


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        token=args.token,
        port=args.port,
        channels=args.channels,
        ack_deadline=args.ack_deadline,
        latency=(args.latency[0], args.latency[1]),
        spec=False if args.no_spec else None,
        max_concurrency=args.max_concurrency,
        identify_window=args.identify_window,
    )
    async with fake:
        for key, value in fake.env().items():
            print(f"{key}={value}", flush=True)
        print(f"# guild {fake.default_guild_id}, channels: {' '.join(fake.channels()[:5])} ...", flush=True)
        await asyncio.Event().wait()


def main() -> None:
    """Run the fake standalone until interrupted, printing the env vars that point a bot at it."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--channels", type=int, default=3)
    parser.add_argument("--token", default=None, help="require this bot token (default: accept any)")
    parser.add_argument("--ack-deadline", type=float, default=3.0)
    parser.add_argument(
        "--latency", type=float, nargs=2, default=(0.05, 0.15), metavar=("LOW", "HIGH"), help="REST round trip (s)"
    )
    parser.add_argument("--max-concurrency", type=int, default=1, help="IDENTIFYs per window (GET /gateway/bot)")
    parser.add_argument(
        "--identify-window", type=float, default=IDENTIFY_WINDOW_SECONDS, help="seconds between IDENTIFYs per bucket"
    )
    parser.add_argument("--no-spec", action="store_true", help="don't validate bodies against Discord's OpenAPI spec")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
