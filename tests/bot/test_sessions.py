"""The session value and the per-channel manager, without Discord."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import render
from bot.sessions import ChannelBusyError, Session, SessionManager
from engine import CellOccupiedError, GameOverError, Mark, choose_move, parse_board
from tests.bot.conftest import ALICE, BOB, CHANNEL, Harness


def _game(**kwargs: object) -> Session:
    return Session("0a1b2c", CHANNEL, ALICE, None, **kwargs)  # type: ignore[arg-type]


def test_transitions_are_validated_and_return_new_values() -> None:
    session = _game()
    after = session.play(4)
    assert session.state.marks == 0 and after.state[4] is Mark.X and after.ai_to_move
    with pytest.raises(CellOccupiedError):
        after.play(4)
    decision = choose_move(after.state, rng=random.Random(0))
    replied = after.with_ai(decision)
    assert replied.last_ai.cell == decision.move and replied.ai_states == decision.search.states > 0
    assert replied.to_move is Mark.X and not replied.ai_to_move
    over = replied.resign(Mark.X)
    assert over.over and over.winner is Mark.O
    with pytest.raises(GameOverError):
        over.play(0)


def test_a_winning_move_ends_the_game() -> None:
    session = _game(state=parse_board("XX.OO...."))
    won = session.play(2)
    assert won.over and won.end_reason == "win" and won.winner is Mark.X


async def test_one_game_per_channel_and_finished_games_are_remembered() -> None:
    manager = SessionManager(turn_timeout=600)
    first = manager.start(_game())
    with pytest.raises(ChannelBusyError) as busy:
        manager.start(Session("ffffff", CHANNEL, BOB, None))
    assert busy.value.running is first
    manager.start(Session("eeeeee", CHANNEL + 1, BOB, None))
    assert len(manager) == 2
    moved = manager.update(first.play(0))
    assert manager.get(CHANNEL) is moved
    with pytest.raises(KeyError):
        manager.update(Session("dddddd", CHANNEL, BOB, None))
    manager.update(moved.resign(Mark.X))
    assert manager.get(CHANNEL) is None and manager.is_finished("0a1b2c") and not manager.is_finished("eeeeee")
    assert manager.lock(CHANNEL) is manager.lock(CHANNEL) and manager.lock(CHANNEL) is not manager.lock(CHANNEL + 1)
    manager.close()


async def test_the_timer_fires_once_and_moves_postpone_it() -> None:
    ended: list[Session] = []

    async def on_timeout(session: Session) -> None:
        ended.append(session)

    manager = SessionManager(turn_timeout=0.05, on_timeout=on_timeout)
    session = manager.start(_game())
    for _ in range(3):
        await asyncio.sleep(0.03)
        session = manager.update(session.play(next(c for c in range(9) if session.state[c] is None)))
    assert ended == []
    await asyncio.sleep(0.1)
    assert [s.end_reason for s in ended] == ["abandoned"] and manager.get(CHANNEL) is None
    assert manager.is_finished(session.game_id)


async def test_an_unreadable_custom_id_still_gets_an_answer(harness: Harness) -> None:
    press = await harness.press_custom_id("ttt:3:0a1b2c:OO.......:uab:1:b", ALICE, 42)
    assert press.private_texts() == [render.STALE_BOARD]
