"""Synced command trees: localizations, installs and contexts kept; invalid trees refused."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from testing.fake_discord import FakeDiscord
from tests.testing.fake_discord.helpers import pointed_at, running

pytestmark = pytest.mark.asyncio


class FrenchTranslator(app_commands.Translator):
    """Translates into French from a table (``bad`` adds a name Discord refuses)."""

    def __init__(self, bad: bool = False) -> None:
        self.table = {"dice": "de", "Roll a die": "Lancer un dé", "faces": "faces", "Six": "Six faces"}
        if bad:
            self.table["faces"] = "Nombre De Faces"

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        return self.table.get(string.message) if locale is discord.Locale.french else None


class LocalizedClient(discord.Client):
    def __init__(self, translator: app_commands.Translator) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.ready = asyncio.Event()
        self.tree = app_commands.CommandTree(self)
        self.translator = translator

        @self.tree.command(name="dice", description="Roll a die")
        @app_commands.describe(faces="Roll a die")
        @app_commands.rename(faces="faces")
        @app_commands.choices(faces=[app_commands.Choice(name="Six", value=6)])
        @app_commands.allowed_installs(guilds=True, users=True)
        async def dice(interaction: discord.Interaction, faces: int) -> None:
            await interaction.response.send_message(str(faces))

    async def setup_hook(self) -> None:
        await self.tree.set_translator(self.translator)

    async def on_ready(self) -> None:
        self.ready.set()


@pytest.mark.invalid_bodies
async def test_synced_commands_keep_localizations_installs_and_contexts(fake: FakeDiscord) -> None:
    client = LocalizedClient(FrenchTranslator())
    with pointed_at(fake):
        async with running(client, client.ready):
            await client.tree.sync()
    (dice,) = fake.commands()
    assert dice["name_localizations"] == {"fr": "de"} and dice["description_localizations"] == {"fr": "Lancer un dé"}
    assert dice["integration_types"] == [0, 1]
    (faces,) = dice["options"]
    assert faces["name_localizations"] == {"fr": "faces"} and faces["description_localizations"]["fr"]
    assert faces["choices"][0]["name_localizations"] == {"fr": "Six faces"}
    assert fake.violations == []

    bad = LocalizedClient(FrenchTranslator(bad=True))
    with pointed_at(fake):
        async with running(bad, bad.ready):
            with pytest.raises(discord.HTTPException) as refused:
                await bad.tree.sync()
    assert refused.value.status == 400 and refused.value.code == 50035
    (violation,) = fake.violations
    assert violation.rule == "invalid_commands" and "Nombre De Faces" in violation.detail
    assert "options.0.name_localizations.fr" in violation.detail


@pytest.mark.spec  # the limits come from Discord's specification
@pytest.mark.parametrize(
    ("command", "needle"),
    [
        ({"name": "Ttt", "description": "d"}, "invalid name 'Ttt'"),
        ({"name": "ttt", "description": "d", "name_localizations": {"de": "zwei worte"}}, "invalid name"),
        ({"name": "ttt", "description": "d", "name_localizations": {"xx": "ttt"}}, "not a Discord locale"),
        ({"name": "ttt", "description": "d", "description_localizations": {"fr": ""}}, "fr: Must be 1 or more"),
        ({"name": "ttt", "description": "d", "options": [{"type": 3, "name": "a b", "description": "d"}]}, "a b"),
        ({"name": "ttt", "description": "d", "contexts": [5]}, "contexts"),
    ],
)
@pytest.mark.invalid_bodies
async def test_invalid_command_trees_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession, command: dict[str, Any], needle: str
) -> None:
    async with http.put(f"{fake.api_base}/applications/{fake.application_id}/commands", json=[command]) as resp:
        assert resp.status == 400 and (await resp.json())["code"] == 50035
    assert len(fake.violations) == 1 and needle in fake.violations[0].detail and fake.commands() == []
    ok = {"name": "tic-tac-toe_3", "description": "d", "name_localizations": {"hi": "खेल", "th": "เกม", "ru": "игра"}}
    async with http.put(f"{fake.api_base}/applications/{fake.application_id}/commands", json=[ok]) as resp:
        assert resp.status == 200
