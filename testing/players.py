"""What players do (slash commands, presses) and what they see back, as Discord records it.

An interaction is answered "in time" when its first callback reached Discord within :data:`ACK_LIMIT` seconds
and was accepted; otherwise the user sees "This interaction failed". A private answer is an ephemeral message: a
reply with flag 64, an ephemeral deferral completed by an edit, or an ephemeral followup after a deferral.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from testing.boards import board_of, free_cell_id
from testing.fake_discord import INTERACTION_COMMAND, INTERACTION_COMPONENT, FakeDiscord, InteractionRecord

ACK_LIMIT = 3.0
"""Discord's deadline (s) for an interaction's first callback."""
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
EPHEMERAL = 64
GENERIC_ERROR = "went wrong"
"""Part of the bot's apology for an unexpected error: a refusal must say why instead."""


def describe(rec: InteractionRecord) -> str:
    """One line for assertion messages: who, what, how it was answered and how fast."""
    latency = "never" if rec.latency is None else f"{rec.latency * 1000:.0f} ms"
    error = f" refused {rec.error.status}/{rec.error.code}" if rec.error else ""
    texts = [rec.content or ""] + [str(e.payload.get("content") or "") for e in rec.followups]
    return (
        f"<{rec.user['username']} type={rec.type} cb={rec.callback_type} flags={rec.flags} first={latency}{error} "
        f"statuses={rec.callback_statuses} text={' | '.join(t for t in texts if t)[:160]!r}>"
    )


def is_command(rec: InteractionRecord, sub: str) -> bool:
    """Whether ``rec`` is ``/ttt <sub>``."""
    data = rec.interaction.get("data") or {}
    options = data.get("options") or []
    return rec.type == INTERACTION_COMMAND and bool(options) and options[0].get("name") == sub


def is_press(rec: InteractionRecord) -> bool:
    """Whether ``rec`` is a component (button) interaction."""
    return rec.type == INTERACTION_COMPONENT


def in_time(rec: InteractionRecord) -> bool:
    """Whether ``rec``'s first callback was accepted within :data:`ACK_LIMIT` seconds."""
    return rec.error is None and rec.latency is not None and rec.latency < ACK_LIMIT


async def settle(records: list[InteractionRecord], timeout: float = ACK_LIMIT + 2.0) -> None:
    """Wait until every record's first callback arrived, or ``timeout`` passed (then some never will)."""
    waits = [asyncio.ensure_future(rec.wait(timeout)) for rec in records]
    await asyncio.wait(waits, timeout=timeout + 0.5)
    for task in waits:
        if not task.done():
            task.cancel()
        elif not task.cancelled():
            task.exception()  # retrieved: a timeout here is reported by the caller's assertions


def assert_in_time(records: list[InteractionRecord]) -> float:
    """Every record was answered in time; returns the slowest first-callback latency (s)."""
    late = [describe(r) for r in records if not in_time(r)]
    assert late == [], f"{len(late)} of {len(records)} not answered within {ACK_LIMIT} s: {late[:5]}"
    return max(r.latency or 0.0 for r in records)


async def answered(rec: InteractionRecord, timeout: float = ACK_LIMIT + 2.0) -> InteractionRecord:
    """Wait for the first callback; fails (saying how it went) unless it was accepted within the 3 s limit."""
    await settle([rec], timeout)
    assert in_time(rec), f"not answered in time: {describe(rec)}"
    return rec


def message_text(payload: dict[str, Any]) -> str:
    """What a reader sees of a message's text: its content, then each embed's description and fields (name, value)."""
    embeds = [
        "\n".join([embed.get("description") or "", *(f"{f['name']}\n{f['value']}" for f in embed.get("fields") or [])])
        for embed in payload.get("embeds") or []
    ]
    return "\n".join(part for part in [payload.get("content") or "", *embeds] if part)


async def private_text(rec: InteractionRecord, timeout: float = ACK_LIMIT + 2.0) -> str:
    """The text of the ephemeral answer ``rec`` got (waiting for a deferral to be completed); fails otherwise."""
    await answered(rec, timeout)
    if rec.callback_type == CB_MESSAGE:
        assert rec.ephemeral, f"answered publicly, not privately: {describe(rec)}"
        return message_text(rec.payload)
    if rec.callback_type == CB_DEFERRED_MESSAGE and rec.ephemeral:
        event = await rec.wait_for_event(lambda e: e.kind == "edit_original", timeout)
        return message_text(event.payload)
    try:
        event = await rec.wait_for_event(
            lambda e: e.kind == "followup" and bool((e.payload.get("flags") or 0) & EPHEMERAL), timeout
        )
    except TimeoutError:
        raise AssertionError(f"no private answer: {describe(rec)}") from None
    return message_text(event.payload)


async def refusal(rec: InteractionRecord, timeout: float = ACK_LIMIT + 2.0) -> str:
    """A private answer that is not the bot's generic apology; returns its text."""
    text = await private_text(rec, timeout)
    assert text and GENERIC_ERROR not in text, f"a refusal must say why: {describe(rec)}"
    return text


async def public_message(fake: FakeDiscord, rec: InteractionRecord, timeout: float = ACK_LIMIT + 2.0) -> dict[str, Any]:
    """The public message ``rec`` posted (a reply, or a deferral completed by an edit); fails otherwise."""
    await answered(rec, timeout)
    assert rec.callback_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and not rec.ephemeral, (
        f"no public message: {describe(rec)}"
    )
    if rec.callback_type == CB_DEFERRED_MESSAGE:
        await rec.wait_for_event(lambda e: e.kind == "edit_original", timeout)
    message = fake.message(rec.channel_id, rec.message_id or "")
    assert message is not None, describe(rec)
    return message


async def updated_message(
    fake: FakeDiscord, rec: InteractionRecord, timeout: float = ACK_LIMIT + 2.0
) -> dict[str, Any]:
    """The pressed message as ``rec`` updated it (an update, or a deferred update completed by an edit)."""
    await answered(rec, timeout)
    assert rec.callback_type in (CB_UPDATE, CB_DEFERRED_UPDATE), f"the press did not update its board: {describe(rec)}"
    if rec.callback_type == CB_DEFERRED_UPDATE:
        await rec.wait_for_event(lambda e: e.kind == "edit_original", timeout)
    message = fake.message(rec.channel_id, rec.component_message_id or "")
    assert message is not None, describe(rec)
    return message


async def delivered(fake: FakeDiscord, rec: InteractionRecord, grace: float = 0.2) -> None:
    """Wait until the answer to ``rec``'s first callback went back to the bot, plus ``grace`` seconds for the bot
    to act on it: for steps that are about something else than racing an answer in flight."""
    await fake.wait_for(lambda: bool(rec.callback_statuses), ACK_LIMIT + 2.0)
    await asyncio.sleep(grace)


async def start_game(
    fake: FakeDiscord, channel: str, user: dict[str, Any], *, guild_id: str | None = None, **options: Any
) -> dict[str, Any]:
    """``/ttt start`` (options as given: ``board="text"``, ``opponent=user``...); returns the public board/prompt."""
    rec = await fake.slash_command(guild_id, channel, user, subcommand="start", options=options or None)
    return await public_message(fake, rec)


async def press(
    fake: FakeDiscord, channel: str, user: dict[str, Any], message: dict[str, Any], cell: int
) -> InteractionRecord:
    """Press free cell ``cell`` (0-8) of a button board."""
    guild_id = None if channel in fake.private_channels else fake.default_guild_id
    return await fake.press_button(guild_id, channel, user, message["id"], free_cell_id(message, cell))


async def ttt(
    fake: FakeDiscord, channel: str, user: dict[str, Any], sub: str, /, *, forged: bool = False, **options: Any
) -> InteractionRecord:
    """``/ttt <sub>`` with ``options`` (``forged``: values outside the declared choices allowed, as a modified client
    sends them)."""
    return await fake.slash_command(None, channel, user, subcommand=sub, options=options or None, forged=forged)


async def wait_quietly(awaitable: Any, timeout: float) -> bool:
    """Await ``awaitable`` for up to ``timeout`` s; ``True`` if it finished (its timeout is not an error here)."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(awaitable, timeout)
        return True
    return False


def current_board(fake: FakeDiscord, channel: str, message_id: str) -> str:
    """The board the message with ``message_id`` shows now."""
    message = fake.message(channel, message_id)
    assert message is not None, f"message {message_id} is gone"
    board = board_of(message)
    assert board is not None, f"message {message_id} shows no board: {message['content']!r}"
    return board
