"""engine.tree.savings: plain minimax, the textbook alpha-beta and the bot's search on one position, with what each
enhancement saved, counted by the searches themselves."""

from __future__ import annotations

import pytest

from engine.errors import GameOverError
from engine.minimax.config import DEFAULT
from engine.tree.labels import panels, saving_lines
from engine.tree.record import record
from engine.tree.savings import LADDER, savings
from tests.engine.tree.test_record import random_games


def test_the_ladder_runs_from_plain_minimax_to_the_bots_search_and_the_savings_add_up() -> None:
    for cells in random_games(30, 40, "minimax"):
        rungs = savings(cells)
        assert [r.step for r in rungs] == ["minimax", "alpha-beta", *(name for name, _ in LADDER)]
        assert rungs[0].states == record(cells, "minimax").states
        assert rungs[-1].config == DEFAULT and rungs[-1].states == record(cells).states
        assert sum(r.saved for r in rungs[1:]) == rungs[0].states - rungs[-1].states
        assert all(rungs[i - 1].states - rungs[i].states == rungs[i].saved for i in range(1, len(rungs)))


def test_seed_000_and_the_centre_count_the_labs_figures() -> None:
    seed = savings((3,))  # X on people's 4: the lab's 7,641 for its alpha-beta
    assert (seed[0].states, seed[1].states) == (63_904, 7_641)
    centre = {r.step: r for r in savings((4,))}
    assert (centre["minimax"].states, centre["alpha-beta"].states, centre["threats"].states) == (55_504, 6_138, 71)
    assert centre["symmetry"].saved == 900 and centre["table"].saved == 4_377  # what the picture credits to each
    assert savings((3, 0, 6, 1, 8))[1].states == 27  # the lab's third move
    with pytest.raises(GameOverError):
        savings((0, 3, 1, 4, 2))


def test_the_bots_panel_carries_the_ladder_in_words() -> None:
    minimax, alpha_beta = panels([record([4], "minimax", keep=2), record([4])], saved=True)
    (note,) = [box for box in alpha_beta.boxes if box.style == "savings"]
    assert note.parent == alpha_beta.boxes[0].name and not any(b.style == "savings" for b in minimax.boxes)
    assert note.lines == saving_lines(savings((4,)))
    assert note.lines[1:3] == ("plain minimax: 55,504", "alpha-beta as in the textbook: 6,138 (\N{MINUS SIGN}49,366)")
    assert note.lines[-1] == "+ threat rules: the bot's search: 71 (\N{MINUS SIGN}96)"
    assert any(line.endswith("(+2,327)") for line in note.lines)  # an idea that costs states says so
