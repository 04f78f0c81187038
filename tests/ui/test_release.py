"""A handled press leaves no cyclic garbage: its interaction and the view discord.py rebuilt from the pressed message
are freed by reference counting once released, for a classic board and a Components V2 one, even when the callback
raised. The interactions are discord.py's own, built from gateway payloads."""

from __future__ import annotations

import gc
import re
from typing import Any

import discord
import pytest

from bot.ui.release import release_interaction, release_view, releasing
from bot.ui.variant_buttons import VARIANT_ITEMS
from bot.ui.views import DYNAMIC_ITEMS, Inactive

BOT = {"id": "99", "username": "bot", "discriminator": "0", "avatar": None, "bot": True}
ALICE = {"id": "10", "username": "alice", "discriminator": "0", "avatar": None, "global_name": "Alice"}
COMPONENTS_V2 = 1 << 15


def rows(prefix: str) -> list[dict[str, Any]]:
    """Three action rows of three buttons, ``custom_id`` ``{prefix}0``-``{prefix}8``."""
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": str(3 * r + c), "custom_id": f"{prefix}{3 * r + c}"} for c in range(3)
            ],
        }
        for r in range(3)
    ]


CLASSIC = rows("c")
LAYOUT = [
    {"type": 10, "content": "**Ultimate** — your move"},
    {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]},
    *rows("u"),
]


def press(components: list[dict[str, Any]], flags: int = 0, custom_id: str = "c4") -> dict[str, Any]:
    """The gateway payload of a press on ``custom_id`` of a bot message with ``components``, in a DM."""
    return {
        "id": "1001",
        "application_id": BOT["id"],
        "type": 3,
        "token": "token",
        "version": 1,
        "channel_id": "5",
        "channel": {"id": "5", "type": 1, "recipients": [ALICE]},
        "user": ALICE,
        "locale": "en-US",
        "attachment_size_limit": 10_485_760,
        "app_permissions": "0",
        "entitlements": [],
        "authorizing_integration_owners": {"1": ALICE["id"]},
        "context": 1,
        "data": {"custom_id": custom_id, "component_type": 2},
        "message": {
            "id": "500",
            "channel_id": "5",
            "author": BOT,
            "content": "",
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": flags,
            "components": components,
        },
    }


@pytest.fixture
def state() -> Any:
    """A client's connection state, logged in as the bot (nothing connects)."""
    client = discord.Client(intents=discord.Intents.none())
    client._connection.user = discord.ClientUser(state=client._connection, data=BOT)  # type: ignore[arg-type]
    return client._connection


def pressed(state: Any, components: list[dict[str, Any]], flags: int) -> tuple[discord.Interaction[Any], Any]:
    """A press as discord.py dispatches it: the interaction (its response asked for) and the rebuilt view."""
    interaction: discord.Interaction[Any] = discord.Interaction(data=press(components, flags), state=state)  # type: ignore[arg-type]
    assert not interaction.response.is_done()
    assert interaction.message is not None
    view_cls = discord.ui.LayoutView if flags & COMPONENTS_V2 else discord.ui.View
    return interaction, view_cls.from_message(interaction.message, timeout=None)


@pytest.mark.usefixtures("collector_off")
@pytest.mark.parametrize(("components", "flags"), [(CLASSIC, 0), (LAYOUT, COMPONENTS_V2)], ids=["classic", "v2"])
async def test_a_released_press_leaves_nothing_for_the_collector(
    state: Any, components: list[dict[str, Any]], flags: int
) -> None:
    interaction, view = pressed(state, components, flags)
    del interaction, view
    assert gc.collect() > 0  # unreleased, the press is cyclic garbage

    interaction, view = pressed(state, components, flags)
    release_view(view)
    release_interaction(interaction)
    assert not list(view.walk_children())
    del interaction, view
    assert gc.collect() == 0


class _Failing(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"c(?P<cell>\d)"):
    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> _Failing:
        return cls(discord.ui.Button(custom_id=match.string))

    @releasing
    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        interaction.response  # noqa: B018  # asked for, as every answer does
        raise RuntimeError("the handler failed")


@pytest.mark.usefixtures("collector_off")
async def test_a_callback_that_raised_is_released_too(state: Any) -> None:
    interaction, view = pressed(state, CLASSIC, 0)
    base = next(item for item in view.walk_children() if getattr(item, "custom_id", None) == "c4")
    item = _Failing(discord.ui.Button(custom_id="c4"))
    view._swap_item(base, item, "c4")  # as discord.py's view store does
    item._view = view
    with pytest.raises(RuntimeError):
        await item.callback(interaction)
    assert not view.children
    del interaction, view, base, item
    assert gc.collect() == 0


@pytest.mark.parametrize("item", [*DYNAMIC_ITEMS, *VARIANT_ITEMS, Inactive], ids=lambda item: item.__name__)
def test_every_board_button_releases_its_press(item: type[discord.ui.DynamicItem[Any]]) -> None:
    assert item.callback.__code__.co_qualname == "releasing.<locals>.released"
