"""GameService.explain: "How did it think?" recomputes the search of the game the bot holds, never a button's claim."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Posted, Refusal, Shown, Thinking
from bot.games.intents import Actor
from bot.games.match import Match
from bot.games.service import GameService
from engine import Mark
from tests.bot.games.test_service import pressed

ALICE, BOB = 11, 22
CHANNEL = 300


def who(user: int = ALICE) -> Actor:
    return Actor(user, CHANNEL, guild_id=5, locale="de")


async def after_one_move(variant: str = "3x3") -> tuple[GameService, Match, Match]:
    """A game against the bot after Alice's move on the centre and the bot's reply; with the board before the reply."""
    games = GameService(AI(ThreadPoolExecutor(2), rng=random.Random(1)), rng=random.Random(2))
    outcome = await games.start(who(), game_id="think", variant=variant, play_as=Mark.X)
    assert isinstance(outcome, Posted)
    games.placed(CHANNEL, "think", 900, outcome.game.post)
    board = games.current(CHANNEL)
    assert board is not None
    centre = (board.kind.cells - 1) // 2
    shown = await games.press(who(), pressed(board), centre)
    await games.settled()
    held = games.current(CHANNEL)
    assert isinstance(shown, Shown) and held is not None and len(held.moves) == 2
    return games, held, pressed(board).play(centre)


async def test_the_bots_move_is_explained_by_the_search_that_chose_it() -> None:
    games, game, _ = await after_one_move()
    outcome = await games.explain(who(), pressed(game), hint=False)
    assert isinstance(outcome, Thinking) and outcome.played == game.moves[-1]
    assert outcome.thought.summary.states == game.last_ai.states == 71  # type: ignore[union-attr]
    hinted = await games.explain(who(), pressed(game), hint=True)
    assert isinstance(hinted, Thinking) and hinted.played is None


async def test_a_button_claiming_moves_the_game_never_had_is_refused() -> None:
    games, game, alices = await after_one_move()
    forged = pressed(game).play(next(c for c in range(9) if c not in game.moves))  # a move nobody made
    outcome = await games.explain(who(), forged, hint=False)
    assert isinstance(outcome, Refusal) and outcome.key == refusals.NO_THINKING
    outcome = await games.explain(who(), alices, hint=False)  # the last move on that board is Alice's, not the bot's
    assert isinstance(outcome, Refusal) and outcome.key == refusals.NO_THINKING
    assert isinstance(await games.explain(who(), alices, hint=True), Thinking)  # a hint's position: any of the game
    stranger = await games.explain(who(BOB), pressed(game), hint=False)
    assert isinstance(stranger, Refusal) and stranger.key == refusals.NOT_YOUR_GAME


async def test_a_game_whose_search_cannot_be_replayed_says_so() -> None:
    games, game, _ = await after_one_move("4x4")
    outcome = await games.explain(who(), pressed(game), hint=False)
    assert isinstance(outcome, Refusal) and outcome.key == refusals.NOT_REPLAYABLE
