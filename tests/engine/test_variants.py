"""engine.variants: every variant by name, replayed from cells, played at each difficulty."""

from __future__ import annotations

import random

import pytest

from engine import Difficulty, Mark, review
from engine.errors import CellOccupiedError, CellOutOfRangeError, IllegalSequenceError, UnknownVariantError
from engine.minimax.reference import alpha_beta_search
from engine.ultimate import play as ultimate_play
from engine.ultimate.rules import UltimateState
from engine.variants import VARIANTS, variant


def test_every_variant_is_found_by_its_name_and_has_its_board_size() -> None:
    sizes = {name: (v.width, v.height) for name, v in VARIANTS.items()}
    assert sizes["3x3"] == (3, 3) and sizes["4x4"] == (4, 4) and sizes["5x5"] == (5, 5)
    assert all(variant(name) is VARIANTS[name] for name in VARIANTS)
    with pytest.raises(UnknownVariantError, match="3x3"):
        variant("6x6")


def test_replay_reports_the_first_bad_move_with_its_ply_and_cause() -> None:
    with pytest.raises(IllegalSequenceError) as caught:
        variant("4x4").replay([5, 6, 5])
    assert (caught.value.ply, caught.value.cell) == (3, 5)
    assert isinstance(caught.value.__cause__, CellOccupiedError)
    assert "cell 6" in str(caught.value)  # people's numbering


@pytest.mark.parametrize("name", ["3x3", "4x4", "5x5"])
def test_a_solved_variant_finds_the_win_in_one(name: str) -> None:
    v = variant(name)
    k = 3 if name == "3x3" else 4
    x_cells = list(range(k - 1))  # the top row but its last cell
    o_cells = [v.width * 2 + i for i in range(k - 1)]  # the third row
    moves = [c for pair in zip(x_cells, o_cells, strict=True) for c in pair]
    chosen = v.choose(v.replay(moves), rng=random.Random(1))
    assert chosen.cell == k - 1
    assert chosen.value is not None and (chosen.value.result, chosen.value.plies) == ("win", 1)
    assert v.winner(v.replay([*moves, chosen.cell])) is Mark.X


def test_the_4x4_value_agrees_with_the_textbook_alpha_beta_near_the_end() -> None:
    v = variant("4x4")
    rng = random.Random(5)
    for _ in range(5):
        moves: list[int] = []
        state = v.game.initial_state()
        while len(moves) < 9 and not v.game.terminal(state):
            moves.append(rng.choice(list(v.game.actions(state))))
            state = v.replay(moves)
        if v.game.terminal(state):
            continue
        reference = alpha_beta_search(v.game, state)
        sign = 1 if v.game.player(state) is Mark.X else -1
        exact = v.choose(state, rng=rng).value
        assert exact is not None
        assert {"win": 1, "draw": 0, "loss": -1}[exact.result] == reference.value * sign


def test_random_moves_wait_for_the_book_on_5x5() -> None:
    v = variant("5x5")
    always = Difficulty.EASY  # a random move half of the time
    rng = random.Random(3)
    early = [v.choose(v.replay([12]), always, rng=rng) for _ in range(20)]
    assert not any(m.random for m in early)  # 1 mark: below random_from, so the book's move every time
    late = [v.choose(v.replay([12, 6, 7, 17]), always, rng=rng) for _ in range(20)]
    assert any(m.random for m in late) and not all(m.random for m in late)


def test_ultimate_plays_each_difficulty_with_its_own_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[float, float]] = []  # (budget in ms, noise) of each search
    search = ultimate_play.choose_move

    def counted(state: UltimateState, budget_ms: float, noise: float, rng: random.Random) -> ultimate_play.Decision:
        asked.append((budget_ms, noise))
        return search(state, budget_ms, noise, rng, iterations=2_000)  # the same search, bounded by its iterations

    monkeypatch.setattr(ultimate_play, "choose_move", counted)
    v = variant("ultimate")
    state = v.replay([40])
    rng = random.Random(2)
    easy = v.choose(state, Difficulty.EASY, rng=rng)
    capped = v.choose(state, Difficulty.UNBEATABLE, budget_ms=50, rng=rng)
    assert asked == [ultimate_play.LEVELS[Difficulty.EASY], (50, ultimate_play.LEVELS[Difficulty.UNBEATABLE][1])]
    for chosen in (easy, capped):
        assert chosen.cell in v.game.actions(state)
        assert chosen.value is None and chosen.expected is not None and chosen.depth is not None
        assert not chosen.random


def test_the_board_shape_and_the_custom_id_codes_are_data() -> None:
    shapes = {name: (v.width, v.height, v.cells, v.block) for name, v in VARIANTS.items()}
    assert shapes == {"3x3": (3, 3, 9, 0), "4x4": (4, 4, 16, 0), "5x5": (5, 5, 25, 0), "ultimate": (9, 9, 81, 3)}
    assert {name: (v.code, v.by_reference) for name, v in VARIANTS.items()} == {
        "3x3": ("", False),
        "4x4": ("4", False),
        "5x5": ("5", False),
        "ultimate": ("u", True),
    }
    assert len({v.code for v in VARIANTS.values()}) == len(VARIANTS)  # a code names one variant


def test_the_algorithms_offered_and_the_inline_answer_are_data() -> None:
    assert VARIANTS["3x3"].algorithms == ("alpha-beta", "minimax") and VARIANTS["3x3"].inline
    assert all(v.algorithms == ("alpha-beta",) and not v.inline for n, v in VARIANTS.items() if n != "3x3")
    assert [v.exact for v in VARIANTS.values()] == [True, True, True, False]
    three = VARIANTS["3x3"]
    assert three.slow(three.replay(()), "minimax") and three.slow(three.replay((0, 1)), "minimax")
    assert not three.slow(three.replay((0, 1, 2)), "minimax") and not three.slow(three.replay(()), "alpha-beta")
    assert not VARIANTS["4x4"].slow(VARIANTS["4x4"].replay(()), "minimax")  # minimax is not offered there


def test_cells_are_named_and_parsed_by_the_variants_rules() -> None:
    three, four, ultimate = VARIANTS["3x3"], VARIANTS["4x4"], VARIANTS["ultimate"]
    assert three.parse_cell("5") == three.parse_cell("b2") == 4 and three.cell_name(4) == "b2"
    assert four.parse_cell("d4") == 15 and ultimate.parse_cell("i9") == 80 and ultimate.cell_name(80) == "i9"
    assert four.parse_cell("5") == 4  # every board takes numbers too, as /ttt move always has
    assert (three.cell_label(4), four.cell_label(4), ultimate.cell_label(80)) == ("5", "a2", "i9")
    with pytest.raises(CellOutOfRangeError, match="a1-d4"):
        four.parse_cell("17")
    with pytest.raises(CellOutOfRangeError):
        three.parse_cell("d1")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_records_move_format_reads_back_by_the_boards_size(name: str) -> None:
    v = VARIANTS[name]
    moves = (0, v.cells - 1, 4)
    assert v.moves_from_text(v.moves_text(moves)) == moves and v.moves_from_text("") == ()
    assert v.moves_text(moves) == ("084" if name == "3x3" else f"0,{v.cells - 1},4")


def test_a_hint_waits_for_the_variants_first_fast_ply() -> None:
    assert [v.hint_from for v in VARIANTS.values()] == [0, 0, 4, 0]
    with pytest.raises(ValueError, match="4 marks"):
        VARIANTS["5x5"].hint((12, 0, 6))
    assert len(VARIANTS["5x5"].hint((12, 0, 6, 18)).moves) == 21
    assert VARIANTS["3x3"].hint((4,)).minimax_states is not None


def test_every_variant_reviews_its_games_with_the_one_review_type() -> None:
    assert VARIANTS["3x3"].review((4, 0, 8)) == review((4, 0, 8))
    assert [row.ply for row in VARIANTS["4x4"].review((5, 0, 6))] == [1, 2, 3]
    assert VARIANTS["ultimate"].review_budget_ms == 100.0 and VARIANTS["3x3"].review_budget_ms is None


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variants_player_returns_the_one_move_record_with_its_mover(name: str) -> None:
    v = VARIANTS[name]
    state = v.replay((0,) if name != "5x5" else (12, 0, 6, 18))
    chosen = v.choose(state, budget_ms=20.0, rng=random.Random(2))
    assert chosen.mark is v.game.player(state) and chosen.elapsed_ms >= 0 and chosen.states > 0
    assert chosen.cell in v.game.actions(state) and chosen.book == (chosen.source == "book")
    assert chosen.value is not None if v.exact else chosen.expected is not None  # exact, or an estimate's score


def test_only_3x3_gives_exact_values_fast_enough_to_check_a_board_and_they_are_the_solver_s() -> None:
    assert [name for name, rules in VARIANTS.items() if rules.value is not None] == ["3x3"]
    three = variant("3x3")
    assert three.value is not None
    after_centre = three.replay([4])
    assert three.value(after_centre, Mark.O).result == "draw"
    assert three.value(three.replay([0, 3, 1, 4]), Mark.X).result == "win"
