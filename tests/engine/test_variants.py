"""engine.variants: every game by name, an object that answers for itself: replayed from cells, played at its
levels, its cells, lines, small boards, hints and reviews; and the registry that lists them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Mark, register
from engine.errors import CellOccupiedError, CellOutOfRangeError, IllegalSequenceError, UnknownVariantError
from engine.games.tictactoe import ThreeByThree
from engine.minimax.reference import alpha_beta_search
from engine.registry import VARIANTS, variant
from engine.review import review


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
    chosen = v.play(v.replay(moves), rng=random.Random(1))
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
        exact = v.play(state, rng=rng).value
        assert exact is not None
        assert {"win": 1, "draw": 0, "loss": -1}[exact.result] == reference.value * sign


def test_ultimate_plays_a_level_under_the_budget_it_is_given() -> None:
    v = variant("ultimate")
    state = v.replay([40])
    for level in (2, 8):
        chosen = v.play(state, level, budget_ms=50, rng=random.Random(2))
        assert chosen.cell in v.game.actions(state) and chosen.elapsed_ms < 1000
        assert chosen.value is None and chosen.expected is not None and chosen.depth is not None


def test_the_board_shape_and_the_custom_id_codes_are_data() -> None:
    shapes = {name: (v.width, v.height, v.cells, v.block) for name, v in VARIANTS.items()}
    assert shapes == {
        "3x3": (3, 3, 9, 0),
        "4x4": (4, 4, 16, 0),
        "5x5": (5, 5, 25, 0),
        "ultimate": (9, 9, 81, 3),
        "connect-four": (7, 6, 42, 0),
    }
    codes = {name: v.code for name, v in VARIANTS.items()}
    assert codes == {"3x3": "", "4x4": "4", "5x5": "5", "ultimate": "u", "connect-four": "c"}
    assert len({v.code for v in VARIANTS.values()}) == len(VARIANTS)  # a code names one variant


def test_each_game_says_how_long_its_move_takes() -> None:
    assert VARIANTS["3x3"].algorithms == ("alpha-beta", "minimax")
    assert all(v.algorithms == ("alpha-beta",) for n, v in VARIANTS.items() if n != "3x3")
    assert [v.exact for v in VARIANTS.values()] == [True, True, True, False, True]
    three = VARIANTS["3x3"]
    assert three.answer_ms(three.replay(()), 8, "minimax") > 10 < three.answer_ms(three.replay((0, 1)), 8, "minimax")
    assert three.answer_ms(three.replay((0, 1, 2)), 8, "minimax") <= 1
    assert (
        three.answer_ms(three.replay(()), 8, "alpha-beta") <= 1 and three.answer_ms(three.replay(()), 3, "minimax") <= 1
    )
    slow = [v for n, v in VARIANTS.items() if n not in ("3x3", "connect-four")]
    assert all(v.answer_ms(v.replay(()), 8, "alpha-beta") == float("inf") for v in slow)
    four = VARIANTS["connect-four"]  # level 8 reads its opening book at once; level 7 searches for at most 300 ms
    empty = four.replay(())
    assert four.answer_ms(empty, 8, "alpha-beta") <= 5 and four.answer_ms(empty, 7, "alpha-beta") <= 300


def test_marks_lines_and_small_boards_are_answered_by_the_game() -> None:
    three, four, ultimate = VARIANTS["3x3"], VARIANTS["4x4"], VARIANTS["ultimate"]
    won = three.replay((0, 3, 1, 4, 2))
    assert three.mark(won, 0) is Mark.X and three.mark(won, 3) is Mark.O and three.mark(won, 8) is None
    assert three.winning_line(won) == {0, 1, 2} and four.winning_line(four.replay((0,))) == frozenset()
    assert four.mark(four.replay((5, 15)), 15) is Mark.O
    sent = ultimate.replay((40,))  # the centre of the centre board: O must play in the centre board
    assert (
        ultimate.forced_block(sent) == 4
        and ultimate.open_blocks(sent) == (4,)
        and ultimate.block_result(sent, 4) is None
    )
    assert three.forced_block(won) is None and three.open_blocks(won) == () and three.value(won, Mark.X) is not None
    assert four.value(four.replay(()), Mark.X) is None  # no microsecond solver: nothing to prove a board with


def test_a_game_registers_once_by_name_and_code() -> None:
    with pytest.raises(ValueError, match="already"):
        register(ThreeByThree())
    assert register(VARIANTS["3x3"]) is VARIANTS["3x3"]  # the same object again changes nothing


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
    assert [v.hint_from() for v in VARIANTS.values()] == [0, 0, 4, 0, 0]
    with pytest.raises(ValueError, match="4 marks"):
        VARIANTS["5x5"].hint((12, 0, 6))
    assert len(VARIANTS["5x5"].hint((12, 0, 6, 18)).moves) == 21
    assert VARIANTS["3x3"].hint((4,)).minimax_states is not None


def test_every_variant_reviews_its_games_with_the_one_review_type() -> None:
    assert VARIANTS["3x3"].review((4, 0, 8)) == review((4, 0, 8))
    assert [row.ply for row in VARIANTS["4x4"].review((5, 0, 6))] == [1, 2, 3]
    assert VARIANTS["ultimate"].review_budget_ms == 100.0 and VARIANTS["3x3"].review_budget_ms is None


OPENINGS = {
    "5x5": (12, 0, 6, 18),
    # Connect Four: columns 4, 3 and 5 filled in turn (16 discs, where the solver answers at once); X wins in column 2
    "connect-four": (38, 31, 24, 17, 10, 3, 37, 30, 23, 16, 9, 2, 39, 32, 25, 18),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variants_player_returns_the_one_move_record_with_its_mover(name: str) -> None:
    v = VARIANTS[name]
    state = v.replay(OPENINGS.get(name, (0,)))
    chosen = v.play(state, budget_ms=20.0, rng=random.Random(2))
    assert chosen.mark is v.game.player(state) and chosen.elapsed_ms >= 0
    assert chosen.states > 0 or (chosen.value is not None and chosen.value.plies == 1)  # a win in one: nothing searched
    assert chosen.cell in v.game.actions(state) and chosen.book == (chosen.source == "book")
    assert chosen.value is not None if v.exact else chosen.expected is not None  # exact, or an estimate's score


def test_only_3x3_gives_exact_values_fast_enough_to_check_a_board_and_they_are_the_solver_s() -> None:
    valued = [name for name, rules in VARIANTS.items() if rules.value(rules.replay(()), Mark.X) is not None]
    assert valued == ["3x3"]
    three = variant("3x3")
    after_centre = three.replay([4])
    assert getattr(three.value(after_centre, Mark.O), "result", None) == "draw"
    assert getattr(three.value(three.replay([0, 3, 1, 4]), Mark.X), "result", None) == "win"


@pytest.mark.parametrize("name", list(VARIANTS))
@given(text=st.text())
def test_any_typed_text_is_a_cell_of_the_board_or_the_engines_error(name: str, text: str) -> None:
    kind = VARIANTS[name]
    try:
        cell = kind.parse_cell(text)
    except CellOutOfRangeError:
        return
    assert 0 <= cell < kind.cells


@pytest.mark.parametrize("name", list(VARIANTS))
def test_superscripts_circled_and_huge_numbers_are_refused_as_cells(name: str) -> None:
    for text in ("²", "①", "b²", "1" * 5000):
        with pytest.raises(CellOutOfRangeError):
            VARIANTS[name].parse_cell(text)


def test_every_game_says_what_may_be_typed_the_boards_own_names_first() -> None:
    ranges = {name: kind.typed_ranges() for name, kind in VARIANTS.items()}
    assert ranges["3x3"] == ("1-9", "a1-c3") and ranges["4x4"] == ("a1-d4", "1-16")
    assert ranges["ultimate"] == ("a1-i9", "1-81") and ranges["connect-four"] == ("1-7", "a-g")
    for name, kind in VARIANTS.items():
        for typed in ranges[name]:
            first, last = typed.split("-")
            assert kind.parse_cell(first) == 0, name
            assert kind.parse_cell(last) == (kind.width if kind.columns(kind.game.initial_state()) else kind.cells) - 1


def test_the_defaults_of_the_declared_contracts() -> None:
    four, three = VARIANTS["4x4"], VARIANTS["3x3"]
    won = four.replay((0, 4, 1, 5, 2, 6, 3))  # X takes the top row
    assert four.deciding_line(won) == (frozenset({0, 1, 2, 3}), Mark.X)
    assert four.deciding_line(four.replay(())) == (frozenset(), None)
    assert four.search_name("alpha-beta") == "alpha-beta" and three.search_name("minimax", 3) == "minimax"
    assert not four.counts_reproducible("alpha-beta") and three.counts_reproducible("alpha-beta")
