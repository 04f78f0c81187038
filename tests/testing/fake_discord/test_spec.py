"""Validation against Discord's OpenAPI description: every body route has an operation, the prepared schemas judge
as the published ones, refusals are Discord's Invalid Form Body."""

from __future__ import annotations

import functools
import json
from typing import Any

import aiohttp
import jsonschema
import pytest
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from testing.fake_discord import CALLBACK_ROUTE, SPEC_OPERATIONS, FakeDiscord, SpecValidator, find_spec
from tests.testing.fake_discord.helpers import TOKEN, button, container, gallery, identified, layout, row, send, text

pytestmark = [pytest.mark.asyncio, pytest.mark.spec]


async def test_every_body_route_has_an_operation_in_the_spec() -> None:
    spec = SpecValidator.shared()
    assert spec.path == find_spec() and spec.path.parts[-3:] == ("shared", "discord-api-spec", "openapi.json")
    for method, route in SPEC_OPERATIONS:
        assert spec.validator(method, route) is not None, (method, route)
    assert spec.validator("GET", "/users/@me") is None


SPEC_SAMPLES: list[tuple[str, dict[str, Any] | list[Any]]] = [
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "hi", "components": [row(button("a"), button("b"))]}}),
    (CALLBACK_ROUTE, {"type": 7, "data": layout(container(text("t"), row(button("a"))), gallery("attachment://x"))}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"attachments": [{"id": "0", "filename": "b.png"}], "flags": 64}}),
    (CALLBACK_ROUTE, {"type": 6}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "w" * 2000}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "\n" * 2000}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "x" * 2001}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("a", label="L" * 81))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row({"type": 2, "style": 9, "custom_id": "a"})]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [{"type": 2, "style": 1, "custom_id": "a"}]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": layout(container(text("")))}),
    (CALLBACK_ROUTE, {"type": 4, "data": layout(container(row(button("a")), {"type": 99}))}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"attachments": [{"id": "x1"}]}}),
    (CALLBACK_ROUTE, {"type": 42}),
    (CALLBACK_ROUTE, {"type": 6, "data": None}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "x", "allowed_mentions": None, "embeds": None}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"content": "x", "allowed_mentions": "all"}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(*[button(str(i)) for i in range(5)])]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(*[button(str(i)) for i in range(6)])]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row({**button("e"), "emoji": None})]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row({**button("e"), "emoji": {"name": 5}})]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("c" * 100))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("d" * 100))]}}),  # same shape: checked once
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("e" * 101))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button(""))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("x" * 99 + "\n"))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("\\" * 100))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("'" * 101))]}}),
    (CALLBACK_ROUTE, {"type": 4, "data": {"components": [row(button("\"'" * 51))]}}),
    (CALLBACK_ROUTE, {"type": 4.0, "data": {"content": "a float type"}}),
    (CALLBACK_ROUTE, {"type": True, "data": {"content": "a boolean type"}}),
    (CALLBACK_ROUTE, {"data": {}}),
    ("/webhooks/{app_id}/{token}", {"embeds": [{"title": "t" * 257}]}),
    ("/webhooks/{app_id}/{token}", {"content": "ok", "allowed_mentions": {"parse": []}}),
    ("/channels/{channel_id}/messages", {"content": "ok", "components": [row(button("a", label=""))]}),
    ("/applications/{app_id}/commands", [{"name": "ttt", "description": "d" * 101}]),
    ("/applications/{app_id}/commands", [{"name": "ttt", "description": "d", "options": [{"type": 1}]}]),
]


@functools.cache
def published_validator(method: str, route: str) -> jsonschema.Draft202012Validator:
    """The operation's request-body schema exactly as Discord publishes it (no rewriting: ~30 ms a body)."""
    raw = json.loads(SpecValidator.shared().path.read_text())
    pointer = "/".join(
        p.replace("~", "~0").replace("/", "~1")
        for p in ("paths", SPEC_OPERATIONS[(method, route)], method.lower(), "requestBody", "content")
    )
    registry = Registry().with_resource("urn:raw", DRAFT202012.create_resource(raw))
    return jsonschema.Draft202012Validator({"$ref": f"urn:raw#/{pointer}/application~1json/schema"}, registry=registry)


@pytest.mark.parametrize(("route", "body"), SPEC_SAMPLES)
async def test_the_faster_schema_judges_as_the_published_one(route: str, body: Any) -> None:
    """The fake rewrites the spec's unions for speed: it must accept and refuse exactly what the spec does."""
    method = {"/channels/{channel_id}/messages": "POST", "/applications/{app_id}/commands": "PUT"}.get(route, "POST")
    published = published_validator(method, route).is_valid(body)
    assert (SpecValidator.shared().errors(method, route, body) == []) is published


async def test_snowflakes_may_be_integers_as_on_discord() -> None:
    """The one place the fake is laxer than the spec: discord.py sends a file's attachment id as an integer (its
    files[n] index), which Discord takes; the spec only lists strings."""
    body = {"type": 4, "data": {"attachments": [{"id": 0, "filename": "b.png"}]}}
    assert not published_validator("POST", CALLBACK_ROUTE).is_valid(body)
    assert SpecValidator.shared().errors("POST", CALLBACK_ROUTE, body) == []
    assert SpecValidator.shared().errors("POST", CALLBACK_ROUTE, {"type": 4, "data": {"attachments": [{"id": -1}]}})


@pytest.mark.invalid_bodies
async def test_bodies_the_spec_refuses_get_discords_invalid_form_body(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    gw = await identified(http, fake)
    status, body = await send(http, fake, "callback", {"components": [row(button("a", label="L" * 81))]})
    label_error = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 80 or fewer in length."}]}
    assert (status, body) == (
        400,
        {
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": {"data": {"components": {"0": {"components": {"0": {"label": label_error}}}}}},
        },
    )
    (violation,) = fake.violations
    assert violation.rule == "openapi_schema" and violation.invalid_body
    assert violation.detail == "data.components.0.components.0.label: Must be 80 or fewer in length."

    status, body = await send(
        http, fake, "followup", {"content": "ok", "components": [row({"type": 2, "custom_id": "a"})]}
    )
    assert status == 400 and body["errors"]["components"]["0"]["components"]["0"]["style"]["_errors"] == [
        {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}
    ]
    status, body = await send(http, fake, "channel_post", {"content": "ok", "tts": "yes"})
    assert status == 400 and fake.violations[-1].detail == "tts: 'yes' is not of type 'boolean', 'null'"
    assert [v.rule for v in fake.violations] == ["openapi_schema"] * 3
    assert [m["flags"] for m in fake.messages(fake.channels()[0])] == [128]  # only the followup's deferral

    status, body = await send(http, fake, "callback", {"content": "valid", "components": [row(button("a"))]})
    assert status == 200 and body["resource"]["message"]["content"] == "valid" and len(fake.violations) == 3
    assert not gw.ws.closed


async def test_a_fake_without_the_spec_checks_only_its_own_rules(http: aiohttp.ClientSession) -> None:
    async with FakeDiscord(token=TOKEN, latency=(0.0, 0.0), spec=False) as fake:
        gw = await identified(http, fake)
        status, _ = await send(http, fake, "channel_post", {"content": "ok", "tts": "yes"})
        assert status == 200 and fake.violations == [] and not gw.ws.closed
