"""Finding Discord's OpenAPI description (read in ``../shared``, never copied), validating request bodies against
the schema of their operation, and answering the errors as Discord's nested 50035 ``errors`` object."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from testing.fake_discord.protocol import CALLBACK_ROUTE
from testing.fake_discord.schemas import Validator, inline, spec_registry

SPEC_ENV = "DISCORD_API_SPEC"
"""Environment variable naming the OpenAPI file to validate against instead of :data:`SPEC_RELATIVE`."""
SPEC_RELATIVE = Path("..", "shared", "discord-api-spec", "openapi.json")
"""Where Discord's OpenAPI description lives, relative to the repository root (read there, never copied)."""
SPEC_URI = "urn:discord-openapi"
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


def spec_or_none(start: Path | None = None) -> Path | None:
    """:func:`find_spec`'s file, or ``None`` when there is none (a clone without ``../shared``)."""
    try:
        return find_spec(start)
    except FileNotFoundError:
        return None


SPEC_MISSING = (
    f"Discord's OpenAPI specification was not found (set {SPEC_ENV} to its openapi.json, or put it at "
    "../shared/discord-api-spec/openapi.json): the fake Discord does not check request bodies against it, and the "
    "tests that need it are skipped."
)
"""The one line the test run prints when the specification is absent."""


class SpecValidator:
    """Validates request bodies against the request-body schema of the matching operation in Discord's OpenAPI
    description (OpenAPI 3.1, JSON Schema 2020-12), with one compiled validator per operation.

    Raises FileNotFoundError (see :func:`find_spec`) when the specification can't be found.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = (path or find_spec()).resolve()
        self._spec, self._registry = spec_registry(self.path)
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
                schema = inline(content["application/json"]["schema"], schemas, self._inlined)
                self._validators[key] = Validator(schema, registry=self._registry)
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
