"""Ultimate's hints and the bot's move in words (bot.text.hints, bot.text.board): proofs said as proved."""

from __future__ import annotations

import pytest

from bot.games.match import EngineMove, Match, initial_for
from bot.i18n.lang import lang
from bot.text.board import played_line
from bot.text.hints import hint_text
from engine import VARIANTS, Mark
from engine.hints import Hint, HintMove
from engine.protocol import GameValue

EN = lang(None)


def ultimate() -> Match:
    return Match("0a1b2c", 1, 10, None, variant="ultimate", state=initial_for("ultimate"))


def test_a_hint_gives_expected_scores_and_the_proved_results_as_such() -> None:
    moves = (HintMove(40, None, 0.641), HintMove(0, GameValue("win", 7), 1.0), HintMove(8, GameValue("draw", 0), 0.5))
    hint = Hint(Mark.O, moves, False, states=4_000_000, elapsed_ms=990.0, depth=12, budget_ms=1000.0)
    lines = hint_text(ultimate(), hint, EN).splitlines()
    assert "estimate" in lines[0]
    assert lines[1:4] == ["`e5` expected score 64%", "`a1` (proved: win in 7 plies)", "`i1` (proved: draw)"]
    assert "reached 12 plies deep and evaluated 4,000,000 states" in lines[4]


@pytest.mark.parametrize("locale", ["de", "fr", "es-ES", "pt-BR", "ja"])
def test_the_new_words_are_translated(locale: str) -> None:
    tr = lang(locale)
    hint = Hint(Mark.O, (HintMove(40, None, 0.25), HintMove(1, GameValue("loss", 1), 0.0)), False, 10, 1.0, 3, 1000.0)
    text = hint_text(ultimate(), hint, tr)
    assert "expected score" not in text and "proved" not in text and "reached" not in text
    assert "25" in text


def test_the_bots_move_says_its_expected_score_or_what_it_proved() -> None:
    estimate = EngineMove(40, 1_234_567, None, 990.0, depth=14, budget_ms=1000.0, expected=0.58, mark=Mark.O)
    assert played_line(estimate, "e5", EN, search=VARIANTS["ultimate"].search_name("alpha-beta")) == (
        "O played e5 · MCTS evaluated 1,234,567 states in 990.0 ms "
        "(an estimate, 14 plies deep: expected score for O 58%)"
    )
    proved = EngineMove(0, 50, GameValue("win", 1), 10.0, depth=3, expected=1.0, mark=Mark.X)
    assert played_line(proved, "a1", EN, search="MCTS").endswith("(proved: win in 1 ply)")
    solved = EngineMove(0, 50, None, 10.0, mark=Mark.X)
    assert "proved" not in played_line(solved, "a1", EN, search="alpha-beta")
