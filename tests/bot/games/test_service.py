"""The game service without Discord: the rules of the flow, resuming after a restart, the deadlines, and that
decisions in one channel never wait on another channel's work."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import threading
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from unittest import mock

import pytest

from bot.games import ai as bot_ai_module
from bot.games import codec, refusals
from bot.games import moves as worker_moves
from bot.games.ai import AI
from bot.games.answers import BotMoved, Challenged, Chosen, Declined, Hinted, NeedsHistory, Posted, Refusal, Shown
from bot.games.finished import finished_game
from bot.games.intents import Actor
from bot.games.match import Algorithm, BoardRef, EngineMove, Match, initial_for
from bot.games.pool import SearchPool, Ticket
from bot.games.service import MINIMAX_REPLY_STATES, GameService, History, Player, minimax_estimate
from bot.games.store import RecordsGames
from bot.records import RecordWriter, RunningWriter
from engine import Mark, Variant
from engine.levels import SPECS
from engine.registry import VARIANTS
from tests.e2e.wide_game import SEVEN_BY_SEVEN

ALICE, BOB, CAROL, DAVE = 11, 22, 33, 44
CHANNEL = 100


def service(ai: AI, **options: object) -> GameService:
    return GameService(ai, rng=random.Random(2), **options)  # type: ignore[arg-type]


def who(user: int, channel: int = CHANNEL) -> Actor:
    return Actor(user, channel, guild_id=5)


async def started(
    games: GameService, user: int = ALICE, channel: int = CHANNEL, game_id: str | None = None, **options: object
) -> Match:
    game_id = game_id or f"g{channel}"
    outcome = await games.start(who(user, channel), game_id=game_id, **options)  # type: ignore[arg-type]
    assert isinstance(outcome, Posted | Challenged), outcome
    games.placed(channel, outcome.game.game_id, 1000 + channel, outcome.game.post)
    game = games.current(channel)
    assert game is not None
    return game


def refused(outcome: object, key: str) -> None:
    assert isinstance(outcome, Refusal) and outcome.key == key, outcome


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``condition`` until it holds; fail after ``timeout`` s (a busy machine's margin, not a bound tested)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the condition never held"
        await asyncio.sleep(0.005)


def url(message_id: int, channel: int = CHANNEL) -> str:
    return f"https://discord.com/channels/5/{channel}/{message_id}"


def pressed(game: Match, message_id: int | None = None) -> Match:
    """The board a press carries: ``game`` as its buttons encode it, on ``message_id`` (default: its own)."""
    board, _ = codec.decode(
        codec.encode(game, 0),
        channel_id=game.channel_id,
        guild_id=game.guild_id,
        message_id=game.message_id if message_id is None else message_id,
    )
    return board


def found(*cells: int, game_id: str, x_id: int | None = ALICE, o_id: int | None = None, message_id: int) -> Match:
    """A board message read from the channel's history after a restart."""
    game = Match(game_id, CHANNEL, x_id, o_id, guild_id=5)
    for cell in cells:
        game = game.play(cell)
    return pressed(game.at(message_id))


async def people(games: GameService, game_id: str = "people", message_id: int = 1000 + CHANNEL) -> Match:
    """Alice (X) against Bob (O): challenged, the prompt posted as ``message_id``, accepted."""
    challenge = await games.start(who(ALICE), game_id=game_id, opponent=BOB)
    assert isinstance(challenge, Challenged)
    games.placed(CHANNEL, game_id, message_id, challenge.game.post)
    accepted = await games.answer(who(BOB), game_id, accept=True)
    assert isinstance(accepted, Shown)
    return accepted.game


async def test_a_press_plays_the_move_and_the_bots_reply(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    outcome = await games.press(who(ALICE), board, 4)
    assert isinstance(outcome, Shown)
    assert outcome.game.moves[0] == 4 and outcome.game.ply == 2 and outcome.game.last_ai is not None
    assert outcome.game.ai_states == outcome.game.last_ai.states > 0
    assert games.current(CHANNEL) == outcome.game


async def test_refusals(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    refused(await games.press(who(BOB), board, 0), refusals.NOT_YOUR_GAME)
    refused(await games.start(who(BOB), game_id="other"), refusals.BUSY_GAME)
    refused(await games.start(who(ALICE), game_id="x", opponent=ALICE), refusals.SELF_CHALLENGE)
    refused(await games.start(who(ALICE), game_id="x", opponent=BOB, opponent_is_bot=True), refusals.BOT_CHALLENGE)
    after = await games.press(who(ALICE), board, 4)
    assert isinstance(after, Shown)
    refused(await games.press(who(ALICE), board, 0), refusals.BOARD_CHANGED)  # the board she saw is older
    taken = next(c for c in range(9) if after.game.state[c] is Mark.O)
    refused(await games.press(who(ALICE), after.game, taken), refusals.CELL_TAKEN)
    refused(await games.move(who(ALICE), taken), refusals.CELL_TAKEN)
    elsewhere = after.game.at(999)
    stale = await games.press(who(ALICE), elsewhere, 0)
    refused(stale, refusals.STALE_BOARD)
    assert isinstance(stale, Refusal) and "1100" in str(stale.values["link"])


async def test_fifty_simultaneous_starts_make_one_game(ai: AI) -> None:
    games = service(ai)
    outcomes = await asyncio.gather(*(games.start(who(u), game_id=f"g{u}", play_as=Mark.O) for u in range(50)))
    assert sum(isinstance(o, Posted) for o in outcomes) == 1
    assert all(o.key == refusals.BUSY_GAME for o in outcomes if isinstance(o, Refusal))
    assert len(games) == 1 and games.locks_held == 0


async def test_both_players_pressing_at_once_apply_exactly_one_move(ai: AI) -> None:
    games = service(ai)
    challenge = await started(games, opponent=BOB)
    accepted = await games.answer(who(BOB), challenge.game_id, accept=True)
    assert isinstance(accepted, Shown)
    board = accepted.game
    first, second = await asyncio.gather(games.press(who(ALICE), board, 0), games.press(who(ALICE), board, 1))
    assert [isinstance(first, Shown), isinstance(second, Shown)].count(True) == 1
    game = games.current(CHANNEL)
    assert game is not None and game.ply == 1


class HeldAI(AI):
    """An AI whose searches wait until the test releases them (to show what waits for a search and what does
    not, by order rather than by time)."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        super().__init__(executor)
        self.searching = asyncio.Event()
        self.release = asyncio.Event()

    async def move(self, game: Match, ticket: Ticket | None = None) -> EngineMove:
        self.searching.set()
        await self.release.wait()
        return await super().move(game, ticket)


async def test_a_search_in_one_channel_never_holds_up_others_or_a_spectator() -> None:
    """While the bot thinks in channel A (a search held until released), a spectator in A is refused and a move
    in another channel is played: both answers come before A's search ends."""
    ai = HeldAI(ThreadPoolExecutor(2))
    games = service(ai)
    board = await started(games, play_as=Mark.X)
    challenge = await started(games, BOB, CHANNEL + 1, opponent=CAROL)
    accepted = await games.answer(who(CAROL, CHANNEL + 1), challenge.game_id, accept=True)
    assert isinstance(accepted, Shown)
    thinking = asyncio.ensure_future(games.press(who(ALICE), board, 4))
    await ai.searching.wait()  # the press is in, and its search has started
    refused(await games.press(who(CAROL), board, 0), refusals.NOT_YOUR_GAME)
    other = await games.press(who(BOB, CHANNEL + 1), accepted.game, 0)
    assert isinstance(other, Shown) and other.game.ply == 1
    assert not thinking.done()
    ai.release.set()
    assert isinstance(await thinking, Shown)


async def test_after_a_restart_intents_ask_for_the_history_then_resume_the_newest_board(ai: AI) -> None:
    before = service(ai)
    board = await started(before)
    played = await before.press(who(ALICE), board, 4)
    assert isinstance(played, Shown)
    newer, older = played.game, board

    after = service(ai)  # a new process: no games in memory
    assert isinstance(await after.move(who(ALICE), 0), NeedsHistory)
    assert isinstance(await after.press(who(ALICE), older, 0), NeedsHistory)
    history = History((newer.at(2000), older.at(1000)))
    refused(await after.press(who(ALICE), older.at(1000), 0, history=history), refusals.STALE_BOARD)
    assert after.current(CHANNEL) is None  # the older board never resumed the game
    refused(await after.hint(who(ALICE), history=History(readable=False)), refusals.NO_HISTORY)
    refused(await after.hint(who(ALICE), history=History((newer.end("abandoned"),))), refusals.NO_GAME)
    hinted = await after.hint(who(ALICE), history=history)
    assert isinstance(hinted, Hinted) and hinted.game.moves == newer.moves
    assert after.current(CHANNEL) is not None


async def test_placed_and_unposted(ai: AI) -> None:
    games = service(ai)
    outcome = await games.start(who(ALICE), game_id="g1")
    assert isinstance(outcome, Posted)
    assert games.unposted(outcome.game, outcome.retired) is None
    assert games.current(CHANNEL) is None  # nobody saw it: dropped, the channel is free
    board = await started(games)
    moved = await games.move(who(ALICE), 4)
    assert isinstance(moved, Posted) and moved.retired == board.message_id
    kept = games.unposted(moved.game, moved.retired)
    assert kept is not None and kept.message_id == board.message_id and kept.moves == moved.game.moves
    again = await games.repost(who(BOB))  # anyone may repost
    assert isinstance(again, Posted)
    # the previous post's answer arrives after the repost: kept until the newest board's id is known
    assert games.placed(CHANNEL, board.game_id, 555, again.game.post - 1) == ()
    assert games.placed(CHANNEL, board.game_id, 777, again.game.post) == (555,)
    assert games.is_board(CHANNEL, 777)
    assert games.placed(CHANNEL, board.game_id, 556, again.game.post - 1) == (556,)


async def test_deadlines_end_games_once(ai: AI) -> None:
    finished: list[Match] = []
    expired: list[Match] = []
    games = service(
        ai, turn_timeout=0.05, challenge_timeout=0.05, on_finished=finished.append, on_expired=expired.append
    )
    await started(games)
    await started(games, BOB, CHANNEL + 1, opponent=CAROL)
    await until(lambda: len(finished) == 2)  # the deadlines pass after 0.05 s
    await games.sessions.settled()
    assert games.sessions.deadlines == 0  # no deadline is left to end a game twice
    assert sorted(g.end_reason or "" for g in finished) == ["abandoned", "expired"]
    assert [g.game_id for g in expired] == [g.game_id for g in finished]
    assert len(games) == 0
    refused(await games.answer(who(CAROL, CHANNEL + 1), f"g{CHANNEL + 1}", accept=True), refusals.CHALLENGE_CLOSED)


async def test_resign_decline_and_finished_games(ai: AI) -> None:
    finished: list[Match] = []
    games = service(ai, on_finished=finished.append)
    challenge = await started(games, opponent=BOB)
    not_yours = await games.answer(who(CAROL), challenge.game_id, accept=True)
    assert isinstance(not_yours, Refusal) and not_yours.values == {"user": Player(BOB)}
    assert isinstance(await games.answer(who(BOB), challenge.game_id, accept=False), Declined)
    board = await started(games, game_id="second")
    resigned = await games.resign(who(ALICE), board=board)
    assert isinstance(resigned, Shown) and resigned.game.winner is Mark.O
    refused(await games.press(who(ALICE), board, 0), refusals.GAME_OVER)
    assert [g.end_reason for g in finished] == ["declined", "resigned"]


async def test_the_lock_map_stays_bounded(ai: AI) -> None:
    games = service(ai)
    for channel in range(1000):
        await games.start(who(ALICE, channel), game_id=f"g{channel}", play_as=Mark.O)
    assert len(games) == 1000 and games.locks_held == 0


HELD_GAME_BYTES = 2048
"""The most a 3x3 game waiting for its player may keep in the service, in bytes (tracemalloc; 1.3-1.4 KB measured
when this test was written: the game, its last bot move, its id and its turn's timer handle). Issue 45's load
benchmark allows 10 KB of RSS per active game, of which discord.py's per-press objects take most."""


async def test_a_held_game_keeps_under_2_kb_and_no_task_or_lock(ai: AI, store: RecordsGames) -> None:
    games = service(ai, turn_timeout=600, store=store)
    openings = [random.Random(3).randrange(9) for _ in range(200)]
    for cell in range(9):  # every opening once, as the held games play them: the engine's caches are warm
        board = await started(games, channel=10 + cell, play_as=Mark.X)
        assert isinstance(await games.press(who(ALICE, 10 + cell), board, cell), Shown)
        await games.resign(who(ALICE, 10 + cell))
    assert await store.writer.flush(5)
    gc.collect()
    tasks = len(asyncio.all_tasks())
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        for index, cell in enumerate(openings):
            channel = 1000 + index
            board = await started(games, channel=channel, play_as=Mark.X)
            assert isinstance(await games.press(who(ALICE, channel), board, cell), Shown)
        assert await store.writer.flush(5)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    kept = sum(stat.size_diff for stat in after.compare_to(before, "filename")) / len(openings)
    assert kept <= HELD_GAME_BYTES, f"{kept:.0f} bytes per held game"
    assert len(asyncio.all_tasks()) == tasks and games.locks_held == 0  # waiting for a player runs nothing
    assert len(games) == len(openings) and games.sessions.deadlines == len(openings)  # one timer handle a game
    games.close()


class GatedAI(AI):
    """The real AI, but each search first waits for :attr:`gate`; :attr:`searching` is set once one has begun."""

    def __init__(self) -> None:
        super().__init__(ThreadPoolExecutor(1), rng=random.Random(0))
        self.gate = asyncio.Event()
        self.searching = asyncio.Event()

    async def move(self, game: Match, ticket: Ticket | None = None) -> EngineMove:
        self.searching.set()
        await self.gate.wait()
        return await super().move(game, ticket)


async def test_a_press_on_the_retired_board_while_the_repost_is_on_its_way_is_stale(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    repost = await games.repost(who(ALICE))
    assert isinstance(repost, Posted) and repost.retired == board.message_id == 1100
    assert await games.press(who(ALICE), pressed(board), 4) == Refusal(refusals.STALE_BOARD, {"link": None})
    assert games.placed(CHANNEL, board.game_id, 1200, repost.game.post) == ()
    assert games.is_board(CHANNEL, 1200) and not games.is_board(CHANNEL, 1100)
    played = await games.press(who(ALICE), pressed(board, 1200), 4)  # the new board works
    assert isinstance(played, Shown) and played.game.message_id == 1200 and played.game.ply == 2


async def test_a_press_on_the_new_board_before_its_id_is_known_adopts_it(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    repost = await games.repost(who(CAROL))
    assert isinstance(repost, Posted)
    played = await games.press(who(ALICE), pressed(board, 1200), 4)  # pressed before the answer arrived
    assert isinstance(played, Shown) and played.game.message_id == 1200 and played.game.ply == 2
    assert games.placed(CHANNEL, board.game_id, 1200, repost.game.post) == ()
    assert games.current(CHANNEL) == played.game


async def test_a_failed_second_repost_keeps_the_game_on_its_last_known_board(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    first = await games.repost(who(ALICE))
    second = await games.repost(who(BOB))  # before the first repost's answer came back
    assert isinstance(first, Posted) and isinstance(second, Posted)
    assert first.retired == second.retired == 1100
    kept = games.unposted(second.game, second.retired)
    assert kept == second.game.at(1100) and kept.moves == board.moves
    assert games.current(CHANNEL) == kept and games.is_board(CHANNEL, 1100)
    moved = await games.move(who(ALICE), 4)  # and the next post retires that board
    assert isinstance(moved, Posted) and moved.retired == 1100


async def test_a_failed_repost_of_a_game_never_placed_waits_for_its_first_board(ai: AI) -> None:
    games = service(ai)
    opened = await games.start(who(ALICE), game_id="g1")
    repost = await games.repost(who(ALICE))  # before the start's answer came back
    assert isinstance(opened, Posted) and isinstance(repost, Posted) and repost.retired is None
    assert games.unposted(repost.game, repost.retired) is None
    assert games.current(CHANNEL) == repost.game  # the first board may still arrive
    assert games.placed(CHANNEL, "g1", 1100, opened.game.post) == ()
    played = await games.press(who(ALICE), pressed(opened.game, 1100), 4)  # a press on it adopts it
    assert isinstance(played, Shown) and played.game.message_id == 1100


async def test_a_final_board_that_failed_to_post_is_shown_on_the_retired_board(ai: AI) -> None:
    finished: list[Match] = []
    games = service(ai, on_finished=finished.append)
    board = await people(games)
    resigned = await games.resign(who(ALICE))
    assert isinstance(resigned, Posted) and resigned.retired == board.message_id
    assert games.unposted(resigned.game, resigned.retired) == resigned.game.at(board.message_id)
    assert games.current(CHANNEL) is None and finished == [resigned.game]
    board = await people(games, game_id="second", message_id=1200)
    for user, cell in ((ALICE, 0), (BOB, 3), (ALICE, 1), (BOB, 4)):
        moved = await games.press(who(user), pressed(board), cell)
        assert isinstance(moved, Shown)
        board = moved.game
    won = await games.move(who(ALICE), 2)
    assert isinstance(won, Posted) and won.game.winner is Mark.X and won.retired == 1200
    assert games.unposted(won.game, won.retired) == won.game.at(1200)
    assert [g.end_reason for g in finished] == ["resigned", "win"]


async def test_after_a_restart_a_press_older_than_its_own_message_is_refused(ai: AI, store: RecordsGames) -> None:
    before = service(ai, store=store)
    board = await people(before)
    alice = await before.press(who(ALICE), pressed(board), 0)
    assert isinstance(alice, Shown)
    bob = await before.press(who(BOB), pressed(alice.game), 4)
    assert isinstance(bob, Shown)
    assert await store.writer.flush(10)

    after = service(ai, store=store)  # Bob's second, quicker press (cell 8) arrives after a restart
    history = History((pressed(bob.game),))
    assert await after.press(who(BOB), pressed(alice.game), 8, history=history) == Refusal(refusals.BOARD_CHANGED)
    current = after.current(CHANNEL)  # resumed as stored, on the message that shows it
    assert current is not None and current.moves == (0, 4) and current.message_id == 1100
    assert await after.press(who(BOB), pressed(bob.game), 8) == Refusal(refusals.NOT_YOUR_TURN)


@pytest.mark.parametrize(("newer_over", "key"), [(False, refusals.STALE_BOARD), (True, refusals.GAME_OVER)])
async def test_after_a_restart_a_board_of_an_older_game_does_not_take_the_channel(
    ai: AI, newer_over: bool, key: str
) -> None:
    older = found(4, 0, game_id="older", message_id=900)  # its end was never shown: it still looks live
    newer = found(2, 4, game_id="newer", x_id=BOB, message_id=1100)
    if newer_over:
        newer = newer.end("abandoned")
    games = service(ai)
    outcome = await games.press(who(ALICE), older, 8, history=History((newer, older)))
    assert outcome == (Refusal(key) if newer_over else Refusal(key, {"link": url(1100)}))
    assert games.current(CHANNEL) is None


async def test_a_board_of_an_older_game_is_over_once_this_process_saw_the_newer_game_end(ai: AI) -> None:
    games = service(ai)
    newer = await started(games, game_id="newer")
    assert isinstance(await games.resign(who(ALICE)), Posted)
    older = found(4, 0, game_id="older", message_id=900)
    history = History((pressed(newer), older))  # the newer board still looks live: its end was never shown
    assert await games.press(who(ALICE), older, 8, history=history) == Refusal(refusals.GAME_OVER)
    assert games.current(CHANNEL) is None


async def test_a_move_made_in_time_is_not_abandoned_by_a_deadline_passing_during_its_search() -> None:
    gated = GatedAI()
    expired: list[Match] = []
    games = service(gated, turn_timeout=0.1, on_expired=expired.append)
    board = await started(games)
    pressing = asyncio.create_task(games.press(who(ALICE), board, 4))  # well before the deadline
    await gated.searching.wait()
    await until(lambda: games.sessions.expiring == 1)  # the deadline passed while the bot searches
    await asyncio.sleep(0)  # its expiry runs up to the channel's lock, and waits for it
    gated.gate.set()
    outcome = await pressing
    assert isinstance(outcome, Shown)
    await games.sessions.settled()  # the expiry, released by the lock, has run
    assert games.current(CHANNEL) == outcome.game and expired == []
    games.close()


# ---- forged button ids (issue 19) ---------------------------------------------------------------------------------


def forged(board: Match, **changes: object) -> Match:
    """``board`` as a modified client may send it: any field of its ``custom_id`` changed."""
    return replace(board, **changes)  # type: ignore[arg-type]


async def test_only_the_challenged_user_may_answer_whatever_the_button_says(ai: AI) -> None:
    games = service(ai)
    challenge = await started(games, opponent=BOB)
    for user in (ALICE, CAROL):  # the challenger accepting, a bystander declining
        answer = await games.answer(who(user), challenge.game_id, accept=user == ALICE)
        assert answer == Refusal(refusals.NOT_CHALLENGED, {"user": Player(BOB)})
    assert games.current(CHANNEL) == challenge
    assert isinstance(await games.answer(who(BOB), challenge.game_id, accept=True), Shown)


async def test_a_rematch_takes_players_and_options_from_the_ended_game(ai: AI) -> None:
    games = service(ai)
    board = await started(games, level=5)
    ended = await games.resign(who(ALICE), board=board)
    assert isinstance(ended, Shown)
    final = pressed(ended.game)
    refused(await games.rematch(who(ALICE), forged(final, o_id=DAVE), game_id="r1"), refusals.BOARD_MISMATCH)
    refused(
        await games.rematch(who(ALICE), forged(final, level=2), game_id="r1"),
        refusals.BOARD_MISMATCH,
    )
    refused(await games.rematch(who(DAVE), forged(final, x_id=DAVE), game_id="r1"), refusals.NOT_YOUR_GAME)
    assert games.current(CHANNEL) is None
    again = await games.rematch(who(ALICE), final, game_id="r1")
    assert isinstance(again, Posted) and (again.game.x_id, again.game.o_id) == (None, ALICE)
    assert again.game.level == 5


async def test_after_a_restart_a_rematch_takes_players_and_options_from_the_records(
    ai: AI, store: RecordsGames
) -> None:
    writer = RecordWriter(store.records)
    writer.start()
    try:
        before = service(ai, store=store, on_finished=lambda game: writer.submit(finished_game(game)))
        ended = await before.resign(who(ALICE), board=await started(before, level=2))
        assert isinstance(ended, Shown)
        assert await writer.flush(10) and await store.writer.flush(10)
    finally:
        await writer.close(timeout=5)
    final = pressed(ended.game)
    after = service(ai, store=store)
    refused(await after.rematch(who(ALICE), forged(final, o_id=BOB), game_id="r1"), refusals.BOARD_MISMATCH)
    refused(
        await after.rematch(who(ALICE), forged(final, level=8), game_id="r1"),
        refusals.BOARD_MISMATCH,
    )
    again = await after.rematch(who(ALICE), final, game_id="r1")
    assert isinstance(again, Posted) and again.game.level == 2 and again.game.o_id == ALICE


async def test_a_rematch_of_a_game_nobody_knows_is_only_a_new_game_against_the_bot(ai: AI) -> None:
    unknown = found(4, 0, 8, game_id="gone", message_id=900).resign(Mark.X)
    refused(await service(ai).rematch(who(ALICE), forged(unknown, o_id=BOB), game_id="r1"), refusals.UNVERIFIED)
    outcome = await service(ai).rematch(who(ALICE), unknown, game_id="r1")
    assert isinstance(outcome, Posted) and outcome.game.o_id == ALICE and outcome.game.x_id is None


async def test_a_forged_board_in_memory_is_refused(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    played = await games.press(who(ALICE), board, 4)
    assert isinstance(played, Shown)
    now = pressed(played.game)
    for fake in (
        forged(now, x_id=CAROL),
        forged(now, o_id=BOB),
        forged(now, level=2),
        forged(now, algorithm="minimax"),
        forged(now, ai_states=60_466_175),
    ):
        user = fake.x_id if fake.x_id is not None else ALICE
        refused(
            await games.press(who(user), fake, next(c for c in range(9) if now.state[c] is None)),
            refusals.BOARD_MISMATCH,
        )
    assert games.current(CHANNEL) == played.game


async def test_after_a_restart_a_board_resumes_only_as_stored(ai: AI, store: RecordsGames) -> None:
    before = service(ai, store=store)
    board = await started(before)
    played = await before.press(who(ALICE), board, 4)
    assert isinstance(played, Shown)
    assert await store.writer.flush(10)
    now = pressed(played.game)
    free = next(c for c in range(9) if now.state[c] is None)
    history = History((now,))
    after = service(ai, store=store)
    win = found(0, 3, 1, game_id=now.game_id, message_id=now.message_id or 0)  # X to play 2 and "beat" the bot
    for fake, user in (
        (forged(now, x_id=CAROL), CAROL),  # taking over the game
        (forged(now, o_id=BOB), ALICE),  # a loss for someone who never played
        (forged(now, level=2), ALICE),
        (forged(now, ai_states=60_466_175), ALICE),
        (forged(win, ai_states=now.ai_states), ALICE),
    ):
        refused(
            await after.press(who(user), fake, free if fake is not win else 2, history=history), refusals.BOARD_MISMATCH
        )
        assert after.current(CHANNEL) is None
    refused(await after.resign(who(CAROL), board=forged(now, x_id=CAROL), history=history), refusals.BOARD_MISMATCH)
    refused(await after.resign(who(BOB), board=now, history=history), refusals.NOT_YOUR_GAME)
    resumed = await after.press(who(ALICE), now, free, history=history)
    assert isinstance(resumed, Shown) and resumed.game.last_ai is not None
    assert resumed.game.ai_states == played.game.ai_states + resumed.game.last_ai.states
    assert resumed.game.verified


async def test_with_nothing_stored_only_a_board_that_proves_itself_resumes_and_is_never_recorded(ai: AI) -> None:
    finished: list[Match] = []
    before = service(ai)
    board = await started(before)
    played = await before.press(who(ALICE), board, 4)
    assert isinstance(played, Shown)
    now = pressed(played.game)
    history = History((now,))
    free = next(c for c in range(9) if now.state[c] is None)
    after = service(ai, on_finished=finished.append)
    blunder = found(0, 3, game_id=now.game_id, message_id=now.message_id or 0)  # the bot (O) "played" an edge
    people = pressed(replace(played.game, o_id=BOB))
    for fake, user in (
        (forged(now, ai_states=now.ai_states + 1), ALICE),
        (forged(blunder, ai_states=now.ai_states), ALICE),
        (people, BOB),
    ):
        refused(
            await after.press(who(user), fake, free if fake is not blunder else 1, history=history), refusals.UNVERIFIED
        )
    refused(await after.press(who(BOB), now, free, history=history), refusals.NOT_YOUR_GAME)
    assert after.current(CHANNEL) is None
    resumed = await after.press(who(ALICE), now, free, history=history)
    assert isinstance(resumed, Shown) and not resumed.game.verified
    assert isinstance(await after.resign(who(ALICE)), Posted)
    assert finished == [], "a game resumed from an unverified board was recorded"


async def test_a_board_with_moves_after_the_stored_ones_never_becomes_the_game(ai: AI, store: RecordsGames) -> None:
    """Issue 27: moves nobody stored (a crash lost their writes, or a forged id adds one of the presser's) are
    refused with a link to the board that shows the saved game, and the stored game resumes from there."""
    before = service(ai, store=store)
    board = await started(before)
    first = await before.press(who(ALICE), board, 0)
    assert isinstance(first, Shown)
    assert await store.writer.flush(10)
    task = store.writer._task
    assert task is not None
    task.cancel()  # the process dies before its writer gets another turn
    with contextlib.suppress(asyncio.CancelledError):
        await task
    free = next(c for c in range(9) if first.game.state[c] is None)
    second = await before.press(who(ALICE), pressed(first.game), free)
    assert isinstance(second, Shown)

    writer = RunningWriter(store.writer.store)
    writer.start()
    try:
        after = service(ai, store=RecordsGames(store.records, writer))
        last = pressed(second.game)
        cell = next(c for c in range(9) if last.state[c] is None)
        # the crash's case: the message itself shows the moves the store lost
        refused(await after.press(who(ALICE), last, cell, history=History((last,))), refusals.BOARD_MISMATCH)
        # a forged id: the message shows the stored game, the press adds a move of the presser's
        shown = pressed(first.game)
        extra = next(c for c in range(9) if shown.state[c] is None)
        forgery = shown.play(extra)
        cell = next(c for c in range(9) if forgery.state[c] is None)
        outcome = await after.press(who(ALICE), forgery, cell, history=History((shown,)))
        assert outcome == Refusal(refusals.UNSAVED_MOVES, {"link": url(shown.message_id or 0)}), outcome
        assert after.current(CHANNEL) is None and after.searches == 0
        resumed = await after.press(who(ALICE), shown, extra, history=History((shown,)))
        assert isinstance(resumed, Shown) and resumed.game.verified and resumed.game.moves[:3] == (*shown.moves, extra)
    finally:
        await writer.close(timeout=5)


async def test_with_nothing_stored_a_press_claiming_more_than_its_message_shows_is_refused(ai: AI) -> None:
    before = service(ai)
    played = await before.press(who(ALICE), await started(before), 0)
    assert isinstance(played, Shown)
    shown = pressed(played.game)
    extra = next(c for c in range(9) if shown.state[c] is None)  # a move of Alice's the bot never showed
    forgery = shown.play(extra)
    cell = next(c for c in range(9) if forgery.state[c] is None)
    after = service(ai)
    refused(await after.press(who(ALICE), forgery, cell, history=History((shown,))), refusals.UNVERIFIED)
    assert after.current(CHANNEL) is None


async def test_a_resumed_game_in_which_the_bot_owes_a_move_gets_it(ai: AI) -> None:
    """Nothing stored and the history unreadable: a board whose last move is the presser's proves itself, so it
    resumes with the bot to move; the bot plays (no game waits for a move that never comes)."""
    before = service(ai)
    played = await before.press(who(ALICE), await started(before), 0)
    assert isinstance(played, Shown)
    shown = pressed(played.game)
    extra = next(c for c in range(9) if shown.state[c] is None)
    owed = shown.play(extra)
    cell = next(c for c in range(9) if owed.state[c] is None)
    later: list[BotMoved] = []
    after = service(ai, on_bot_move=later.append)
    unreadable = History(readable=False)
    refused(await after.press(who(ALICE), owed, cell, history=unreadable), refusals.BOT_THINKING)
    await after.settled()
    assert len(later) == 1 and later[0].game.moves[:3] == owed.moves and later[0].game.ply == 4
    assert later[0].game.message_id == owed.message_id and not later[0].game.verified
    game = after.current(CHANNEL)
    assert game is not None and game == later[0].game and not game.ai_to_move
    free = next(c for c in range(9) if game.state[c] is None)
    assert isinstance(await after.press(who(ALICE), pressed(game), free), Shown)


async def test_a_game_its_board_cannot_show_is_not_committed(ai: AI) -> None:
    games = service(ai)
    board = await started(games)
    huge = replace(board, ai_states=36**6 - 2)  # one more search and the count no longer fits the button ids
    assert games.sessions.commit(huge) is None
    refused(await games.press(who(ALICE), pressed(huge), 4), refusals.NOT_SAVED)
    assert games.current(CHANNEL) == huge, "the move was committed although its board cannot be shown"


async def test_after_a_restart_a_command_resumes_the_stored_game_even_where_history_is_unreadable(
    ai: AI, store: RecordsGames
) -> None:
    before = service(ai, store=store)
    played = await before.press(who(ALICE), await started(before), 4)
    assert isinstance(played, Shown)
    assert await store.writer.flush(10)
    after = service(ai, store=store)
    refused(await after.repost(who(ALICE), history=History((pressed(played.game).end("abandoned"),))), refusals.NO_GAME)
    reposted = await after.repost(who(ALICE), history=History(readable=False))  # a DM the bot is not part of
    assert isinstance(reposted, Posted)
    assert (reposted.game.moves, reposted.game.ai_states) == (played.game.moves, played.game.ai_states)


# ---- variants --------------------------------------------------------------------------------------------


def mnk_pressed(game: Match, message_id: int | None = None) -> Match:
    """The board a press on a 4x4/5x5 board carries (its buttons encode the whole game)."""
    board, _ = codec.decode(
        codec.encoder(game)("r"),
        channel_id=game.channel_id,
        guild_id=game.guild_id,
        message_id=game.message_id if message_id is None else message_id,
    )
    assert isinstance(board, Match)
    return board


def delivered(moves: list[BotMoved]) -> Callable[[BotMoved], None]:
    return moves.append


async def test_a_4x4_move_is_answered_at_once_and_the_bots_move_follows(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    board = await started(games, variant="4x4")
    assert board.variant == "4x4" and board.state == initial_for("4x4") and not board.thinking
    outcome = await games.press(who(ALICE), mnk_pressed(board), 5)
    assert isinstance(outcome, Shown)
    assert outcome.game.moves == (5,) and outcome.game.thinking and outcome.game.last_ai is None
    refused(await games.press(who(ALICE), mnk_pressed(outcome.game), 6), refusals.BOT_THINKING)
    await games.settled()
    assert len(later) == 1
    moved = later[0].game
    assert moved.moves[0] == 5 and moved.ply == 2 and not moved.thinking and moved.message_id == board.message_id
    assert moved.last_ai is not None and moved.ai_states == moved.last_ai.states > 0
    assert games.current(CHANNEL) == moved and games.searches == 0 and ai.pool.pending == 0


async def test_the_bot_opens_a_5x5_game_after_it_is_posted(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    outcome = await games.start(who(ALICE), game_id="g5", play_as=Mark.O, variant="5x5")
    assert isinstance(outcome, Posted) and outcome.game.thinking and outcome.game.ply == 0
    await games.settled()
    assert later == []  # the board's message id is not known yet: the move waits for it
    games.placed(CHANNEL, "g5", 777, outcome.game.post)
    assert len(later) == 1 and later[0].game.ply == 1 and later[0].game.message_id == 777
    assert later[0].game.last_ai is not None and later[0].game.last_ai.book


async def test_plain_minimax_is_refused_where_it_cannot_finish_in_a_reply(ai: AI) -> None:
    games = service(ai)
    outcome = await games.start(who(ALICE), game_id="g1", variant="4x4", algorithm="minimax")
    refused(outcome, refusals.MINIMAX_TOO_SLOW)
    assert isinstance(outcome, Refusal) and outcome.values["variant"] == "4x4"
    assert int(str(outcome.values["states"])) > MINIMAX_REPLY_STATES and games.current(CHANNEL) is None
    assert 400_000 < minimax_estimate("3x3") < 700_000  # 549,945 exactly (Knuth's estimator is unbiased)
    assert isinstance(await games.start(who(ALICE), game_id="g2", algorithm="minimax"), Posted)


async def test_a_search_whose_game_was_resigned_is_dropped(ai: AI) -> None:
    later: list[BotMoved] = []
    gate = threading.Event()
    games = service(ai, on_bot_move=later.append)
    board = await started(games, variant="4x4")
    ai.pool = SearchPool(ThreadPoolExecutor(1), workers=1)
    real = worker_moves.bot_move

    def slow(*args: object) -> EngineMove:
        gate.wait(5)
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(bot_ai_module, "bot_move", slow):
        outcome = await games.press(who(ALICE), mnk_pressed(board), 0)
        assert isinstance(outcome, Shown) and outcome.game.thinking
        resigned = await games.resign(who(ALICE), board=mnk_pressed(outcome.game))  # not blocked by the search
        assert isinstance(resigned, Shown) and resigned.game.over
        gate.set()
        await games.settled()
    assert later == [] and games.current(CHANNEL) is None and ai.pool.pending == 0


async def test_a_search_whose_game_timed_out_is_dropped(ai: AI) -> None:
    later: list[BotMoved] = []
    expired: list[Match] = []
    gate = threading.Event()
    games = service(ai, on_bot_move=later.append, on_expired=expired.append, turn_timeout=0.05)
    board = await started(games, variant="4x4")
    ai.pool = SearchPool(ThreadPoolExecutor(1), workers=1)
    real = worker_moves.bot_move

    def slow(*args: object) -> EngineMove:
        gate.wait(5)
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(bot_ai_module, "bot_move", slow):
        await games.press(who(ALICE), mnk_pressed(board), 0)
        await until(lambda: bool(expired))
        gate.set()
        await games.settled()
    assert later == [] and expired[0].end_reason == "abandoned" and games.current(CHANNEL) is None


async def test_a_full_queue_searches_with_a_smaller_budget_then_refuses_privately(ai: AI) -> None:
    later: list[BotMoved] = []
    gate = threading.Event()
    games = service(ai, on_bot_move=later.append)
    ai.pool = SearchPool(ThreadPoolExecutor(1), workers=1, queue_limit=0, reduced_limit=1, reduced_budget_ms=50)
    budgets: list[float | None] = []
    real = worker_moves.bot_move

    def slow(
        kind: Variant, moves: tuple[int, ...], level: int, algorithm: Algorithm, budget: float | None, seed: int
    ) -> EngineMove:
        budgets.append(budget)
        gate.wait(5)
        return real(kind, moves, level, algorithm, budget, seed)

    with mock.patch.object(bot_ai_module, "bot_move", slow):
        boards = [await started(games, channel=CHANNEL + i, variant="4x4") for i in range(3)]
        first = await games.press(who(ALICE, CHANNEL), mnk_pressed(boards[0]), 0)
        second = await games.press(who(ALICE, CHANNEL + 1), mnk_pressed(boards[1]), 0)
        third = await games.press(who(ALICE, CHANNEL + 2), mnk_pressed(boards[2]), 0)
        assert isinstance(first, Shown) and isinstance(second, Shown)
        refused(third, refusals.SEARCH_BUSY)
        assert games.current(CHANNEL + 2) == boards[2]  # nothing was committed: the move can be made again
        gate.set()
        await games.settled()
    assert budgets == [None, 50]
    by_channel = {moved.game.channel_id: moved.game for moved in later}
    assert by_channel[CHANNEL].last_ai is not None and not by_channel[CHANNEL].last_ai.reduced
    reduced = by_channel[CHANNEL + 1].last_ai
    assert reduced is not None and reduced.reduced and reduced.budget_ms is None  # 4x4 is solved: no budget shown
    assert ai.pool.pending == 0


async def test_a_search_never_blocks_another_channel_or_a_refusal_in_its_own(ai: AI) -> None:
    gate = threading.Event()
    games = service(ai)
    ai.pool = SearchPool(ThreadPoolExecutor(1), workers=1)
    real = worker_moves.bot_move

    def slow(*args: object) -> EngineMove:
        if args[0] is VARIANTS["4x4"]:  # the 3x3 game's reply in the other channel is not held
            gate.wait(5)
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(bot_ai_module, "bot_move", slow):
        board = await started(games, variant="4x4")
        other = await started(games, channel=CHANNEL + 1)
        thinking = await games.press(who(ALICE), mnk_pressed(board), 0)
        assert isinstance(thinking, Shown)
        assert isinstance(await games.press(who(ALICE, CHANNEL + 1), pressed(other), 4), Shown)
        refused(await games.press(who(BOB), mnk_pressed(thinking.game), 1), refusals.NOT_YOUR_GAME)
        refused(await games.hint(who(ALICE)), refusals.BOT_THINKING)
        gate.set()
        await games.settled()


async def test_a_forged_4x4_board_is_refused(ai: AI) -> None:
    games = service(ai)
    board = await started(games, variant="4x4")
    forged = replace(mnk_pressed(board), moves=(0, 1), state=VARIANTS["4x4"].replay((0, 1)))
    refused(await games.press(who(ALICE), forged, 2), refusals.STALE_BOARD)  # as on 3x3: moves never played
    easy = replace(mnk_pressed(board), level=2)
    refused(await games.press(who(ALICE), easy, 2), refusals.BOARD_MISMATCH)
    refused(await games.press(who(ALICE), mnk_pressed(board), 16), refusals.NO_SUCH_CELL)
    assert games.current(CHANNEL) == board


async def test_a_reference_resolves_only_to_positions_that_were_played(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    board = await started(games, variant="4x4")
    moved = await games.press(who(ALICE), mnk_pressed(board), 0)
    assert isinstance(moved, Shown)
    await games.settled()
    game = later[-1].game
    ahead = BoardRef("4x4", game.game_id, game.ply + 1, CHANNEL, 5, game.message_id)
    refused(await games.press(who(ALICE), ahead, 3), refusals.BOARD_MISMATCH)
    behind = BoardRef("4x4", game.game_id, game.ply - 1, CHANNEL, 5, game.message_id)
    refused(await games.press(who(ALICE), behind, 3), refusals.BOARD_CHANGED)
    other = BoardRef("4x4", "nope", game.ply, CHANNEL, 5, game.message_id)
    refused(await games.press(who(ALICE), other, 3), refusals.STALE_BOARD)
    assert games.current(CHANNEL) == game
    current = BoardRef("4x4", game.game_id, game.ply, CHANNEL, 5, game.message_id)
    played = await games.press(who(ALICE), current, 3)
    assert isinstance(played, Shown) and played.game.moves[:3] == (*game.moves, 3)
    await games.settled()


async def test_a_reference_after_a_restart_resumes_the_stored_game(ai: AI, store: RecordsGames) -> None:
    games = service(ai, store=store)
    board = await started(games, variant="4x4")
    moved = await games.press(who(ALICE), mnk_pressed(board), 0)
    assert isinstance(moved, Shown)
    await games.settled()
    await store.writer.flush()
    game = games.current(CHANNEL)
    assert game is not None
    games.close()
    restarted = service(ai, store=store)
    ref = BoardRef("4x4", game.game_id, game.ply, CHANNEL, 5, game.message_id)
    assert isinstance(await restarted.press(who(ALICE), ref, 3), NeedsHistory)
    history = History((ref,))
    forged = BoardRef("4x4", game.game_id, game.ply + 2, CHANNEL, 5, game.message_id)
    refused(await restarted.press(who(ALICE), forged, 3, history=History((forged,))), refusals.BOARD_MISMATCH)
    unknown = BoardRef("4x4", "unknown", 2, CHANNEL, 5, game.message_id)
    refused(await restarted.press(who(ALICE), unknown, 3, history=History((unknown,))), refusals.UNVERIFIED)
    outcome = await restarted.press(who(ALICE), ref, 3, history=history)
    assert isinstance(outcome, Shown) and outcome.game.moves[:3] == (*game.moves, 3)
    assert outcome.game.ai_states == game.ai_states
    await restarted.settled()


async def test_an_ultimate_game_through_references(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    board = await started(games, variant="ultimate", level=2)
    ref = BoardRef("ultimate", board.game_id, 0, CHANNEL, 5, board.message_id)
    moved = await games.press(who(ALICE), ref, 40)  # e5: the centre of the centre board
    assert isinstance(moved, Shown) and moved.game.thinking and moved.game.moves == (40,)
    await games.settled()
    game = later[-1].game
    reply = game.moves[1]
    assert game.ply == 2 and reply in range(30, 51) and game.last_ai is not None
    iterations = SPECS["ultimate"][1].iterations  # level 2's MCTS: each iteration visits a position at least
    assert game.last_ai.depth is not None and iterations is not None and game.last_ai.states >= iterations
    ref = BoardRef("ultimate", game.game_id, 2, CHANNEL, 5, game.message_id)
    forced = game.state.forced_board
    wrong = next(c for c in range(81) if game.state[c] is None and c not in game.rules.actions(game.state))
    outcome = await games.press(who(ALICE), ref, wrong)
    refused(outcome, refusals.WRONG_BOARD if forced is not None else refusals.CLOSED_BOARD)
    refused(await games.press(who(ALICE), ref, 40), refusals.CELL_TAKEN)
    refused(await games.press(who(ALICE), ref, 81), refusals.NO_SUCH_CELL)
    hinted = await games.hint(who(ALICE))
    assert isinstance(hinted, Hinted) and hinted.hint.states > 0
    resigned = await games.resign(who(ALICE), board=ref)
    assert isinstance(resigned, Shown) and resigned.game.over and resigned.game.winner is Mark.O


async def test_hints_on_4x4_are_exact_and_on_5x5_wait_for_four_marks(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    await started(games, variant="5x5")
    refused(await games.hint(who(ALICE)), refusals.HINT_TOO_EARLY)
    four = await started(games, channel=CHANNEL + 1, variant="4x4")
    hinted = await games.hint(who(ALICE, CHANNEL + 1))
    assert isinstance(hinted, Hinted) and hinted.game == four
    assert hinted.hint.exact and len(hinted.hint.moves) == 16


async def test_a_game_without_hints_refuses_one_privately(ai: AI, monkeypatch: pytest.MonkeyPatch) -> None:
    """An outside game with neither exact values nor a hint of its own (a 7x7 board of estimates) answers /ttt hint
    with a private refusal, not with "something went wrong"."""
    monkeypatch.setitem(VARIANTS, SEVEN_BY_SEVEN.name, SEVEN_BY_SEVEN)
    games = service(ai)
    await started(games, variant=SEVEN_BY_SEVEN.name, level=2)
    refused(await games.hint(who(ALICE)), refusals.NO_HINT)


async def test_a_restart_during_the_bots_search_searches_again_when_the_game_resumes(
    ai: AI, store: RecordsGames
) -> None:
    gate = threading.Event()
    games = service(ai, store=store)
    ai.pool = SearchPool(ThreadPoolExecutor(1), workers=1)
    real = worker_moves.bot_move

    def stuck(*args: object) -> EngineMove:
        gate.wait(5)
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(bot_ai_module, "bot_move", stuck):
        board = await started(games, variant="4x4")
        thinking = await games.press(who(ALICE), mnk_pressed(board), 0)
        assert isinstance(thinking, Shown) and thinking.game.thinking
        await store.writer.flush()
        games.close()  # the process dies while the bot searches
        gate.set()
    later: list[BotMoved] = []
    restarted = service(ai, store=store, on_bot_move=later.append)
    history = History((mnk_pressed(thinking.game),))
    refused(await restarted.press(who(ALICE), mnk_pressed(thinking.game), 1, history=history), refusals.BOT_THINKING)
    await restarted.settled()
    assert len(later) == 1 and later[0].game.moves[0] == 0 and later[0].game.ply == 2


async def test_a_game_resumed_while_the_search_pool_is_full_still_gets_the_bots_move(
    ai: AI, store: RecordsGames
) -> None:
    games = service(ai, store=store)
    board = await started(games, variant="4x4")
    thinking = board.play(0)
    assert games.sessions.commit(thinking) is None  # committed and stored while the bot was to move
    assert await store.writer.flush(10)
    games.close()
    later: list[BotMoved] = []
    restarted = service(ai, store=store, on_bot_move=later.append)
    ai.pool = SearchPool(ThreadPoolExecutor(1), workers=1, queue_limit=0, reduced_limit=0)
    held = ai.pool.admit()  # every place is taken
    assert held is not None and ai.pool.admit() is None
    history = History((mnk_pressed(thinking),))
    refused(await restarted.press(who(ALICE), mnk_pressed(thinking), 1, history=history), refusals.BOT_THINKING)
    await restarted.settled()
    assert len(later) == 1 and later[0].game.ply == 2 and later[0].game.last_ai is not None
    assert later[0].game.last_ai.reduced


async def test_a_4x4_board_after_the_database_was_lost_is_refused(ai: AI) -> None:
    games = service(ai)
    board = await started(games, variant="4x4")
    games.close()
    restarted = service(ai)
    shown = mnk_pressed(board)
    refused(await restarted.press(who(ALICE), shown, 3, history=History((shown,))), refusals.UNVERIFIED)
    assert restarted.current(CHANNEL) is None


def pad_ref(game: Match, version: int | None = None, message_id: int | None = None) -> BoardRef:
    """A private pad's button as the codec reads it: ``game``'s id and version (default: its own), and whatever
    message id the client sent (the codec drops it; here it may be forged)."""
    at = game.ply if version is None else version
    return BoardRef("ultimate", game.game_id, at, CHANNEL, 5, message_id, pad=True)


async def test_a_free_choice_is_only_the_player_to_moves_and_never_a_move(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    board = await started(games, variant="ultimate", level=2)
    ref = BoardRef("ultimate", board.game_id, 0, CHANNEL, 5, board.message_id)
    chosen = await games.choose(who(ALICE), ref, 4)
    assert chosen == Chosen(board, 4, on_pad=False) and games.current(CHANNEL) == board
    back = await games.choose(who(ALICE), pad_ref(board, message_id=424242), None)
    assert back == Chosen(board, None, on_pad=True) and games.current(CHANNEL) == board
    refused(await games.choose(who(BOB), ref, 4), refusals.NOT_YOUR_GAME)
    moved = await games.press(who(ALICE), pad_ref(board), 40)
    assert isinstance(moved, Shown) and moved.game.thinking
    refused(await games.choose(who(ALICE), pad_ref(moved.game), 0), refusals.BOT_THINKING)
    await games.settled()
    game = later[-1].game
    refused(await games.choose(who(ALICE), pad_ref(board), 4), refusals.BOARD_CHANGED)  # an old version
    refused(await games.choose(who(ALICE), pad_ref(game), 4), refusals.BOARD_CHANGED)  # a forced board: no choice
    assert games.current(CHANNEL) == game


async def test_a_press_on_the_private_pad_plays_on_the_board_message_the_service_holds(ai: AI) -> None:
    later: list[BotMoved] = []
    games = service(ai, on_bot_move=later.append)
    board = await started(games, variant="ultimate", level=2)
    assert board.message_id == 1000 + CHANNEL
    refused(await games.press(who(BOB), pad_ref(board), 40), refusals.NOT_YOUR_GAME)
    moved = await games.press(who(ALICE), pad_ref(board, message_id=777), 40)  # the pad's own (ephemeral) message
    assert isinstance(moved, Shown) and moved.pad and moved.game.moves == (40,)
    assert moved.game.message_id == board.message_id and games.current(CHANNEL) == moved.game
    public = await games.press(who(ALICE), BoardRef("ultimate", board.game_id, 0, CHANNEL, 5, board.message_id), 41)
    refused(public, refusals.BOARD_CHANGED)
    refused(await games.press(who(ALICE), pad_ref(board), 41), refusals.BOARD_CHANGED)  # a stale pad
    await games.settled()
    assert later[-1].game.message_id == board.message_id and later[-1].game.ply == 2
    reposted = await games.repost(who(ALICE))
    assert isinstance(reposted, Posted)
    refused(await games.press(who(ALICE), pad_ref(later[-1].game), 0), refusals.BOARD_CHANGED)  # not placed yet


async def test_a_private_pad_after_a_restart_resumes_the_game_on_its_board_message(ai: AI, store: RecordsGames) -> None:
    games = service(ai, store=store)
    board = await started(games, variant="ultimate", level=2)
    await store.writer.flush()
    games.close()
    restarted = service(ai, store=store)
    public = BoardRef("ultimate", board.game_id, 0, CHANNEL, 5, board.message_id)
    assert isinstance(await restarted.choose(who(ALICE), pad_ref(board), 4), NeedsHistory)
    refused(await restarted.choose(who(ALICE), pad_ref(board), 4, history=History(())), refusals.NO_HISTORY)
    assert restarted.current(CHANNEL) is None
    chosen = await restarted.choose(who(ALICE), pad_ref(board), 4, history=History((public,)))
    assert isinstance(chosen, Chosen) and chosen.on_pad and chosen.game.message_id == board.message_id
    moved = await restarted.press(who(ALICE), pad_ref(board), 40)
    assert isinstance(moved, Shown) and moved.pad and moved.game.message_id == board.message_id
    await restarted.settled()
