"""A game played by column through the game service (Connect Four, registered as an outside game is): a press or a
typed move names a column and plays the cell its disc falls to, a full column is refused, the bot answers, and a
board named by reference resumes after a restart."""

from __future__ import annotations

import random

import pytest

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Challenged, Hinted, NeedsHistory, Posted, Refusal, Shown
from bot.games.intents import Actor, History
from bot.games.match import BoardRef, Match
from bot.games.service import GameService
from bot.games.store import RecordsGames
from engine import variant
from engine.games.connect_four import CONNECT_FOUR_VARIANT

ALICE, BOB = 11, 22
CHANNEL = 100


@pytest.fixture
def columns_game() -> str:
    """The game played by column the engine registers."""
    return CONNECT_FOUR_VARIANT.name


def who(user: int) -> Actor:
    return Actor(user, CHANNEL, guild_id=5)


def ref(game: Match) -> BoardRef:
    """The reference every button of ``game``'s board carries (42 cells are too many to carry the moves)."""
    return BoardRef(game.variant, game.game_id, game.ply, CHANNEL, 5, game.message_id)


def refused(outcome: object, key: str) -> None:
    assert isinstance(outcome, Refusal) and outcome.key == key, outcome


async def against_bot(games: GameService, name: str, level: int = 1) -> Match:
    outcome = await games.start(who(ALICE), game_id="c4", variant=name, level=level)
    assert isinstance(outcome, Posted), outcome
    games.placed(CHANNEL, "c4", 1000, outcome.game.post)
    game = games.current(CHANNEL)
    assert game is not None
    return game


async def people(games: GameService, name: str) -> Match:
    """Alice (X) against Bob (O), accepted."""
    challenge = await games.start(who(ALICE), game_id="people", opponent=BOB, variant=name)
    assert isinstance(challenge, Challenged)
    games.placed(CHANNEL, "people", 1000, challenge.game.post)
    accepted = await games.answer(who(BOB), "people", accept=True)
    assert isinstance(accepted, Shown)
    return accepted.game


async def test_a_column_press_plays_where_its_disc_falls_and_a_full_column_is_refused(
    ai: AI, columns_game: str
) -> None:
    games = GameService(ai, rng=random.Random(2))
    game = await people(games, columns_game)
    kind = variant(columns_game)
    for ply in range(6):  # column 4 filled from the bottom, alternately, pressed by its top cell
        outcome = await games.press(who(ALICE if ply % 2 == 0 else BOB), ref(game), 3)
        assert isinstance(outcome, Shown), outcome
        game = outcome.game
        assert game.moves[-1] == 38 - 7 * ply  # d6, d5, ... d1: the lowest empty cell each time
    assert kind.columns(game.state)[3] is None
    refused(await games.press(who(ALICE), ref(game), 3), refusals.COLUMN_FULL)
    refused(await games.press(who(ALICE), ref(game), 38), refusals.COLUMN_FULL)  # any cell of the column
    refused(await games.move(who(ALICE), kind.parse_cell("4")), refusals.COLUMN_FULL)
    refused(await games.press(who(BOB), ref(game), 0), refusals.NOT_YOUR_TURN)
    moved = await games.move(who(ALICE), kind.parse_cell("a"))  # /ttt move: a column by letter or number
    assert isinstance(moved, Posted) and moved.game.moves[-1] == 35  # a6, the bottom of column 1
    refused(await games.press(who(BOB), ref(game), 0), refusals.STALE_BOARD)  # /ttt move posted the board again
    assert games.current(CHANNEL) == moved.game


async def test_a_hint_is_refused_only_where_it_would_take_too_long(ai: AI, columns_game: str) -> None:
    games = GameService(ai, rng=random.Random(2))
    game = await people(games, columns_game)
    hinted = await games.hint(who(ALICE))  # the empty board: the opening book answers at once
    assert isinstance(hinted, Hinted) and len(hinted.hint.moves) == 7 and hinted.hint.exact
    for user, column in ((ALICE, 0), (BOB, 6)):  # an opening the book leaves out: an analysis of minutes
        moved = await games.press(who(user), ref(game), column)
        assert isinstance(moved, Shown)
        game = moved.game
    marks = variant(columns_game).hint_marks(game.state)
    assert marks > game.ply
    outcome = await games.hint(who(ALICE))
    assert outcome == Refusal(refusals.HINT_TOO_EARLY, {"marks": marks})


async def test_a_game_against_a_weak_level_is_played_to_its_end(ai: AI, columns_game: str) -> None:
    games = GameService(ai, rng=random.Random(2))
    game = await against_bot(games, columns_game, level=1)
    kind, rng = variant(columns_game), random.Random(7)
    while not game.over:
        column = rng.choice([c for c, cell in enumerate(kind.columns(game.state)) if cell is not None])
        outcome = await games.press(who(ALICE), ref(game), column)
        assert isinstance(outcome, Shown), outcome
        assert outcome.game.over or outcome.game.ply == game.ply + 2  # the weak levels answer in the callback
        assert outcome.game.moves[game.ply] in kind.game.actions(game.state)
        game = outcome.game
    assert game.end_reason in ("win", "draw") and game.ai_moves == game.ply // 2
    assert kind.winner(game.state) is not None
    refused(await games.press(who(ALICE), ref(game), 0), refusals.GAME_OVER)


async def test_a_board_by_reference_resumes_after_a_restart(ai: AI, store: RecordsGames, columns_game: str) -> None:
    games = GameService(ai, rng=random.Random(2), store=store)
    game = await against_bot(games, columns_game, level=2)
    outcome = await games.press(who(ALICE), ref(game), 3)
    assert isinstance(outcome, Shown) and outcome.game.ply == 2
    game = outcome.game
    await store.writer.flush()
    games.close()
    restarted = GameService(ai, rng=random.Random(2), store=store)
    assert isinstance(await restarted.press(who(ALICE), ref(game), 2), NeedsHistory)
    forged = BoardRef(columns_game, game.game_id, game.ply + 2, CHANNEL, 5, game.message_id)
    refused(await restarted.press(who(ALICE), forged, 2, history=History((forged,))), refusals.BOARD_MISMATCH)
    resumed = await restarted.press(who(ALICE), ref(game), 2, history=History((ref(game),)))
    assert isinstance(resumed, Shown) and resumed.game.moves[:3] == (*game.moves, 37)  # c6
    restarted.close()


async def test_a_typed_move_after_a_restart_is_read_by_the_resumed_game(
    ai: AI, store: RecordsGames, columns_game: str
) -> None:
    games = GameService(ai, rng=random.Random(2), store=store)
    game = await people(games, columns_game)
    moved = await games.press(who(ALICE), ref(game), 0)
    assert isinstance(moved, Shown)
    game = moved.game
    await store.writer.flush()
    games.close()
    restarted = GameService(ai, rng=random.Random(2), store=store)
    history = History((ref(game),))
    refused(await restarted.move(who(BOB), "z", history=history), refusals.NOT_A_MOVE)
    outcome = await restarted.move(who(BOB), "d", history=history)  # a letter no 3x3 board would read
    assert isinstance(outcome, Posted) and outcome.game.moves == (35, 38), outcome
    restarted.close()


async def test_a_4x4_coordinate_after_a_restart_names_the_4x4_cell(ai: AI, store: RecordsGames) -> None:
    games = GameService(ai, rng=random.Random(2), store=store)
    challenge = await games.start(who(ALICE), game_id="four", opponent=BOB, variant="4x4")
    assert isinstance(challenge, Challenged)
    games.placed(CHANNEL, "four", 1000, challenge.game.post)
    accepted = await games.answer(who(BOB), "four", accept=True)
    assert isinstance(accepted, Shown)
    await store.writer.flush()
    games.close()
    restarted = GameService(ai, rng=random.Random(2), store=store)
    history = History((BoardRef("4x4", "four", 0, CHANNEL, 5, 1000),))
    outcome = await restarted.move(who(ALICE), "b3", history=history)
    assert isinstance(outcome, Posted) and outcome.game.moves == (9,), outcome  # b3 on 4x4, not 3x3's 8th cell
    restarted.close()
