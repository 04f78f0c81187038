"""bot.games.thinking: the search behind a move, recomputed and drawn in the player's language."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.thinking import think, words_for
from bot.i18n.lang import lang


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
