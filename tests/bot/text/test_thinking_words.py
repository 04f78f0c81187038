"""bot.text.thinking_words: "How did it think?" in words where Graphviz is missing: the same search, told."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.thinking import Thought, think
from bot.i18n.lang import lang
from bot.text.thinking import thinking_text
from bot.text.thinking_words import SHOWN, thinking_words
from engine import variant


@pytest.fixture(autouse=True)
def no_graphviz(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot: think() returns no picture


def label(cell: int) -> str:
    return str(cell + 1)


def thought(name: str, cells: tuple[int, ...], played: int | None, algorithm: str = "alpha-beta") -> Thought:
    found = think(name, cells, played, algorithm, None, seed=1)  # type: ignore[arg-type]
    assert found.png is None
    return found


def test_a_3x3_move_in_words_names_the_best_move_its_value_counts_line_and_alternatives() -> None:
    text = thinking_words(thought("3x3", (4,), 8), lang(None), label, played=8)
    lines = text.splitlines()
    assert lines[0] == "**How I chose 9:**"
    assert "Alpha-beta evaluated 71 states; plain minimax would evaluate 55,504." in text
    assert "It cut 5 branches: 18 moves were never searched" in text
    assert "With best play from both sides: draw." in text
    assert "• O 1: 0 (draw) · 64 states" in lines  # the corner, searched for its mirror images 3, 7 and 9
    assert "• O 2: ≥ +4 (X wins by ply 6) · 7 states · ✂ not searched: 3, 7, 9, 4, 6, 8" in lines
    assert "The line both sides play: O 9 → X 7 → O 3 → X 6 → O 4 → X 1 → O 8 → X 2" in lines
    assert lines[-1].startswith("(No picture: Graphviz's `dot` is not installed")
    assert "orange" not in text and "grey" not in text  # no picture to point at


def test_the_same_search_told_in_german_with_its_numbers_grouped() -> None:
    text = thinking_words(thought("3x3", (4,), None, "minimax"), lang("de"), label, played=None)
    assert text.startswith("**Wie die Suche diese Stellung sieht** (bester Zug 1):")
    assert "Reines Minimax bewertete 55.504 Zustände" in text and "• O 1: 0 (Remis) · 6.812 Zustände" in text
    assert "Die Zugfolge beider Seiten: O 1 → X 2 …" in text  # recorded two plies deep: the line goes on
    listed = [line for line in text.splitlines() if line.startswith("• O ")]
    assert len(listed) == SHOWN and "• 3 weitere Züge" in text  # 8 root moves: the 5 best listed, 3 counted
    assert "Kein Bild" in text and "orange" not in text


def test_ultimate_in_words_gives_the_mcts_statistics() -> None:
    found = thought("ultimate", (40,), None)
    assert not isinstance(found.brief, tuple)
    text = thinking_words(found, lang(None), variant("ultimate").cell_label, played=None)
    assert "Monte Carlo tree search played 20,000 games" in text and "The moves it tried most:" in text
    tried = [line for line in text.splitlines() if line.startswith("• O ")]
    assert len(tried) == SHOWN
    best = found.summary.move
    assert tried[0].startswith(f"• O {variant('ultimate').cell_label(best)}: win rate ") and " visits" in tried[0]
    assert "The most visited line: O " in text and "No picture" in text


def test_the_picture_free_sentences_differ_from_the_pictures_only_in_its_colours() -> None:
    found = thought("3x3", (4,), 0)
    beside = thinking_text(found.summary, lang(None), label, played=0)
    alone = thinking_text(found.summary, lang(None), label, played=0, drawn=False)
    assert "(grey)" in beside and "orange" in beside
    assert alone == beside.replace(" (grey)", "").replace(" The orange line is that play.", "")


def test_a_4x4_win_in_one_says_it_was_played_at_once() -> None:
    """Issue 48: the board says the bot wins at once with nothing searched; its explanation agrees."""
    found = thought("4x4", (0, 4, 1, 5, 10, 6, 15), 7)
    text = thinking_words(found, lang(None), variant("4x4").cell_label, played=7)
    assert "A win in one is played at once, before any search: no other move was evaluated." in text
    assert "• O d2: -9 (O wins at ply 1) · 1 state" in text.splitlines() and "fresh search" not in text
    german = thinking_words(found, lang("de"), variant("4x4").cell_label, played=7)
    assert "Ein Gewinn in einem Zug wird sofort gespielt" in german
