"""Connect Four's exact values and level 8 against an independent exact solver: BitBully (M. Thill, MIT; its 12-ply
distance database), on positions of 6-30 plies and along whole games."""

from __future__ import annotations

import random

import bitbully
import pytest

from engine.connect_four.book import PLIES
from engine.connect_four.book_build import scores_of
from engine.connect_four.play import analyse, book_scores
from engine.connect_four.rules import CONNECT_FOUR, WIDTH, ConnectFourState
from engine.connect_four.solver import score_value
from engine.games.connect_four import CONNECT_FOUR_VARIANT as GAME
from engine.games.connect_four import HINT_FROM
from engine.levels import choose_move
from engine.protocol import Mark


@pytest.fixture(scope="module")
def solver() -> bitbully.BitBully:
    return bitbully.BitBully()


def theirs(solver: bitbully.BitBully, moves: list[int], state: ConnectFourState) -> dict[int, int]:
    """BitBully's score of every legal column, on our scale."""
    scores = scores_of(solver, moves, state.discs)
    return {column: scores[column] for column in range(WIDTH) if column in CONNECT_FOUR.actions(state)}


def column_of(cell: int) -> int:
    return cell % WIDTH


def play_game(solver: bitbully.BitBully, rng: random.Random, bot_is_x: bool, noise: float) -> int:
    """Level 8 against an opponent playing BitBully's best column, or a random one with probability ``noise``; every
    bot move must keep the position's exact value, its value must be BitBully's, and every move up to the book's
    last ply must come from the book. Returns the bot's moves."""
    moves: list[int] = []
    state = CONNECT_FOUR.initial_state()
    played = 0
    while not CONNECT_FOUR.terminal(state):
        scores = theirs(solver, moves, state)
        best = max(scores.values())
        if (state.discs % 2 == 0) == bot_is_x:
            chosen = choose_move("connect-four", state, 8, rng=rng)
            column = column_of(chosen.cell)
            assert scores[column] == best, (moves, column, scores)
            assert chosen.value == score_value(best, state.discs)
            assert chosen.source == ("book" if state.discs <= PLIES else "search")
            played += 1
        elif rng.random() < noise:
            column = rng.choice(list(scores))
        else:
            column = rng.choice([c for c, score in scores.items() if score == best])
        moves.append(column)
        state = CONNECT_FOUR.result(state, column)
    if bot_is_x:  # the first player wins from the empty board, so a bot that keeps the value wins
        assert CONNECT_FOUR.winner(state) is Mark.X
    return played


GAMES = [(True, 1.0, 1), (False, 1.0, 2), (True, 0.1, 4), (False, 0.1, 5)]
"""(level 8 plays X, the opponent's share of random moves, seed): against random play, and long games (18 and 21
moves of the bot) against a strong opponent."""


@pytest.mark.parametrize(("bot_is_x", "noise", "seed"), GAMES)
def test_level_8_keeps_the_exact_value_on_every_move(
    solver: bitbully.BitBully, bot_is_x: bool, noise: float, seed: int
) -> None:
    assert play_game(solver, random.Random(seed), bot_is_x, noise) >= 4


def test_values_match_bitbully_in_the_book_s_positions(solver: bitbully.BitBully) -> None:
    """Positions of 6-12 plies from games of level 8 against random replies, with either side to move: the book
    answers each (read: no state evaluated), with BitBully's values."""
    rng = random.Random(6)
    checked = 0
    for game in range(40):
        bot_is_x = game % 2 == 0
        moves: list[int] = []
        state = CONNECT_FOUR.initial_state()
        while state.discs <= PLIES and not CONNECT_FOUR.terminal(state):
            bot_turn = (state.discs % 2 == 0) == bot_is_x
            last = PLIES if bot_is_x else PLIES - 1  # the bot's last book ply
            if state.discs >= 6 and (bot_turn or state.discs < last):  # a reply's children are in the book
                found = analyse(state)
                assert found.states == 0, "answered by the book"
                assert book_scores(state) == found.scores == theirs(solver, moves, state), moves
                checked += 1
            column = (
                column_of(choose_move("connect-four", state, 8).cell)
                if bot_turn
                else rng.choice(CONNECT_FOUR.actions(state))
            )
            moves.append(column)
            state = CONNECT_FOUR.result(state, column)
    assert checked >= 100


def test_values_match_bitbully_on_random_positions_from_12_plies(solver: bitbully.BitBully) -> None:
    """Random positions of 12-30 plies (seeded), not over: every column's exact value, by our solver."""
    rng = random.Random(12)
    for target in (12, 13, 14, 16, 18, 20, 22, 24, 26, 28, 30):
        while True:
            moves: list[int] = []
            state = CONNECT_FOUR.initial_state()
            while state.discs < target and not CONNECT_FOUR.terminal(state):
                moves.append(rng.choice(CONNECT_FOUR.actions(state)))
                state = CONNECT_FOUR.result(state, moves[-1])
            if not CONNECT_FOUR.terminal(state):
                break
        assert analyse(state).scores == theirs(solver, moves, state), moves


def test_level_8_keeps_the_value_from_random_positions_off_its_book_lines(solver: bitbully.BitBully) -> None:
    """20 random positions of 10-36 plies (random games, seeded: most off every line the book follows), the process's
    kernel warm from one to the next as in the bot's worker: level 8's move keeps BitBully's value, proven, by the
    solver (benchmarks/connect_four_exact.py measures 200 positions of 6-36 plies and the time per move)."""
    rng = random.Random(48)
    for index in range(20):
        target = 10 + index * 26 // 19
        while True:
            moves: list[int] = []
            state = CONNECT_FOUR.initial_state()
            while state.discs < target and not CONNECT_FOUR.terminal(state):
                moves.append(rng.choice(CONNECT_FOUR.actions(state)))
                state = CONNECT_FOUR.result(state, moves[-1])
            if not CONNECT_FOUR.terminal(state):
                break
        scores = theirs(solver, moves, state)
        best = max(scores.values())
        move = choose_move("connect-four", state, 8, rng=rng)
        assert scores[column_of(move.cell)] == best, (moves, column_of(move.cell), scores)
        assert move.source in ("search", "book") and move.value == score_value(best, state.discs), moves


def test_hints_are_refused_only_off_the_book_before_11_discs() -> None:
    assert GAME.hint_from() == 0
    bot_line = [3]  # the book's first move: every reply's position is read from the book
    assert GAME.hint_marks(CONNECT_FOUR.play(bot_line)) == 0
    off_book = CONNECT_FOUR.play([0, 6])  # X's first disc at the edge, O's reply not the book's
    assert GAME.hint_marks(off_book) == HINT_FROM
    cells = [GAME.move_at(GAME.replay([]), 0)]
    cells.append(GAME.move_at(GAME.replay(cells), 6))
    with pytest.raises(ValueError, match=f"before {HINT_FROM} marks"):
        GAME.hint(cells)
    hint = GAME.hint([GAME.move_at(GAME.replay([]), 3)])
    assert len(hint.moves) == 7 and hint.states == 0  # each child's best score read from the book: nothing searched


def test_a_game_against_level_8_is_reviewed_from_its_first_move() -> None:
    rng = random.Random(8)
    state = CONNECT_FOUR.initial_state()
    cells: list[int] = []
    while not CONNECT_FOUR.terminal(state):
        if state.discs % 2 == 0:
            cell = choose_move("connect-four", state, 8).cell
        else:
            cell = GAME.move_at(state, rng.choice(CONNECT_FOUR.actions(state)))
        cells.append(cell)
        state = GAME.game.result(state, cell)
    reviewed = GAME.review(cells)
    assert [ply.ply for ply in reviewed] == list(range(1, len(cells) + 1))
    assert all(ply.label == "best" for ply in reviewed[::2])


def test_level_8_s_quick_move_is_the_book_s_in_the_book() -> None:
    state = CONNECT_FOUR.play([3, 2])
    quick = GAME.quick_move(state, 8, random.Random(1), 50.0)
    assert quick.source == "book" and quick.value is not None
    late = CONNECT_FOUR.play([0, 6, 0, 6, 1, 5, 1, 5])  # off the book: level 7's search
    assert GAME.quick_move(late, 8, random.Random(1), 50.0).source == "search"
