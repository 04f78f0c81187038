"""End to end, ultimate tic-tac-toe: the real bot against the fake Discord (50-150 ms round trips).

A whole game through the pad, its free choices made on the player's private pad (an ephemeral followup: a small board
chosen, Back, chosen again, a cell played there) while the public board stays as it is until the move; a bystander
and a stale private pad refused; a burst of presses while the bot's 1 s search runs, and forged custom_ids (a
restart in the middle of a game: ``test_ultimate_restart_e2e.py``). The games against the bot use
``level:2`` (a search of 100 states) to keep the suite fast; the burst uses level 8 (up to 1 s).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from testing.fake_discord import FakeDiscord, FakeDiscordError, InteractionRecord
from testing.players import private_text

from .conftest import BotProcess, make_users

pytestmark = pytest.mark.asyncio(loop_scope="module")

CB_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 6, 7
FLAG_COMPONENTS_V2 = 1 << 15
MOVE_WAIT = 20.0
FLAG_EPHEMERAL = 1 << 6
REF = re.compile(r"ttt:u:(?P<kind>\d{1,2}|[rnk]|p[0-8]):(?P<game>[0-9a-z]+):(?P<version>\d+)")
PAD = re.compile(r"ttt:up:(?P<kind>\d{1,2}|k|p[0-8]):(?P<game>[0-9a-z]+):(?P<version>\d+)")


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        found.append(component)
        found += walk(component.get("components") or [])
    return found


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for c in walk(message.get("components") or []) if c.get("type") == 2]


def version(message: dict[str, Any]) -> int:
    versions = {int(m["version"]) for b in buttons(message) if (m := REF.fullmatch(b["custom_id"]))}
    assert len(versions) == 1, versions
    return versions.pop()


def pressable(message: dict[str, Any], kind: str) -> list[str]:
    """The enabled buttons of ``kind``: ``cell`` (a cell of the pad), ``pick`` (a small board) or ``back``, on a board
    message or on a private pad."""
    pattern = {"cell": r"\d{1,2}", "pick": r"p[0-8]", "back": "k"}[kind]
    return [
        b["custom_id"]
        for b in buttons(message)
        if not b.get("disabled")
        and (m := REF.fullmatch(b["custom_id"]) or PAD.fullmatch(b["custom_id"]))
        and re.fullmatch(pattern, m["kind"])
    ]


def text_of(message: dict[str, Any]) -> str:
    return "\n".join(c["content"] for c in walk(message.get("components") or []) if c.get("type") == 10)


def over(message: dict[str, Any]) -> bool:
    return any(b.get("label") == "Rematch" for b in buttons(message))


def check_layout(message: dict[str, Any]) -> None:
    """An ultimate board: Components V2, no content, the picture in a media gallery, a 3x3 pad, within limits."""
    assert message.get("flags", 0) & FLAG_COMPONENTS_V2 and not message.get("content")
    top = message["components"]
    assert [c["type"] for c in top[:2]] == [10, 12]
    assert top[1]["items"][0]["media"]["url"] == "attachment://ultimate.png"
    assert [a["filename"] for a in message["attachments"]] == ["ultimate.png"]
    assert [len(row["components"]) for row in top[2:5]] == [3, 3, 3]
    assert len(walk(top)) <= 40


async def answered(rec: InteractionRecord) -> InteractionRecord:
    await rec.wait(5.0)
    assert rec.error is None, rec.error
    assert rec.latency is not None and rec.latency < 3.0, rec.latency
    return rec


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def fake(shared_fake: FakeDiscord, shared_bot: BotProcess) -> AsyncIterator[FakeDiscord]:
    yield shared_fake


async def start(fake: FakeDiscord, channel: str, user: dict[str, Any], **options: Any) -> dict[str, Any]:
    options = {"variant": "ultimate", "play_as": "X", **options}
    rec = await answered(await fake.slash_command(None, channel, user, subcommand="start", options=options))
    assert rec.callback_type == CB_MESSAGE and not rec.ephemeral and rec.message_id is not None
    message = fake.message(channel, rec.message_id)
    assert message is not None
    check_layout(message)
    return message


async def bot_moved(fake: FakeDiscord, channel: str, message_id: str, at_least: int) -> dict[str, Any]:
    def ready() -> bool:
        message = fake.message(channel, message_id) or {}
        return over(message) or version(message) >= at_least

    await fake.wait_for(ready, MOVE_WAIT)
    message = fake.message(channel, message_id)
    assert message is not None
    return message


async def open_pad(
    fake: FakeDiscord, channel: str, user: dict[str, Any], board: dict[str, Any], picked: str
) -> dict[str, Any]:
    """Choose small board ``picked`` on the public ``board``: the press is answered with DEFERRED_UPDATE_MESSAGE (its
    ``@original`` stays the board), the private pad comes as an ephemeral followup (the chosen board's cells and
    Back) and the board message is left exactly as it was."""
    before = fake.message(channel, board["id"])
    rec = await answered(await fake.press_button(None, channel, user, board["id"], picked))
    assert rec.callback_type == CB_DEFERRED_UPDATE and rec.message_id == board["id"]
    followup = await rec.wait_for_event(lambda e: e.kind == "followup", MOVE_WAIT)
    assert followup.payload.get("flags", 0) & FLAG_EPHEMERAL and followup.message_id is not None
    pad = fake.message(channel, followup.message_id) or {}
    assert pad["flags"] & FLAG_EPHEMERAL and "Only you see this pad" in pad["content"]
    assert (
        pressable(pad, "back")
        and not pressable(pad, "pick")
        and all(PAD.fullmatch(b["custom_id"]) for b in buttons(pad))
    )
    assert fake.message(channel, board["id"]) == before, "choosing a small board changed the public board"
    return pad


async def on_pad(fake: FakeDiscord, channel: str, user: dict[str, Any], pad: dict[str, Any], custom_id: str) -> Any:
    """Press ``custom_id`` on the private pad: the pad itself is updated (UPDATE_MESSAGE), still ephemeral."""
    rec = await answered(await fake.press_button(None, channel, user, pad["id"], custom_id))
    assert rec.callback_type == CB_UPDATE and rec.ephemeral and rec.component_message_id == pad["id"]
    return fake.message(channel, pad["id"]) or {}


async def play_one(
    fake: FakeDiscord, channel: str, user: dict[str, Any], board: dict[str, Any], rng: random.Random
) -> tuple[dict[str, Any], bool]:
    """One move by ``user`` through the pad (on a free choice: through the private pad, choosing a small board and
    sometimes going Back and choosing again); returns the board after the bot's answer and whether the move was a
    free choice."""
    ply = version(board)
    free = bool(pressable(board, "pick"))
    if not free:
        cell = rng.choice(pressable(board, "cell"))
        rec = await answered(await fake.press_button(None, channel, user, board["id"], cell))
        assert rec.callback_type == CB_UPDATE and not rec.ephemeral
        first = rec.payload  # the player's move, shown at once, the bot thinking
        assert first.get("flags", 0) & FLAG_COMPONENTS_V2 and not first.get("content")
        if not over(first):
            assert "thinking" in text_of(first) and not [
                b
                for b in buttons(first)
                if REF.fullmatch(b["custom_id"]) and not b.get("disabled") and b.get("label") != "Resign"
            ]
    else:
        pad = await open_pad(fake, channel, user, board, rng.choice(pressable(board, "pick")))
        if rng.random() < 0.5:
            pad = await on_pad(fake, channel, user, pad, pressable(pad, "back")[0])
            assert pressable(pad, "pick") and not pressable(pad, "back")
            pad = await on_pad(fake, channel, user, pad, rng.choice(pressable(pad, "pick")))
        pad = await on_pad(fake, channel, user, pad, rng.choice(pressable(pad, "cell")))
        assert "You played" in pad["content"] and not buttons(pad)
    after = await bot_moved(fake, channel, board["id"], ply + 2)
    check_layout(after)
    return after, free


async def test_a_whole_ultimate_game_through_the_pad_with_free_choices(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-ultimate")
    rng = random.Random(9)
    board = await start(fake, channel, alice, level=2)
    pictures = {board["attachments"][0]["id"]}
    # a free choice made privately: choose a small board, go Back to the open boards, choose another, play there
    pad = await open_pad(fake, channel, alice, board, pressable(board, "pick")[4])
    assert [b.get("label") for b in buttons(pad)[:3]] == ["d4", "e4", "f4"]
    pad = await on_pad(fake, channel, alice, pad, pressable(pad, "back")[0])
    assert len(pressable(pad, "pick")) == 9 and not pressable(pad, "cell") and "Choose a small board" in pad["content"]
    assert fake.message(channel, board["id"]) == board, "Back changed the public board"
    pad = await on_pad(fake, channel, alice, pad, pressable(pad, "pick")[2])
    assert [b.get("label") for b in buttons(pad)] == ["g1", "h1", "i1", "g2", "h2", "i2", "g3", "h3", "i3", "Back"]
    assert fake.message(channel, board["id"]) == board
    pad = await on_pad(fake, channel, alice, pad, pressable(pad, "cell")[4])  # h2
    assert pad["content"].startswith("You played h2") and not buttons(pad) and pad["flags"] & FLAG_EPHEMERAL
    board = await bot_moved(fake, channel, board["id"], 2)
    assert version(board) == 2 and "O played" in text_of(board)
    pictures.add(board["attachments"][0]["id"])
    free_choices = 1
    while not over(board):
        board, free = await play_one(fake, channel, alice, board, rng)
        free_choices += free
        pictures.add(board["attachments"][0]["id"])
    assert free_choices >= 1
    assert len(pictures) > version(board) // 2  # the picture is replaced on every move
    text = text_of(board)
    assert re.search(r"wins!|draw", text) and "/ttt review" in text
    assert len(fake.messages(channel, include_ephemeral=False)) == 1, "a choice posted a public message"


async def test_only_the_player_to_move_may_choose_and_a_stale_private_pad_is_refused(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    alice, bob = make_users(fake, "alice-choice", "bob-choice")
    board = await start(fake, channel, alice, level=2)
    rec = await answered(await fake.press_button(None, channel, bob, board["id"], pressable(board, "pick")[0]))
    assert rec.ephemeral and rec.callback_type == CB_MESSAGE and "isn't your game" in (rec.content or "")
    assert not (rec.components or [])
    pad = await open_pad(fake, channel, alice, board, pressable(board, "pick")[0])
    older = await open_pad(fake, channel, alice, board, pressable(board, "pick")[8])  # a second pad, same version
    with pytest.raises(FakeDiscordError):  # Bob's client cannot even see Alice's pad
        await fake.press_button(None, channel, bob, pad["id"], pressable(pad, "cell")[0])
    for custom_id in (pressable(pad, "cell")[0], pressable(pad, "back")[0]):  # the pad's ids, forged onto the board
        rec = await answered(await fake.press_custom_id(None, channel, bob, board["id"], custom_id))
        assert rec.ephemeral and "isn't your game" in (rec.content or ""), custom_id
    assert fake.message(channel, board["id"]) == board
    pad = await on_pad(fake, channel, alice, pad, pressable(pad, "cell")[0])
    assert "You played a1" in pad["content"]
    board = await bot_moved(fake, channel, board["id"], 2)
    for custom_id in (pressable(older, "cell")[0], pressable(older, "back")[0]):  # a pad from before the move
        rec = await answered(await fake.press_button(None, channel, alice, older["id"], custom_id))
        assert rec.callback_type == CB_MESSAGE and rec.ephemeral and "board changed" in (rec.content or ""), custom_id
    assert fake.message(channel, board["id"]) == board and version(board) == 2


async def test_a_burst_of_presses_during_a_long_search(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    alice, bob = make_users(fake, "alice-burst", "bob-burst")
    board = await start(fake, channel, alice, level=8)
    pad = await open_pad(fake, channel, alice, board, pressable(board, "pick")[4])
    stale = pressable(pad, "cell")
    await on_pad(fake, channel, alice, pad, stale[4])  # e5
    await fake.wait_for(lambda: "thinking" in text_of(fake.message(channel, board["id"]) or {}), MOVE_WAIT)
    game_id = PAD.fullmatch(stale[0])["game"]  # type: ignore[index]
    current = [f"ttt:u:{cell}:{game_id}:1" for cell in (0, 10, 20, 30)]  # the board as it is now, pressed anyway
    burst = [
        fake.press_custom_id(None, channel, user, board["id"], custom_id)
        for custom_id in stale[:4] + stale[5:] + current
        for user in (alice, bob)
    ]
    records = await asyncio.gather(*(answered(pressed) for pressed in await asyncio.gather(*burst)))
    assert all(r.ephemeral for r in records)
    said = {r.content for r in records}
    assert any("isn't your game" in (s or "") for s in said)
    assert any("board changed" in (s or "") for s in said), said
    assert any("still thinking" in (s or "") for s in said), said
    after = await bot_moved(fake, channel, board["id"], 2)
    assert version(after) == 2 and "O played" in text_of(after)


async def test_forged_custom_ids_are_refused(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-forged-u")
    board = await start(fake, channel, alice, level=2)
    board, _ = await play_one(fake, channel, alice, board, random.Random(3))
    game = REF.fullmatch(buttons(board)[0]["custom_id"])
    assert game is not None
    before = fake.message(channel, board["id"])
    forged = [
        f"ttt:u:40:{game['game']}:{version(board) + 4}",  # a version never played
        f"ttt:u:40:zzzzzzzz:{version(board)}",  # a game that does not exist
        f"ttt:u:90:{game['game']}:{version(board)}",  # off the board
    ]
    for custom_id in forged:
        rec = await answered(await fake.press_custom_id(None, channel, alice, board["id"], custom_id))
        assert rec.ephemeral and rec.content, custom_id
    assert fake.message(channel, board["id"]) == before


async def test_an_ultimate_hint_is_private_and_marked_as_an_estimate(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-hint-u")
    await start(fake, channel, alice, level=2)
    text = await private_text(await fake.slash_command(None, channel, alice, subcommand="hint"))
    assert "estimate" in text and re.search(r"^`[a-i][1-9]` ", text, re.M), text
    assert re.search(r"reached \d+ plies deep and evaluated [\d,]+ states", text), text
    assert re.search(r"^`[a-i][1-9]` (expected score \d+%|\(proved: )", text, re.M), text


async def test_how_did_it_think_shows_the_mcts_first_plies_privately(fake: FakeDiscord) -> None:
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice-thinks-u")
    board = await bot_moved(fake, channel, (await start(fake, channel, alice, play_as="O"))["id"], 1)  # the bot is X
    think = next(b["custom_id"] for b in buttons(board) if b.get("label") == "How did it think?")
    assert re.fullmatch(r"ttt:u:w:[0-9a-z]+:1", think), think  # the game by reference, at the bot's first move
    rec = await answered(await fake.press_button(None, channel, alice, board["id"], think))
    assert rec.callback_type == 5 and rec.ephemeral  # deferred privately: the search is recomputed and drawn
    event = await rec.wait_for_event(lambda e: e.kind == "edit_original", MOVE_WAIT)
    answer = fake.message(channel, event.message_id or "") or {}
    text = str(answer["content"])
    assert text.startswith("**How I chose") and "Monte Carlo tree search played 20,000 games" in text, text
    (attachment,) = answer["attachments"]
    assert fake.files[attachment["id"]][1].startswith(b"\x89PNG")
