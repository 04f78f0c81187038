"""The "floor" bot: answers every button press with one ``edit_message`` and does nothing else.

The load benchmark runs it against the fake Discord to measure the lowest first-callback latency discord.py can
achieve. Run as ``python testing/floor_bot.py [--mode raw|dynamic]`` with DISCORD_TOKEN, DISCORD_API_BASE and
DISCORD_GATEWAY_URL set. ``raw`` answers from ``on_interaction``; ``dynamic`` goes through a catch-all persistent
``DynamicItem`` (discord.py's view machinery, as a real bot would).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
from typing import Any

import discord
import yarl

log = logging.getLogger(__name__)

PRESSED = "pressed"


class AnyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r".+"):
    """A persistent item matching every custom_id."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnyButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=PRESSED)


class FloorBot(discord.AutoShardedClient):
    """A client that edits the message of every button press."""

    def __init__(self, mode: str) -> None:
        super().__init__(intents=discord.Intents.default())
        self.mode = mode

    async def setup_hook(self) -> None:
        if self.mode == "dynamic":
            self.add_dynamic_items(AnyButton)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if self.mode == "raw" and interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=PRESSED)


CLIENT = FloorBot
"""The client class (the load benchmark's launcher wraps its ``setup_hook``)."""


def configure_endpoints() -> None:
    """Point discord.py at DISCORD_API_BASE / DISCORD_GATEWAY_URL when set."""
    if api := os.environ.get("DISCORD_API_BASE"):
        discord.http.Route.BASE = api.rstrip("/")
    if gateway := os.environ.get("DISCORD_GATEWAY_URL"):
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=("raw", "dynamic"), default="raw")
    args = parser.parse_args()
    configure_endpoints()
    FloorBot(args.mode).run(os.environ["DISCORD_TOKEN"], log_level=logging.WARNING)


if __name__ == "__main__":
    main()
