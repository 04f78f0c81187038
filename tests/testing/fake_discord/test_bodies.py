"""Multipart bodies: uploaded files stored and served, refused uploads, edits keeping or replacing attachments."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from testing.fake_discord import FakeDiscord
from tests.testing.fake_discord.helpers import container, gallery, identified, layout, png, refused, text

pytestmark = pytest.mark.asyncio


def form(payload: dict[str, Any], *files: tuple[int, str, bytes], names: list[str] | None = None) -> aiohttp.FormData:
    """A multipart/form-data body as discord.py builds it: ``payload_json``, then ``files[n]`` parts."""
    data = aiohttp.FormData()
    data.add_field("payload_json", json.dumps(payload))
    for i, (index, filename, content) in enumerate(files):
        name = names[i] if names else f"files[{index}]"
        data.add_field(name, content, filename=filename, content_type="application/octet-stream")
    return data


async def upload(
    http: aiohttp.ClientSession, fake: FakeDiscord, path: str, data: dict[str, Any], *files: tuple[int, str, bytes]
) -> tuple[int, Any]:
    """Send ``data`` with ``files`` (multipart) as a new message through one of the fake's routes."""
    cid, user = fake.channels()[0], fake.make_user(32, "player")
    if path == "channel_post":
        async with http.post(f"{fake.api_base}/channels/{cid}/messages", data=form(data, *files)) as resp:
            return await refused(resp)
    rec = await fake.slash_command(None, cid, user, "ttt", "start")
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
    if path == "callback":
        async with http.post(url, data=form({"type": 4, "data": data}, *files), params={"with_response": "1"}) as resp:
            status, body = await refused(resp)
            return status, body["resource"]["message"] if status == 200 else body
    async with http.post(url, json={"type": 5}) as resp:
        assert resp.status == 204
    hook = f"{fake.api_base}/webhooks/{fake.application_id}/{rec.token}"
    if path == "followup":
        async with http.post(hook, data=form(data, *files), params={"wait": "true"}) as resp:
            return await refused(resp)
    async with http.patch(f"{hook}/messages/@original", data=form(data, *files)) as resp:
        return await refused(resp)


PICTURE = layout(container(text("Ultimate"), gallery("attachment://board.png")))


@pytest.mark.parametrize("path", ["callback", "followup", "edit_original", "channel_post"])
async def test_an_uploaded_file_is_stored_and_served(fake: FakeDiscord, http: aiohttp.ClientSession, path: str) -> None:
    gw = await identified(http, fake)
    picture = png(90, 60)
    attached = {**PICTURE, "attachments": [{"id": 0, "filename": "board.png", "description": "the board"}]}
    status, message = await upload(http, fake, path, attached, (0, "board.png", picture))
    assert status == 200 and fake.violations == [] and not gw.ws.closed
    (attachment,) = message["attachments"]
    assert {k: attachment[k] for k in ("filename", "size", "content_type", "width", "height", "description")} == {
        "filename": "board.png",
        "size": len(picture),
        "content_type": "image/png",
        "width": 90,
        "height": 60,
        "description": "the board",
    }
    assert attachment["url"].startswith(f"{fake.base_url}/attachments/{attachment['id']}/")
    async with http.get(attachment["url"]) as resp:
        assert resp.status == 200 and resp.content_type == "image/png" and await resp.read() == picture
    assert fake.message(fake.channels()[0], message["id"])["attachments"] == [attachment]  # type: ignore[index]


@pytest.mark.spec  # the limits come from Discord's specification
@pytest.mark.invalid_bodies
@pytest.mark.parametrize(
    ("data", "files", "names", "error"),
    [
        (
            {"attachments": [{"id": 1}], "content": "x"},
            [(0, "a.txt", b"a")],
            None,
            "attachments.0.id: '1' matches no files[n] part",
        ),
        (
            PICTURE,
            [(0, "other.png", b"p")],
            None,
            "components.0.components.1.items.0.media.url: attachment://board.png refers to no file of the message",
        ),
        (
            {"content": "x"},
            [(0, "a.txt", b"a")],
            ["file"],
            "unexpected form part 'file' (expected payload_json or files[n] with a filename)",
        ),
        ({"content": "x"}, [(0, "a.txt", b"a"), (0, "b.txt", b"b")], None, "files[0]: sent twice"),
        ({"content": "x" * 2001}, [(0, "a.txt", b"a")], None, "data.content: Must be 2000 or fewer in length."),
    ],
)
async def test_refused_uploads(
    fake: FakeDiscord,
    http: aiohttp.ClientSession,
    data: dict[str, Any],
    files: list[tuple[int, str, bytes]],
    names: list[str] | None,
    error: str,
) -> None:
    gw = await identified(http, fake)
    rec = await fake.slash_command(None, fake.channels()[0], fake.make_user(33, "u"), "ttt", "start")
    url = f"{fake.api_base}/interactions/{rec.id}/{rec.token}/callback"
    async with http.post(url, data=form({"type": 4, "data": data}, *files, names=names)) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 50035
    await rec.wait(1)  # the refused attempt resolves the record at once
    assert rec.error is not None and rec.error.code == 50035 and not rec.acknowledged
    (violation,) = fake.violations
    assert violation.detail == error and violation.invalid_body and not gw.ws.closed
    assert fake.files == {} and fake.messages(fake.channels()[0]) == []


async def test_edits_keep_or_replace_attachments(fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    gw = await identified(http, fake)
    first, second = png(10, 10, "red"), png(20, 20, "blue")
    status, message = await upload(
        http, fake, "channel_post", {"content": "files", "attachments": [{"id": 0}, {"id": 1}]},
        (0, "a.png", first), (1, "b.png", second),
    )  # fmt: skip
    assert status == 200 and [a["filename"] for a in message["attachments"]] == ["a.png", "b.png"]
    old_a, old_b = message["attachments"]
    edit = f"{fake.api_base}/channels/{fake.channels()[0]}/messages/{message['id']}"
    async with http.patch(edit, json={"content": "kept"}) as resp:  # no attachments: all stay
        assert (await resp.json())["attachments"] == [old_a, old_b]
    new = png(30, 30, "green")
    payload = {"attachments": [{"id": old_b["id"]}, {"id": 0, "filename": "c.png"}]}
    async with http.patch(edit, data=form(payload, (0, "upload.png", new))) as resp:  # keep b, add c, drop a
        kept_b, added = (await resp.json())["attachments"]
    assert kept_b == old_b and added["filename"] == "c.png" and added["width"] == 30
    async with http.get(old_a["url"]) as resp:
        assert resp.status == 404  # a dropped file is gone
    async with http.get(added["url"]) as resp:
        assert await resp.read() == new
    async with http.patch(edit, json={"attachments": []}) as resp:
        assert (await resp.json())["attachments"] == [] and fake.files == {}
    status, again = await upload(http, fake, "channel_post", {"content": "one more"}, (0, "d.png", first))
    assert status == 200 and len(fake.files) == 1
    async with http.delete(f"{fake.api_base}/channels/{fake.channels()[0]}/messages/{again['id']}") as resp:
        assert resp.status == 204 and fake.files == {}  # a deleted message's files go with it
    assert fake.violations == [] and not gw.ws.closed
