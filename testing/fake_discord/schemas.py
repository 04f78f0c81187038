"""Discord's OpenAPI description prepared for fast validation: equivalent schemas that jsonschema checks in a
fraction of the time (discriminated ``oneOf``s, nullable fields, inlined ``$ref``s), and a cache of objects already
found valid, keyed by their shape."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

SPEC_URI = "urn:discord-openapi"
"""The URI the prepared specification is registered under (its remaining ``$ref``s resolve against it)."""


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
``custom_id``...); set by :func:`spec_registry` from the spec it loads."""


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
Validator = jsonschema.validators.extend(Draft202012Validator, {BY_TYPE: _by_type, NULLABLE: _nullable})


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


def inline(node: Any, schemas: dict[str, Any], done: dict[str, Any], stack: tuple[str, ...] = ()) -> Any:
    """``node`` with every ``$ref`` to ``#/components/schemas/X`` replaced by (prepared) X itself, except where X
    refers back to itself (those stay ``$ref``s, resolved by the registry): one lookup less per keyword."""
    if isinstance(node, list):
        return [inline(item, schemas, done, stack) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/") and len(node) == 1:
        name = ref.removeprefix("#/components/schemas/")
        if name in stack:
            return {"$ref": f"{SPEC_URI}{ref}"}
        if name not in done:
            done[name] = inline(schemas[name], schemas, done, (*stack, name))
        return done[name]
    out = {key: inline(value, schemas, done, stack) for key, value in node.items() if key != "allOf"}
    if "allOf" in node and not _redundant(node, schemas):
        out["allOf"] = inline(node["allOf"], schemas, done, stack)
    return out


@functools.cache
def spec_registry(path: Path) -> tuple[dict[str, Any], Registry[Any]]:
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
    return prepared, Registry().with_resource(SPEC_URI, DRAFT202012.create_resource(prepared))
