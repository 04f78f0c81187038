"""Six languages end to end: the synced ``/ttt`` carries its localizations, and a player whose Discord client is in
German plays a whole game in German (boards, the bot's search line, refusals, help)."""

from __future__ import annotations

import pytest

from bot.games.levels import rating_of
from testing.boards import board_of, free_cells
from testing.fake_discord import FakeDiscord
from testing.players import answered, press, private_text, refusal, start_game, ttt, updated_message

from .conftest import BotProcess, make_users

pytestmark = [pytest.mark.asyncio(loop_scope="module")]

LOCALES = {"de", "fr", "es-ES", "es-419", "pt-BR", "ja"}  # Latin American Spanish shares the Spanish catalog


def subcommands(fake: FakeDiscord) -> dict[str, dict[str, object]]:
    (group,) = [c for c in fake.commands() if c["name"] == "ttt"]
    return {sub["name"]: sub for sub in group["options"]}


async def test_the_synced_commands_carry_every_localization(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    (group,) = [c for c in shared_fake.commands() if c["name"] == "ttt"]
    assert set(group["description_localizations"]) == LOCALES
    assert group["description_localizations"]["fr"] == "Jouer au morpion et à d'autres jeux de plateau"
    assert group["integration_types"] == [0, 1] and sorted(group["contexts"]) == [0, 1, 2]
    subs = subcommands(shared_fake)
    same_word = {("stats", "fr")}  # "stats" is French too: no localization needed
    for name, sub in subs.items():
        missing = LOCALES - set(sub["name_localizations"])  # type: ignore[arg-type]
        assert missing == {loc for n, loc in same_word if n == name}, name
        assert set(sub["description_localizations"]) == LOCALES, name  # type: ignore[arg-type]
    assert subs["start"]["name_localizations"] == {  # type: ignore[comparison-overlap]
        "de": "starten",
        "fr": "commencer",
        "es-ES": "empezar",
        "es-419": "empezar",
        "pt-BR": "iniciar",
        "ja": "開始",
    }
    options = {o["name"]: o for o in subs["start"]["options"]}  # type: ignore[attr-defined]
    assert options["level"]["name_localizations"]["de"] == "stufe"
    five = next(c for c in options["level"]["choices"] if c["value"] == 5)
    rating = rating_of("3x3", 5)
    assert five["name"] == f"Level 5 · {rating}"
    assert five["name_localizations"] == {
        "de": f"Stufe 5 · {rating}",
        "fr": f"Niveau 5 · {rating}",
        "es-ES": f"Nivel 5 · {rating}",
        "es-419": f"Nivel 5 · {rating}",
        "pt-BR": f"Nível 5 · {rating}",
        "ja": f"レベル 5 · {rating}",
    }
    assert shared_fake.violations == []  # every localized name follows Discord's rules


async def test_a_german_player_plays_in_german(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    greta, hans = make_users(fake, "greta", "hans")
    greta["locale"] = hans["locale"] = "de"

    board = await start_game(fake, channel, greta)
    assert (
        board["content"].startswith("**Tic-Tac-Toe** · ❌")
        and f"gegen ⭕ der Bot · Stufe 8 ({rating_of('3x3', 8)}, unschlagbar) · Alpha-Beta" in (board["content"])
    )
    assert "ist am Zug (X)." in board["content"]
    labels = {c.get("label") for row in board["components"] for c in row["components"]}
    assert "Aufgeben" in labels

    spectator = await refusal(await press(fake, channel, hans, board, 4))
    assert spectator.startswith("Das ist nicht dein Spiel")

    while True:
        shown = board_of(board) or ""
        rec = await press(fake, channel, greta, board, free_cells(shown)[0])
        board = await updated_message(fake, rec)
        content = board["content"]
        if "Rematch" not in str(board["components"]) and "Revanche" not in str(board["components"]):
            assert "O spielte" in content and "bewertete" in content and "Zustände" in content, content
            continue
        break
    assert "Der Bot hat" in content and "Zustände über" in content, content
    assert "`/ttt analyse`" in content

    help_text = await private_text(await ttt(fake, channel, greta, "help"))
    assert "Bewertete Zustände" in help_text and "Alpha-Beta-Suche" in help_text
    await answered(await ttt(fake, channel, hans, "stats"))
