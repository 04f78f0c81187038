"""Discord's message rules beyond the schema: Components V2 limits on every route, and its stickiness."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from testing.fake_discord import FakeDiscord
from tests.testing.fake_discord.helpers import (
    CV2,
    MESSAGE_PATHS,
    button,
    container,
    gallery,
    identified,
    layout,
    row,
    send,
    text,
)

pytestmark = pytest.mark.asyncio


def many_buttons(count: int) -> list[dict[str, Any]]:
    """``count`` components in all: rows of up to 4 buttons, each row counting as one."""
    rows, left, n = [], count, 0
    while left > 0:
        take = min(4, left - 1) if left > 1 else 0
        if take == 0:
            rows.append(text("end"))
            break
        rows.append(row(*[button(f"b{n + i}") for i in range(take)]))
        n, left = n + take, left - take - 1
    return rows


V2_OK = layout(container(text("## Board"), row(button("a"), button("b"))), text("last move: b2"))
V2_REFUSED = [
    ({**V2_OK, "content": "hello"}, "content: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS)"),
    (
        {**V2_OK, "embeds": [{"title": "t"}]},
        "embeds: can't be used with IS_COMPONENTS_V2 (MESSAGE_CANNOT_USE_LEGACY_FIELDS)",
    ),
    (layout(*many_buttons(41)), "components: at most 40 components in total, nested ones included (got 41)"),
    (
        layout(text("x" * 3000), container(text("y" * 1001))),
        "components: text displays hold at most 4000 characters (got 4001)",
    ),
    (layout(container(row(button("a"))), row(button("a"))), "duplicate custom_id 'a'"),
    (layout({**text("a"), "id": 7}, {**text("b"), "id": 7}), "duplicate component id 7"),
    (
        {"components": [container(text("t"))]},
        "components.0: top-level components must be action rows without IS_COMPONENTS_V2 (got type 17)",
    ),
    ({"components": [row(button(f"r{i}")) for i in range(6)]}, "components: must be 5 or fewer in length (got 6 rows)"),
    (
        layout({"type": 13, "file": {"url": "https://example.com/a.txt"}}),
        "a file component must refer to an uploaded file (attachment://<filename>)",
    ),
    (
        layout(gallery("attachment://missing.png")),
        "components.0.items.0.media.url: attachment://missing.png refers to no file of the message",
    ),
]


async def test_forty_components_are_allowed(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await identified(http, fake)
    body = layout(*many_buttons(40))
    assert sum(1 + len(c.get("components", [])) for c in body["components"]) == 40
    status, answer = await send(http, fake, "callback", body)
    assert status == 200 and answer["resource"]["message"]["flags"] == CV2 and fake.violations == []
    status, _ = await send(http, fake, "channel_post", layout(text("x" * 2000), container(text("y" * 2000))))
    assert status == 200 and fake.violations == [] and not gw.ws.closed


@pytest.mark.parametrize("path", MESSAGE_PATHS)
async def test_a_components_v2_message_passes_every_route(
    fake: FakeDiscord, http: aiohttp.ClientSession, path: str
) -> None:
    gw = await identified(http, fake)
    status, _ = await send(http, fake, path, V2_OK)
    assert status == 200 and fake.violations == []
    (stored,) = [m for m in fake.messages(fake.channels()[0]) if m["components"] == V2_OK["components"]]
    assert stored["flags"] & CV2 and stored["content"] == "" and not gw.ws.closed


@pytest.mark.invalid_bodies
@pytest.mark.parametrize("path", MESSAGE_PATHS)
@pytest.mark.parametrize(("data", "error"), V2_REFUSED)
async def test_components_v2_rules_on_every_route(
    fake: FakeDiscord, http: aiohttp.ClientSession, path: str, data: dict[str, Any], error: str
) -> None:
    gw = await identified(http, fake)
    before = {m["id"]: json.dumps(m) for m in fake.messages(fake.channels()[0])}
    status, body = await send(http, fake, path, data)
    assert (status, body["code"], body["message"]) == (400, 50035, "Invalid Form Body")
    (violation,) = fake.violations
    assert violation.detail == error and violation.invalid_body and error in json.dumps(body["errors"])
    after = {m["id"]: json.dumps(m) for m in fake.messages(fake.channels()[0])}
    assert all(after[i] == before[i] for i in before), "a refused edit changed the message"
    assert all(json.loads(m)["components"] != data["components"] for m in after.values()) and not gw.ws.closed


@pytest.mark.invalid_bodies
async def test_components_v2_is_sticky_and_opting_in_needs_no_content(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    cid = fake.channels()[0]
    messages = f"{fake.api_base}/channels/{cid}/messages"
    async with http.post(messages, json=V2_OK) as resp:
        v2 = await resp.json()
    async with http.patch(f"{messages}/{v2['id']}", json={"flags": 0, "components": [text("still v2")]}) as resp:
        assert resp.status == 200 and (await resp.json())["flags"] == CV2  # the flag can't be dropped
    async with http.patch(f"{messages}/{v2['id']}", json={"content": "back to text", "components": []}) as resp:
        assert resp.status == 400 and fake.violations[-1].detail.startswith("content: can't be used")
    assert fake.message(cid, v2["id"])["components"] == [text("still v2")]  # type: ignore[index]

    async with http.post(messages, json={"content": "classic", "components": [row(button("c"))]}) as resp:
        classic = await resp.json()
    async with http.patch(f"{messages}/{classic['id']}", json=layout(text("now v2"))) as resp:
        assert resp.status == 400, "the old content would stay: Discord wants it set to null"
    async with http.patch(f"{messages}/{classic['id']}", json={**layout(text("now v2")), "content": None}) as resp:
        edited = await resp.json()
        assert resp.status == 200 and edited["flags"] == CV2 and edited["content"] == ""
    assert [v.rule for v in fake.violations] == ["invalid_message", "invalid_message"]
