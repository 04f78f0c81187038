"""A board's picture as an attachment drawn off the event loop.

Drawing an ultimate board's PNG (:func:`bot.images.ultimate.draw_ultimate`) costs about 5 ms of CPU, and Pillow's
encoder gives up the GIL while it compresses, so drawn on the event loop it holds up every other answer for that
time and then waits to get the GIL back (a median of 21 ms next to one busy thread; ``benchmarks/ultimate_load.py``).
A reply therefore carries a :class:`Picture`, what to draw, and the responder and the background edits turn it into
a file with :func:`attachments`, which draws in a thread just before the request is sent. Drawings are cached by
what they show, since one position is often shown twice (the board, then its edit after a failed answer).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import discord

from bot.images.ultimate import UltimatePicture, draw_ultimate

__all__ = ["Attachment", "Picture", "attachments"]


@dataclass(frozen=True, slots=True)
class Picture:
    """An ultimate board's picture to attach as ``filename``, not drawn yet."""

    shows: UltimatePicture
    filename: str

    def file(self) -> discord.File:
        """The picture drawn (or taken from the cache) as a file to attach (CPU: about 5 ms when not cached)."""
        return discord.File(io.BytesIO(_drawn(self.shows)), filename=self.filename)


Attachment = discord.File | Picture
"""What a reply attaches: a file, or a picture drawn when it is sent."""


@lru_cache(maxsize=64)
def _drawn(shows: UltimatePicture) -> bytes:
    return draw_ultimate(shows)


def _copy(file: discord.File) -> discord.File:
    """A file of its own with ``file``'s content, read from its start (discord.py leaves a file read to its end
    after a request)."""
    file.reset()
    return discord.File(io.BytesIO(file.fp.read()), filename=file.filename, description=file.description)


async def attachments(files: Sequence[Attachment]) -> list[discord.File]:
    """``files`` ready for one request, each a file of its own: every :class:`Picture` drawn in a thread (off the
    event loop), every file copied from its start."""
    if not any(isinstance(item, Picture) for item in files):
        return [_copy(item) for item in files if isinstance(item, discord.File)]
    return await asyncio.to_thread(
        lambda: [item.file() if isinstance(item, Picture) else _copy(item) for item in files]
    )
