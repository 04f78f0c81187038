"""Taking over the running games a previous process stored (issue 27): a game whose deadline passed while the bot was
down ends as abandoned and is recorded once, with its board edited when next seen; every other one holds its channel
(start and rematch are refused as in memory) and ends at the rest of its deadline; a real SQLite file underneath."""

from __future__ import annotations

import datetime
import random
from dataclasses import replace

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import NeedsHistory, Posted, Refusal, Shown
from bot.games.finished import finished_game
from bot.games.match import Match
from bot.games.service import GameService, History
from bot.games.store import RecordsGames, to_running
from bot.records import RecordWriter
from engine import Mark
from tests.bot.games.test_service import ALICE, BOB, CHANNEL, found, pressed, refused, started, until, url, who

TIMEOUT = 600.0


class Process:
    """One bot process over a real SQLite file: its service, and its records and running-game writers."""

    def __init__(self, store: RecordsGames, ai: AI, turn_timeout: float = TIMEOUT) -> None:
        self.records = RecordWriter(store.records)
        self.records.start()
        self.store = store
        self.finished: list[Match] = []
        self.shown: list[Match] = []
        self.games = GameService(
            ai,
            rng=random.Random(2),
            store=store,
            turn_timeout=turn_timeout,
            on_finished=self.finish,
            on_expired=self.shown.append,
        )

    def finish(self, game: Match) -> None:
        self.finished.append(game)
        self.records.submit(finished_game(game))

    async def written(self) -> None:
        assert await self.records.flush(10) and await self.store.writer.flush(10)

    async def close(self) -> None:
        self.games.close()
        await self.records.close(timeout=5)


async def stored_as_running(store: RecordsGames, game: Match, seconds_ago: float) -> None:
    """``game`` as a previous process wrote it ``seconds_ago`` seconds ago, before it was killed."""
    written = datetime.datetime.now(datetime.UTC) - datetime.timedelta(seconds=seconds_ago)
    await store.running.apply([replace(to_running(game), updated_at=written)])


async def played(ai: AI, channel: int = CHANNEL) -> Match:
    """A game against the bot in ``channel`` as its board shows it: Alice took the centre and the bot replied."""
    games = GameService(ai, rng=random.Random(2))
    outcome = await games.press(who(ALICE, channel), await started(games, channel=channel), 4)
    assert isinstance(outcome, Shown)
    return pressed(outcome.game)


async def test_a_game_whose_deadline_passed_while_the_bot_was_down_is_abandoned_and_recorded_once(
    ai: AI, store: RecordsGames
) -> None:
    board = await played(ai)
    await stored_as_running(store, board, seconds_ago=TIMEOUT + 5)
    first = Process(store, ai)
    try:
        assert await first.games.recover() == 1
        await first.written()
        assert [(g.game_id, g.end_reason, g.winner) for g in first.finished] == [(board.game_id, "abandoned", None)]
        record = await store.records.game(board.game_id)
        assert record is not None and record.end_reason == "abandoned" and record.moves == board.moves
        assert (await store.stored(board.game_id, CHANNEL)).running is None
        assert first.shown == []  # no board is known yet: edited when next seen
        history = History((board,))
        refused(await first.games.press(who(ALICE), board, 0, history=history), refusals.GAME_OVER)
        assert [(g.message_id, g.end_reason) for g in first.shown] == [(board.message_id, "abandoned")]
        refused(await first.games.press(who(ALICE), board, 0, history=history), refusals.GAME_OVER)
        assert len(first.shown) == 1, "the board was edited twice"
        refused(await first.games.repost(who(ALICE), history=history), refusals.NO_GAME)
        assert first.games.current(CHANNEL) is None
    finally:
        await first.close()
    second = Process(store, ai)  # a restart before anyone saw it: the record shows the end on its board
    try:
        assert await second.games.recover() == 0
        refused(await second.games.press(who(ALICE), board, 0, history=History((board,))), refusals.GAME_OVER)
        assert [(g.message_id, g.end_reason) for g in second.shown] == [(board.message_id, "abandoned")]
        assert second.finished == []
    finally:
        await second.close()
    assert [g.game_id for g in await store.records.recent_games(CHANNEL)] == [board.game_id]


async def test_a_stored_game_holds_its_channel_after_a_restart(ai: AI, store: RecordsGames) -> None:
    """Start, a challenge and the Rematch of a finished game are refused while the channel's stored game runs,
    with a link to its board, as in memory; the game resumes as stored."""
    ended = found(4, 0, 8, 2, game_id="old", message_id=900).resign(Mark.X)  # Alice resigned an older game here
    board = await played(ai)
    await stored_as_running(store, board, seconds_ago=1)
    process = Process(store, ai)
    try:
        assert await process.games.recover() == 0
        history = History((board, ended))
        assert isinstance(await process.games.start(who(BOB), game_id="s1"), NeedsHistory)
        busy = Refusal(refusals.BUSY_GAME, {"link": url(board.message_id or 0)})
        older = found(0, 4, game_id="older", message_id=800)  # a board of an older game nothing stored (it proves)
        free = next(c for c in range(9) if older.state[c] is None)
        assert await process.games.press(who(ALICE), older, free, history=History((board, older))) == busy
        assert await process.games.rematch(who(ALICE), ended, game_id="r1", history=history) == busy
        assert await process.games.start(who(BOB), game_id="s1", history=history) == busy
        assert await process.games.start(who(BOB), game_id="s2", opponent=ALICE, history=history) == busy
        game = process.games.current(CHANNEL)
        assert game is not None and (game.game_id, game.moves, game.ai_states) == (
            board.game_id,
            board.moves,
            board.ai_states,
        )
        assert game.message_id == board.message_id
        free = next(c for c in range(9) if game.state[c] is None)
        assert isinstance(await process.games.press(who(ALICE), board, free), Shown)
    finally:
        await process.close()


async def test_a_stored_game_nobody_touches_ends_at_the_rest_of_its_deadline(ai: AI, store: RecordsGames) -> None:
    board = await played(ai)
    other = await played(ai, CHANNEL + 1)
    await stored_as_running(store, board, seconds_ago=0)
    await stored_as_running(store, other, seconds_ago=0)
    process = Process(store, ai, turn_timeout=0.2)
    try:
        assert await process.games.recover(lambda game: game.channel_id == CHANNEL) == 0  # another shard's channel
        await until(lambda: len(process.finished) == 1)
        await process.games.sessions.settled()
        await process.written()
        assert [(g.game_id, g.end_reason) for g in process.finished] == [(board.game_id, "abandoned")]
        assert (await store.stored(other.game_id, CHANNEL + 1)).running is not None, "another process's game ended"
        outcome = await process.games.start(who(BOB), game_id="s1", history=History((board,)))
        assert isinstance(outcome, Posted), outcome  # the channel is free again
        refused(await process.games.press(who(ALICE), board, 0, history=History((board,))), refusals.GAME_OVER)
        assert [g.message_id for g in process.shown] == [board.message_id]
    finally:
        await process.close()
