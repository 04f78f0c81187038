"""Breaking the reference cycles that discord.py leaves behind a handled press, so that they are freed at once.

Each press on a board leaves two kinds of cycle:
- the interaction and its response: the ``InteractionResponse`` points at its interaction, which caches it;
- the view that discord.py rebuilds from the pressed message for a ``DynamicItem``: the view lists its items, and
  each item points back at its view (and at its row, on a Components V2 board).

Everything they hold goes down with them: the message, its components, the member and the user, some 80 objects
a 3x3 press. Reference counting cannot free a cycle, so all of it waited for the cyclic garbage collector. In
``benchmarks/ultimate_load.py`` (20 ultimate games next to 8 3x3 channels) that was about 6,000 objects a second.
The collector freed them in pauses of 3-4 ms (generation 1) and 15-33 ms (a full pass), in front of whatever
presses were waiting. Broken once a press is handled, these cycles are freed a press at a time, in microseconds.

The interaction keeps working after :func:`release_interaction`: editing its ``@original`` (for a user install's
board) does not go through its response. Only ``interaction.response`` starts afresh, and nothing asks for it once
the press is handled.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord

__all__ = ["release_interaction", "release_view", "releasing"]

CACHED_RESPONSE = "_cs_response"
"""The slot in which discord.py's ``Interaction`` caches its ``response`` (``utils.cached_slot_property``)."""

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any])


def release_view(view: discord.ui.View | discord.ui.LayoutView | None) -> None:
    """Empty ``view`` and each container in it (rows, containers, sections, galleries), innermost first, through
    discord.py's own ``clear_items``, which also unlinks each item from the view. Nothing is sent: the view was
    only read from a message."""
    if view is None:
        return
    for item in reversed(list(view.walk_children())):
        clear = getattr(item, "clear_items", None)
        if callable(clear):
            clear()
    view.clear_items()


def release_interaction(interaction: discord.Interaction[Any]) -> None:
    """Drop the response that ``interaction`` caches (``Interaction.response``), which points back at it."""
    with contextlib.suppress(AttributeError):  # never asked for, or a discord.py that caches it elsewhere
        delattr(interaction, CACHED_RESPONSE)


def releasing(
    callback: Callable[[ItemT, discord.Interaction[discord.Client]], Coroutine[Any, Any, None]],
) -> Callable[[ItemT, discord.Interaction[discord.Client]], Coroutine[Any, Any, None]]:
    """A ``DynamicItem`` callback that releases its interaction and its view (:func:`release_interaction`,
    :func:`release_view`) once it has returned or raised."""

    @functools.wraps(callback)
    async def released(item: ItemT, interaction: discord.Interaction[discord.Client]) -> None:
        try:
            await callback(item, interaction)
        finally:
            release_view(item.view)
            release_interaction(interaction)

    return released
