"""End to end, the variants: the real bot against the fake Discord (50-150 ms round trips), whole games through
buttons, a text board played with coordinates, refusals, forged custom_ids, and the synced ``variant:`` option.

The fake checks every body against Discord's OpenAPI spec and its message rules (Components V2: the flag, 40
components, no content; classic boards: 5 rows of 5), so a board that breaks one fails the test.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.games.codec import decode as decode_variant
from engine.games import BUILT_IN
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import private_text

from .conftest import BotProcess, make_users

pytestmark = pytest.mark.asyncio(loop_scope="module")

CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
FLAG_COMPONENTS_V2 = 1 << 15
OPTION_STRING = 3
MOVE_WAIT = 60.0
"""Seconds a bot's search may take to appear on the board (5x5 off its opening book, on a loaded machine)."""


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        found.append(component)
        found += walk(component.get("components") or [])
    return found


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in walk(message.get("components") or []) if c.get("type") == 2]


def moves_of(message: dict[str, Any]) -> tuple[int, ...]:
    """The moves a 4x4 or 5x5 board message's buttons carry (every button names the same game)."""
    games = {decode_variant(b["custom_id"])[0].moves for b in buttons(message)}  # type: ignore[union-attr]
    assert len(games) == 1, games
    return games.pop()


def text_of(message: dict[str, Any]) -> str:
    """What a board says: its content, or (Components V2) its text displays."""
    shown = [c["content"] for c in walk(message.get("components") or []) if c.get("type") == 10]
    return "\n".join([message.get("content") or "", *shown])


def over(message: dict[str, Any]) -> bool:
    return any(b.get("label") == "Rematch" for b in buttons(message))


def free_cells(message: dict[str, Any]) -> list[str]:
    """The custom_ids of the cell buttons a player can press."""
    return [b["custom_id"] for b in buttons(message) if not b.get("disabled") and re.match(r"ttt:\d", b["custom_id"])]


async def answered(rec: InteractionRecord) -> InteractionRecord:
    await rec.wait(5.0)
    assert rec.error is None, rec.error
    assert rec.latency is not None and rec.latency < 3.0, rec.latency
    return rec


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def fake(shared_fake: FakeDiscord, shared_bot: BotProcess) -> AsyncIterator[FakeDiscord]:
    yield shared_fake


async def start(fake: FakeDiscord, channel: str, user: dict[str, Any], **options: Any) -> dict[str, Any]:
    rec = await answered(await fake.slash_command(None, channel, user, subcommand="start", options=options))
    assert rec.callback_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and not rec.ephemeral, rec
    assert rec.message_id is not None
    message = fake.message(channel, rec.message_id)
    assert message is not None
    return message


async def bot_moved(fake: FakeDiscord, channel: str, message_id: str, ply: int) -> dict[str, Any]:
    """The board once it shows ``ply`` moves or more, or the end."""

    def ready() -> bool:
        message = fake.message(channel, message_id) or {}
        return over(message) or len(moves_of(message)) >= ply

    await fake.wait_for(ready, MOVE_WAIT)
    message = fake.message(channel, message_id)
    assert message is not None
    return message


async def play_through_buttons(fake: FakeDiscord, variant: str, rng: random.Random) -> dict[str, Any]:
    """A whole game of ``variant`` against the unbeatable bot, pressed cell by cell; returns the last board."""
    channel = fake.add_channel()
    (alice,) = make_users(fake, f"alice-{variant}")
    board = await start(fake, channel, alice, variant=variant, play_as="X")
    while not over(board):
        ply = len(moves_of(board))
        rec = await answered(await fake.press_button(None, channel, alice, board["id"], rng.choice(free_cells(board))))
        assert rec.callback_type == CB_UPDATE and not rec.ephemeral
        shown = rec.payload  # the first callback: the player's move, shown before the bot's
        assert len(moves_of(shown)) == ply + 1
        if not over(shown):
            assert "thinking" in text_of(shown)
            assert not free_cells(shown)  # nothing to press while the bot thinks
        board = await bot_moved(fake, channel, board["id"], ply + 2)
    return board


async def test_the_synced_start_command_offers_every_variant_with_localized_names(fake: FakeDiscord) -> None:
    (ttt,) = [c for c in fake.commands() if c["name"] == "ttt"]
    start_options = next(o for o in ttt["options"] if o["name"] == "start")["options"]
    variant = next(o for o in start_options if o["name"] == "variant")
    assert variant["type"] == OPTION_STRING and not variant.get("required")
    assert variant["name_localizations"]["de"] == "variante"
    assert [c["value"] for c in variant["choices"]] == [game.name for game in BUILT_IN]  # the games built in, in order
    four = variant["choices"][1]
    assert four["name"] == "4x4, four in a row" and four["name_localizations"]["fr"] == "4x4, quatre alignés"
    assert variant["description_localizations"]["ja"].startswith("ゲーム")
    move = next(o for o in ttt["options"] if o["name"] == "move")
    (cell,) = move["options"]
    assert cell["type"] == OPTION_STRING and cell["required"]


async def test_a_whole_4x4_game_through_buttons(fake: FakeDiscord) -> None:
    board = await play_through_buttons(fake, "4x4", random.Random(4))
    assert not board.get("flags", 0) & FLAG_COMPONENTS_V2
    rows = board["components"]
    assert [len(r["components"]) for r in rows] == [4, 4, 4, 4, 1]
    text = text_of(board)
    assert ("draw" in text or "the bot wins" in text) and "alice" not in text.split("wins")[0][-30:]
    if "the bot wins" in text:  # its last move completed four: a win in one, played before any search
        assert re.search(r"O played [a-d][1-4] and wins at once", text), text
    else:
        assert re.search(r"O played [a-d][1-4] · alpha-beta evaluated [\d,]+ states?", text), text


async def test_a_whole_5x5_game_through_buttons_is_not_lost_by_the_bot(fake: FakeDiscord) -> None:
    board = await play_through_buttons(fake, "5x5", random.Random(5))
    assert board.get("flags", 0) & FLAG_COMPONENTS_V2 and not board.get("content")
    everything = walk(board["components"])
    assert len(everything) <= 40 and board["components"][0]["type"] == 10
    assert [len(r["components"]) for r in board["components"][1:]] == [5, 5, 5, 5, 5, 1]
    text = text_of(board)
    assert "draw" in text or "the bot wins" in text, text


async def test_a_text_board_game_with_coordinates(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-text")
    board = await start(fake, channel, alice, variant="4x4", board="text", play_as="X")
    assert "   a b c d" in board["content"] and "/ttt move cell:<a1-d4>" in board["content"]
    rec = await answered(await fake.slash_command(None, channel, alice, subcommand="move", options={"cell": "e5"}))
    assert rec.ephemeral and rec.content == "e5 is not a move on this board: choose a1-d4, or 1-16."
    played: set[str] = set()
    for _ in range(10):
        current = fake.messages(channel, include_ephemeral=False)[-1]
        if over(current):
            break
        grid = re.findall(r"^ ?(\d) ([XO·](?: [XO·]){3})$", current["content"], re.M)
        free = [f"{'abcd'[c]}{r}" for r, row in grid for c, mark in enumerate(row.split()) if mark == "·"]
        cell = next(name for name in free if name not in played)
        played.add(cell)
        rec = await answered(
            await fake.slash_command(None, channel, alice, subcommand="move", options={"cell": cell.upper()})
        )
        assert not rec.ephemeral and rec.message_id is not None
        await fake.wait_for(
            lambda rec=rec: "thinking" not in ((fake.message(channel, rec.message_id) or {}).get("content") or ""),
            MOVE_WAIT,
        )
        shown = (fake.message(channel, rec.message_id) or {}).get("content") or ""
        assert len(shown) <= 2000 and shown.count(" X") + shown.count(" O") >= 2 * len(played) - 1
    final = fake.messages(channel, include_ephemeral=False)[-1]["content"]
    assert re.search(r"O played [a-d][1-4]", final)


async def test_refusals_are_private_and_say_why(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    alice, mallory = make_users(fake, "alice-refusals", "mallory-refusals")
    board = await start(fake, channel, alice, variant="5x5", play_as="X")
    cell = free_cells(board)[12]  # c3
    rec = await answered(await fake.press_button(None, channel, mallory, board["id"], cell))
    assert rec.ephemeral and "isn't your game" in (rec.content or "")
    rec = await answered(await fake.press_button(None, channel, alice, board["id"], cell))
    assert rec.callback_type == CB_UPDATE and not rec.ephemeral
    board = await bot_moved(fake, channel, board["id"], 2)
    messages = len(fake.messages(channel, include_ephemeral=False))
    for user, cell_name, why in (
        (alice, "c3", "taken"),
        (alice, "f6", "choose a1-e5, or 1-25"),
        (mallory, "a1", "isn't your game"),
    ):
        rec = await answered(
            await fake.slash_command(None, channel, user, subcommand="move", options={"cell": cell_name})
        )
        assert rec.ephemeral and why in (rec.content or ""), (cell_name, rec.content)
        assert "<@" not in (rec.content or "") or rec.payload.get("allowed_mentions") == {"parse": []}
    assert len(fake.messages(channel, include_ephemeral=False)) == messages
    assert fake.message(channel, board["id"]) == board


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
async def test_forged_custom_ids_are_refused(fake: FakeDiscord, variant: str) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, f"alice-forged-{variant}")
    board = await start(fake, channel, alice, variant=variant, play_as="X")
    first = free_cells(board)[0]
    parts = first.split(":")
    forged_moves = [*parts[:3], "56", *parts[4:]]  # two moves never played
    impossible = [*parts[:3], "00", *parts[4:]]  # a cell twice: no legal game
    before = fake.message(channel, board["id"])
    for custom_id in (":".join(forged_moves), ":".join(impossible)):
        rec = await answered(await fake.press_custom_id(None, channel, alice, board["id"], custom_id))
        assert rec.ephemeral, custom_id
        said = rec.content or ""
        assert any(why in said for why in ("no longer active", "doesn't match", "out of date")), said
    assert fake.message(channel, board["id"]) == before


async def test_a_forged_two_digit_cell_off_a_4x4_board_is_no_longer_active(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-forged-cell")
    board = await start(fake, channel, alice, variant="4x4", play_as="X")
    parts = free_cells(board)[0].split(":")
    custom_id = ":".join(["ttt", "17", *parts[2:]])  # cell 17 of a 16-cell board
    rec = await answered(await fake.press_custom_id(None, channel, alice, board["id"], custom_id))
    assert rec.ephemeral and "no longer active" in (rec.content or "")


async def test_a_hint_on_a_variant_never_shows_another_boards_cells(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-hint")
    await start(fake, channel, alice, variant="4x4", play_as="X")
    text = await private_text(await fake.slash_command(None, channel, alice, subcommand="hint"))
    assert text
    assert not re.search(r"^`\d+`", text, re.M)  # a 3x3 analysis names cells 1-9
    assert "aren't available" in text or re.search(r"^`[a-d][1-4]`", text, re.M), text
