"""VCT: a win by threats is found only where every defender reply loses (checked against the rules-only oracle)."""

from __future__ import annotations

import random

import pytest

from engine.gomoku.play import LEVELS, choose, new_board
from engine.gomoku.rules import CELLS, GOMOKU, GomokuState, bit
from engine.gomoku.threats import vct
from tests.engine.gomoku.positions import clustered, has_vcf, put, side_to_move


def every_reply_loses(state: GomokuState, side: int, cell: int, vcf: int) -> bool:
    """After ``side`` plays ``cell``, every reply of the defender leaves ``side`` a VCF of ``vcf`` moves (oracle)."""
    after = put(state, cell, side)
    taken = after.x | after.o
    return all(has_vcf(put(after, reply, 1 - side), side, vcf) for reply in range(CELLS) if not taken & bit(reply))


@pytest.mark.parametrize("native", [True, False])
def test_a_double_three_is_a_vct_and_every_reply_loses(native: bool) -> None:
    # X: h8 i8 (row 8) and h9 i10 (the diagonal g8-h9-i10): g8 makes two open threes at once.
    state = GOMOKU.play("h8 a1 i8 a3 h9 o1 i10 o3")
    assert not has_vcf(state, 0, 4)
    board = new_board(state, native=native)
    found = vct(board, 0, 1, 3)
    assert found is not None and board.count > 0
    cell, moves = found
    assert moves == 3 and every_reply_loses(state, 0, cell, 2)


def test_a_lone_open_two_has_no_vct() -> None:
    state = GOMOKU.play("h8 a1 i8 o1")
    for native in (True, False):
        assert vct(new_board(state, native=native), 0, 1, 4) is None


def test_vct_claims_on_random_positions_hold_against_every_reply() -> None:
    rng = random.Random(11)
    claims = 0
    for _ in range(40):
        state = clustered(rng, rng.randrange(10, 40))
        side = side_to_move(state)
        board = new_board(state)
        if board.five_cells(1 - side) or board.vcf(side, 3) is not None:
            continue
        found = vct(board, side, 1, 3)
        if found is not None:
            claims += 1
            assert every_reply_loses(state, side, found[0], 3)
    assert claims >= 2


def test_level_8_plays_a_vct_and_says_so() -> None:
    state = GOMOKU.play("h8 a1 i8 a3 h9 o1 i10 o3")
    choice = choose(state, LEVELS[8], random.Random(0))
    assert choice.forced == "VCT" and choice.describe() == "wins by VCT in 3"
    assert every_reply_loses(state, 0, choice.cell, 2)
