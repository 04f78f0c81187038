"""How long a bot's move takes is asked once (:func:`bot.games.moves.pace`), from the game's ``answer_ms`` only."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.games.match import Match
from bot.games.moves import Pace, pace, reply_pace
from engine.registry import VARIANTS
from engine.tictactoe.rules import initial_state, parse_board

THREE = VARIANTS["3x3"]
BOT = Path(__file__).resolve().parents[3] / "bot"


def test_the_pace_follows_the_games_answer_ms() -> None:
    assert pace(THREE, initial_state(), 8, "minimax") is Pace.DEFERRED  # searched inline, deferred first
    assert pace(THREE, initial_state(), 8, "alpha-beta") is Pace.QUICK
    assert pace(THREE, initial_state(), 5, "minimax") is Pace.QUICK  # below 8 the level's own short search
    assert pace(THREE, parse_board("XO.X....."), 8, "minimax") is Pace.QUICK
    four = VARIANTS["4x4"]
    assert pace(four, four.replay(()), 8, "alpha-beta") is Pace.POOLED


def test_a_reply_is_paced_after_the_pressed_cell() -> None:
    assert reply_pace(THREE, THREE.replay(()), 4, 8, "minimax") is Pace.DEFERRED  # the reply to the centre: 55,504
    assert reply_pace(THREE, THREE.replay((4,)), 4, 8, "minimax") is None  # a taken cell cannot be played


def test_a_match_is_inline_unless_its_reply_is_pooled() -> None:
    three = Match("g", 1, 10, None, algorithm="minimax", moves=(), state=THREE.replay(()))
    assert three.pace is Pace.DEFERRED and three.inline
    four = Match("g", 1, 10, None, moves=(), state=VARIANTS["4x4"].replay(()), variant="4x4")
    assert four.pace is Pace.POOLED and not four.inline


def test_answer_ms_is_asked_in_one_place() -> None:
    askers = sorted(
        str(path.relative_to(BOT))
        for path in BOT.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr == "answer_ms"
    )
    assert askers == ["games/moves.py"]
