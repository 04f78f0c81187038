"""Every press and look acts on the game the bot holds or stored in the press's channel (issue 45): a board whose game
lives in another channel is refused and changes nothing, in memory and after a restart, whatever its ``custom_id``
says; who may act is read from the game the bot holds or stored; a look writes nothing. The rows of a real SQLite
records file are read before and after each forged press."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Hinted, Refusal, Shown, Thinking
from bot.games.match import BoardRef, Match
from bot.games.service import History
from bot.games.store import RecordsGames
from tests.bot.games.resuming.test_recovery import Process, played
from tests.bot.games.test_service import ALICE, BOB, CAROL, CHANNEL, pad_ref, pressed, refused, started, who

OTHER = CHANNEL + 1
"""The channel a forged press comes from: the game runs in ``CHANNEL``."""
ELSEWHERE_MESSAGE = 7000
"""A message of ``OTHER`` (the bot's own, say) on which the forged button is pressed."""
AWAY = who(ALICE, OTHER)
"""Alice, pressing in ``OTHER``."""
NOTHING = History(())
"""The history of ``OTHER``: no board of the game."""


def rows(tmp_path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The ``running_games`` and ``games`` rows of the records file (a running row with the time of its last write)."""
    with sqlite3.connect(tmp_path / "records.sqlite3") as connection:
        running = connection.execute(
            "SELECT game_id, channel_id, x_user_id, o_user_id, moves, version, states_evaluated, verified, updated_at "
            "FROM running_games ORDER BY game_id"
        ).fetchall()
        games = connection.execute(
            "SELECT game_id, channel_id, x_user_id, o_user_id, moves, result, end_reason FROM games ORDER BY game_id"
        ).fetchall()
    return running, games


def elsewhere(board: Match | BoardRef) -> Any:
    """``board`` pressed on a message of channel ``OTHER``: its ``custom_id`` unchanged, its place the press's."""
    return replace(board, channel_id=OTHER, message_id=ELSEWHERE_MESSAGE)


async def centre(process: Process) -> Match:
    """Alice (X) took the centre of a 3x3 game against the bot in ``CHANNEL`` and the bot replied: its board."""
    played = await process.games.press(who(ALICE), await started(process.games), 4)
    assert isinstance(played, Shown)
    await process.written()
    return pressed(played.game)


async def test_a_look_from_another_channel_neither_writes_nor_loses_the_game(
    ai: AI, store: RecordsGames, tmp_path: Path
) -> None:
    """The look that lost a game: the game's running row became an unverified copy in the other channel, and after a
    restart its real board resumed unverified and its end was never recorded."""
    first = Process(store, ai)
    try:
        board = await centre(first)
        before = rows(tmp_path)
        assert [(r[0], r[1], r[7]) for r in before[0]] == [(board.game_id, CHANNEL, 1)]
        for hint in (False, True):
            looked = await first.games.explain(AWAY, elsewhere(board), hint=hint, history=NOTHING)
            refused(looked, refusals.ELSEWHERE)
        await first.written()
        assert rows(tmp_path) == before, "a look wrote the database"
        assert first.games.current(OTHER) is None, "a look held a copy of the game in another channel"
    finally:
        await first.close()
    second = Process(store, ai)  # a restart: the game is stored running in its own channel, and so resumes
    try:
        await second.games.recover()
        looked = await second.games.explain(AWAY, elsewhere(board), hint=False, history=NOTHING)
        refused(looked, refusals.ELSEWHERE)
        await second.written()
        assert rows(tmp_path) == before, "a look after the restart wrote the database"
        assert second.games.current(OTHER) is None
        resigned = await second.games.resign(who(ALICE), board=board, history=History((board,)))
        assert isinstance(resigned, Shown) and resigned.game.verified
        await second.written()
        running, games = rows(tmp_path)
        assert running == [] and [(g[0], g[1], g[6]) for g in games] == [(board.game_id, CHANNEL, "resigned")]
    finally:
        await second.close()


async def test_a_move_resign_or_rematch_from_another_channel_changes_nothing(
    ai: AI, store: RecordsGames, tmp_path: Path
) -> None:
    first = Process(store, ai)
    try:
        board = await centre(first)
        free = next(c for c in range(9) if board.state[c] is None)
        before = rows(tmp_path)
        refused(await first.games.press(AWAY, elsewhere(board), free, history=NOTHING), refusals.ELSEWHERE)
        refused(await first.games.resign(AWAY, board=elsewhere(board), history=NOTHING), refusals.ELSEWHERE)
        await first.written()
        assert rows(tmp_path) == before and first.games.current(OTHER) is None
    finally:
        await first.close()
    second = Process(store, ai)
    try:
        await second.games.recover()
        refused(await second.games.press(AWAY, elsewhere(board), free, history=NOTHING), refusals.ELSEWHERE)
        refused(await second.games.resign(AWAY, board=elsewhere(board), history=NOTHING), refusals.ELSEWHERE)
        await second.written()
        assert rows(tmp_path) == before and second.games.current(OTHER) is None
        ended = await second.games.resign(who(ALICE), board=board, history=History((board,)))
        assert isinstance(ended, Shown)
        await second.written()
        final = pressed(ended.game)
        refused(await second.games.rematch(AWAY, elsewhere(final), game_id="r1"), refusals.ELSEWHERE)
        assert second.games.current(OTHER) is None
    finally:
        await second.close()
    third = Process(store, ai)  # the ended game known from the records only
    try:
        await third.games.recover()
        after = rows(tmp_path)
        refused(await third.games.rematch(AWAY, elsewhere(final), game_id="r2"), refusals.ELSEWHERE)
        refused(await third.games.press(AWAY, elsewhere(board), free, history=NOTHING), refusals.ELSEWHERE)
        await third.written()
        assert rows(tmp_path) == after and third.games.current(OTHER) is None
    finally:
        await third.close()


async def test_a_pad_or_reference_from_another_channel_changes_nothing(
    ai: AI, store: RecordsGames, tmp_path: Path
) -> None:
    first = Process(store, ai)
    try:
        board = await started(first.games, variant="ultimate", level=2)
        await first.written()
        before = rows(tmp_path)
        public = BoardRef("ultimate", board.game_id, 0, CHANNEL, 5, board.message_id)
        for ref in (elsewhere(public), elsewhere(pad_ref(board))):
            refused(await first.games.press(AWAY, ref, 40, history=NOTHING), refusals.ELSEWHERE)
            refused(await first.games.choose(AWAY, ref, 4, history=NOTHING), refusals.ELSEWHERE)
        await first.written()
        assert rows(tmp_path) == before and first.games.current(OTHER) is None
    finally:
        await first.close()
    second = Process(store, ai)
    try:
        await second.games.recover()
        for ref in (elsewhere(public), elsewhere(pad_ref(board))):
            refused(await second.games.press(AWAY, ref, 40, history=History((ref,))), refusals.ELSEWHERE)
        await second.written()
        assert rows(tmp_path) == before and second.games.current(OTHER) is None
        ended = await second.games.resign(who(ALICE), board=public, history=History((public,)))
        assert isinstance(ended, Shown)
        await second.written()
        rematch = elsewhere(replace(public, over=True))  # the Rematch button of the ended board, pressed elsewhere
        refused(await second.games.rematch(AWAY, rematch, game_id="r1"), refusals.ELSEWHERE)
    finally:
        await second.close()
    third = Process(store, ai)  # the ended game known from the records only
    try:
        await third.games.recover()
        after = rows(tmp_path)
        refused(await third.games.rematch(AWAY, rematch, game_id="r2"), refusals.ELSEWHERE)
        await third.written()
        assert rows(tmp_path) == after and third.games.current(OTHER) is None
    finally:
        await third.close()


async def test_who_may_look_is_read_from_the_game_held_never_from_the_press(
    ai: AI, store: RecordsGames, tmp_path: Path
) -> None:
    """A spectator who writes her own id into the X slot of a genuine board's id gets no private explanation, in memory
    and after a restart once the game has been resumed."""
    first = Process(store, ai)
    try:
        board = await centre(first)
        mine = replace(board, x_id=CAROL)
        for hint in (False, True):
            refused(await first.games.explain(who(CAROL), mine, hint=hint), refusals.NOT_YOUR_GAME)
        assert isinstance(await first.games.explain(who(ALICE), board, hint=True), Thinking)
    finally:
        await first.close()
    second = Process(store, ai)
    try:
        await second.games.recover()
        before = rows(tmp_path)
        shown = History((board,))
        refused(await second.games.explain(who(CAROL), mine, hint=True, history=shown), refusals.BOARD_MISMATCH)
        assert isinstance(await second.games.explain(who(ALICE), board, hint=False, history=shown), Thinking)
        assert second.games.current(CHANNEL) is not None  # resumed: the game held from now on
        for hint in (False, True):
            refused(await second.games.explain(who(CAROL), mine, hint=hint), refusals.NOT_YOUR_GAME)
        await second.written()
        assert rows(tmp_path) == before, "a look wrote the database"
    finally:
        await second.close()


async def test_the_stepper_of_a_look_is_its_players_too(ai: AI, store: RecordsGames) -> None:
    """A stepper's press names only the game and its moves: a spectator who forges one is refused as from the board,
    and another channel's press finds no game there."""
    process = Process(store, ai)
    try:
        board = await centre(process)
        found = process.games.explained(who(ALICE), board.game_id, tuple(board.moves), hint=True)
        assert not isinstance(found, Refusal) and found is not None
        refused(
            process.games.explained(who(CAROL), board.game_id, tuple(board.moves), hint=True), refusals.NOT_YOUR_GAME
        )
        elsewhere = replace(who(ALICE), channel_id=CHANNEL + 1)
        assert process.games.explained(elsewhere, board.game_id, tuple(board.moves), hint=True) is None
    finally:
        await process.close()


async def test_a_look_or_a_hint_resumes_a_game_nothing_stored_without_writing_it(
    ai: AI, store: RecordsGames, tmp_path: Path
) -> None:
    """A board that proves itself (its game's first write was lost) is resumed by a look or a hint, and stored only
    once a move is made on it."""
    board = await played(ai)  # by a process whose writes were lost
    for read in ("look", "hint"):
        process = Process(store, ai)
        try:
            await process.games.recover()
            history = History((board,))
            if read == "look":
                outcome = await process.games.explain(who(ALICE), board, hint=False, history=history)
                assert isinstance(outcome, Thinking), outcome
            else:
                assert isinstance(await process.games.hint(who(ALICE), history=history), Hinted)
            held = process.games.current(CHANNEL)
            assert held is not None and not held.verified
            await process.written()
            assert rows(tmp_path) == ([], []), f"a {read} wrote the database"
        finally:
            await process.close()
    process = Process(store, ai)
    try:
        free = next(c for c in range(9) if board.state[c] is None)
        assert isinstance(await process.games.press(who(ALICE), board, free, history=History((board,))), Shown)
        await process.written()
        assert [(r[0], r[1], r[7]) for r in rows(tmp_path)[0]] == [(board.game_id, CHANNEL, 0)]
    finally:
        await process.close()


async def forgeries(process: Process, board: Match, ultimate: Match, history: bool) -> None:
    """Carol (a spectator) presses Alice's boards with her own id in the X slot (move, resign, look, hint), Bob
    presses Alice's ultimate pad (its id names no player): every one refused, nothing held anew."""
    games = process.games
    mine = replace(board, x_id=CAROL)
    free = next(c for c in range(9) if board.state[c] is None)
    shown = History((board,)) if history else None
    refused(await games.press(who(CAROL), mine, free, history=shown), refusals.BOARD_MISMATCH)
    refused(await games.resign(who(CAROL), board=mine, history=shown), refusals.BOARD_MISMATCH)
    looked = refusals.BOARD_MISMATCH if history else refusals.NOT_YOUR_GAME  # after a restart: the stored game's
    for hint in (False, True):
        refused(await games.explain(who(CAROL), mine, hint=hint, history=shown), looked)
    pads = History((BoardRef("ultimate", ultimate.game_id, 0, OTHER, 5, ultimate.message_id),)) if history else None
    pad = replace(pad_ref(ultimate), channel_id=OTHER)
    refused(await games.press(who(BOB, OTHER), pad, 40, history=pads), refusals.NOT_YOUR_GAME)
    refused(await games.choose(who(BOB, OTHER), pad, 4, history=pads), refusals.NOT_YOUR_GAME)


async def test_a_forged_player_slot_changes_nothing_on_any_surface(ai: AI, store: RecordsGames, tmp_path: Path) -> None:
    first = Process(store, ai)
    try:
        board = await centre(first)
        ultimate = await started(first.games, channel=OTHER, variant="ultimate", level=2)
        await first.written()
        before = rows(tmp_path)
        held = (first.games.current(CHANNEL), first.games.current(OTHER))
        await forgeries(first, board, ultimate, history=False)
        await first.written()
        assert rows(tmp_path) == before and (first.games.current(CHANNEL), first.games.current(OTHER)) == held
    finally:
        await first.close()
    second = Process(store, ai)
    try:
        await second.games.recover()
        await forgeries(second, board, ultimate, history=True)
        await second.written()
        assert rows(tmp_path) == before
        assert second.games.current(CHANNEL) is None, "a forged board resumed the game"
        ended = await second.games.resign(who(ALICE), board=board, history=History((board,)))
        assert isinstance(ended, Shown)
        await second.written()
        final = pressed(ended.game)
        refused(
            await second.games.rematch(who(CAROL), replace(final, x_id=CAROL), game_id="r1"), refusals.NOT_YOUR_GAME
        )
    finally:
        await second.close()
    third = Process(store, ai)  # the ended game known from the records only
    try:
        await third.games.recover()
        after = rows(tmp_path)
        refused(await third.games.rematch(who(CAROL), replace(final, x_id=CAROL), game_id="r2"), refusals.NOT_YOUR_GAME)
        await third.written()
        assert rows(tmp_path) == after and third.games.current(CHANNEL) is None
    finally:
        await third.close()
