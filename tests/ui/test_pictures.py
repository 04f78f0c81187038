"""A board's picture is drawn off the event loop, when its reply is sent, and once per position shown."""

from __future__ import annotations

import io
import threading

import discord
import pytest

from bot.images.ultimate import UltimatePicture, draw_ultimate
from bot.ui import pictures
from bot.ui.pictures import Picture, attachments
from engine import Mark

EMPTY = UltimatePicture(cells=(None,) * 81, boards=(None,) * 9, targets=frozenset(range(9)), last=None)
OPENED = UltimatePicture(cells=(Mark.X,) + (None,) * 80, boards=(None,) * 9, targets=frozenset({0}), last=0)


async def test_a_picture_is_drawn_in_a_thread_once_per_position(monkeypatch: pytest.MonkeyPatch) -> None:
    pictures._drawn.cache_clear()
    drawn: list[tuple[UltimatePicture, threading.Thread]] = []

    def draw(shows: UltimatePicture) -> bytes:
        drawn.append((shows, threading.current_thread()))
        return draw_ultimate(shows)

    monkeypatch.setattr(pictures, "draw_ultimate", draw)
    plain = discord.File(io.BytesIO(b"text"), filename="notes.txt")
    first = await attachments((Picture(OPENED, "ultimate.png"), plain))
    again = await attachments((Picture(OPENED, "ultimate.png"),))
    assert [f.filename for f in first] == ["ultimate.png", "notes.txt"] and first[1].fp.read() == b"text"
    assert first[0].fp.read() == again[0].fp.read() == draw_ultimate(OPENED)
    assert [shows for shows, _ in drawn] == [OPENED]  # the second reply of the same position takes the cached one
    assert drawn[0][1] is not threading.main_thread()
    other = await attachments((Picture(EMPTY, "ultimate.png"),))
    assert other[0].fp.read() == draw_ultimate(EMPTY) != draw_ultimate(OPENED) and len(drawn) == 2


async def test_every_request_gets_files_of_its_own_read_from_their_start() -> None:
    plain = discord.File(io.BytesIO(b"text"), filename="notes.txt")
    first = await attachments((plain,))
    assert first[0].fp.read() == b"text"  # what a request does to its files
    again = await attachments((plain,))
    assert again[0] is not first[0] and again[0].fp.read() == b"text" and await attachments(()) == []
