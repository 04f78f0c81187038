"""bot.games.thinking: the search behind a move, recomputed and drawn in the player's language."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from bot.games.thinking import can_draw, think, words_for
from bot.i18n.lang import lang
from engine.tree.mcts import MctsTree
from engine.tree.outline import Outline, outline
from engine.tree.record import record


def test_a_3x3_move_is_drawn_with_both_counts_and_the_same_after_a_restart() -> None:
    thought = think("3x3", (4,), 0, "alpha-beta", "de")
    assert Image.open(io.BytesIO(thought.png)).format == "PNG"
    assert (thought.summary.states, thought.summary.other_states, thought.summary.move) == (71, 55_504, 0)
    assert think("3x3", (4,), 0, "alpha-beta", "de") == thought  # recomputed: the same picture, byte for byte


def test_the_pictures_words_follow_the_language() -> None:
    german, english = words_for(lang("de")), words_for(lang(None))
    assert german.draw != english.draw and german.number(55_504) == "55.504" and english.number(55_504) == "55,504"
    assert english.percent(0.43) == "43%"


def test_ultimate_is_the_mcts_first_plies() -> None:
    thought = think("ultimate", (40,), None, "alpha-beta", None, seed=1)
    assert thought.summary.algorithm == "mcts" and thought.summary.iterations == 20_000


def test_without_graphviz_the_search_comes_in_brief_and_without_a_picture(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    drawn = think("3x3", (4,), 8, "alpha-beta", None)
    assert can_draw() and drawn.png is not None
    monkeypatch.setenv("PATH", str(tmp_path))  # a PATH without Graphviz's dot
    assert not can_draw()
    thought = think("3x3", (4,), 8, "alpha-beta", None)
    assert thought.png is None and thought.summary == drawn.summary
    assert isinstance(thought.brief, Outline) and thought.brief == outline(record((4,), "alpha-beta", 8))
    assert thought.brief.line[0] == 8 and thought.brief.states == 71
    minimax = think("3x3", (4,), None, "minimax", None)
    assert isinstance(minimax.brief, Outline) and minimax.brief.algorithm == "minimax"  # the search asked for
    ultimate = think("ultimate", (40,), None, "alpha-beta", None, seed=1)
    assert ultimate.png is None and isinstance(ultimate.brief, MctsTree) and ultimate.brief.iterations == 20_000


def test_a_game_from_outside_explains_its_moves_through_the_explanation_it_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game registered from outside (docs/adding-a-game.md, section 4) answers ``explain`` with its own recorded
    tree; the bot draws and tells it without knowing the game."""
    from engine import VARIANTS
    from engine.games.tictactoe import ThreeByThree
    from engine.tree.explain import Explained
    from engine.tree.summary import summarise

    class AlphaBetaOnly(ThreeByThree):
        name, code = "ab-only", "ab"

        def explain(self, cells, played=None, algorithm="alpha-beta", seed=0, **options):  # type: ignore[no-untyped-def]
            tree = record(tuple(cells), "alpha-beta")
            return Explained((tree,), summarise(tree))

    monkeypatch.setitem(VARIANTS, "ab-only", AlphaBetaOnly())
    drawn = think("ab-only", (4,), None, "alpha-beta", None)
    assert drawn.png is not None and Image.open(io.BytesIO(drawn.png)).format == "PNG"
    assert (drawn.summary.states, drawn.summary.other_states) == (71, None)  # its one tree, not 3x3's two
    assert drawn.brief == outline(record((4,), "alpha-beta"))
