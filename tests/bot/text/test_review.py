"""/ttt review of the variants (bot.text.review): exact labels by coordinate, ultimate's estimate."""

from __future__ import annotations

import datetime as dt

from bot.i18n.lang import lang
from bot.records import FinishedGame
from bot.text.review import MAX_CHARS, review_header, review_text
from engine import Mark
from engine.protocol import GameValue
from engine.review import REVIEW_BUDGET_MS, PlyReview

ALICE = 10
START = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def finished(variant: str, moves: tuple[int, ...]) -> FinishedGame:
    return FinishedGame(
        game_id="abc123",
        guild_id=None,
        channel_id=1,
        x_user_id=ALICE,
        o_user_id=None,
        bot_side="O",
        level=8,
        algorithm="alpha-beta",
        moves=moves,
        result="O",
        end_reason="win",
        states_evaluated=10,
        started_at=START,
        ended_at=START,
        variant=variant,
    )


def test_an_exact_review_names_cells_by_coordinate() -> None:
    draw, loss = GameValue("draw", 12), GameValue("loss", 5)
    moves = (
        PlyReview(1, Mark.X, 5, None, draw, draw, "best", (5, 6), 1200),
        PlyReview(2, Mark.O, 15, None, draw, loss, "blunder", (0, 10), 80),
    )
    lines = review_text(finished("4x4", (5, 15)), moves).splitlines()
    assert lines[1] == "`1.` X b2 · best · draw · 1,200 states"
    assert lines[2] == "`2.` O d4 · **blunder** · draw → loss in 5 · best: a1, c3 · 80 states"
    assert lines[3] == "X: 0 mistakes · O: 1 blunder (move 2)"


def test_an_ultimate_review_is_marked_as_an_estimate_and_fits_one_message() -> None:
    moves = tuple(
        PlyReview(
            ply,
            Mark.X if ply % 2 else Mark.O,
            ply - 1,
            None,
            None,
            None,
            "mistake" if ply == 7 else "best",
            (40,),
            123_456,
            depth=9,
            score=0,
            best_score=0,
            loss=120,
        )
        for ply in range(1, 82)
    )
    text = review_text(finished("ultimate", tuple(range(81))), moves)
    assert "estimate" in text.splitlines()[1] and f"{REVIEW_BUDGET_MS:.0f} ms" in text
    assert len(text) <= MAX_CHARS
    assert "`7.` X g1 · **mistake** · 120 points below e5 · depth 9, 123,456 states" in text
    assert "(80 best moves not shown)" in text and text.endswith("X: 1 mistake (move 7) · O: 0 mistakes")


def test_the_summary_counts_every_label_the_review_shows() -> None:
    """The review's summary named blunders and mistakes only: "O: 0 mistakes" under three inaccuracies of O's."""
    draw, loss_9 = GameValue("draw", 12), GameValue("loss", 9)
    loss_7, loss_5 = GameValue("loss", 7), GameValue("loss", 5)
    win_5, win_7 = GameValue("win", 5), GameValue("win", 7)
    moves = (
        PlyReview(1, Mark.X, 5, None, draw, draw, "best", (5,), 10),
        PlyReview(2, Mark.O, 0, None, loss_9, loss_7, "inaccuracy", (3,), 10),
        PlyReview(3, Mark.X, 6, None, win_5, win_7, "slower", (7,), 10),
        PlyReview(4, Mark.O, 1, None, loss_7, loss_5, "inaccuracy", (2,), 10),
        PlyReview(6, Mark.O, 2, None, loss_7, loss_5, "inaccuracy", (8,), 10),
    )
    last = review_text(finished("4x4", (5, 0, 6, 1, 2)), moves).splitlines()[-1]
    assert last == "X: 1 slower win (move 3) · O: 3 inaccuracies (moves 2, 4, 6)"
    assert "0 mistakes" not in last


def test_the_header_shows_each_side_with_the_pieces_its_game_declares() -> None:
    discs = review_header(finished("connect-four", (38, 31)), lang(None), who=str)
    assert discs == "**Review of game `abc123`** · \N{LARGE RED CIRCLE} 10 vs \N{LARGE YELLOW CIRCLE} None"
    marks = review_header(finished("4x4", (5, 15)), lang(None), who=str)
    assert marks == "**Review of game `abc123`** · \N{CROSS MARK} 10 vs \N{HEAVY LARGE CIRCLE} None"
