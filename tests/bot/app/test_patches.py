from __future__ import annotations

import discord
import pytest
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.app import patches


def test_the_installed_discord_py_is_the_version_the_patches_were_written_for() -> None:
    patches.check_version()
    assert tuple(int(part) for part in discord.__version__.split(".")[:2]) == patches.WRITTEN_FOR


@pytest.mark.parametrize("version", ["2.8.0", "2.6.4", "3.0.0a1"])
def test_another_minor_version_is_refused_before_anything_is_patched(
    monkeypatch: pytest.MonkeyPatch, version: str
) -> None:
    monkeypatch.setattr(discord, "__version__", version)
    original = AsyncWebhookAdapter.create_interaction_response
    with pytest.raises(patches.UnsupportedDiscordVersionError, match=version):
        patches.install_adapter_hook(lambda interaction_id, send: send())
    assert AsyncWebhookAdapter.create_interaction_response is original
    with pytest.raises(patches.UnsupportedDiscordVersionError):
        patches.use_endpoints("http://127.0.0.1:9/api/v10", "ws://127.0.0.1:9/gw")


def test_the_adapter_hook_is_undone_when_its_last_callback_leaves() -> None:
    original = AsyncWebhookAdapter.create_interaction_response

    async def callback(interaction_id: int, send: object) -> None:
        return None

    patches.install_adapter_hook(callback)
    assert AsyncWebhookAdapter.create_interaction_response is not original
    patches.uninstall_adapter_hook(callback)
    assert AsyncWebhookAdapter.create_interaction_response is original
