"""engine.tictactoe.bitboard's tables, checked against definitions written here from the list of lines."""

from __future__ import annotations

from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import State

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def cells(mask: int) -> set[int]:
    return {c for c in range(9) if mask >> c & 1}


def test_threats_are_the_cells_that_complete_a_line() -> None:
    for mask in range(512):
        held = cells(mask)
        expected = {c for line in LINES for c in line if c not in held and set(line) - {c} <= held}
        assert cells(bb.THREATS[mask]) == expected, bin(mask)


def test_threats_of_known_masks() -> None:
    assert cells(bb.THREATS[0b000_000_011]) == {2}  # 0 and 1 need 2
    assert cells(bb.THREATS[0b100_000_001]) == {4}  # corners 0 and 8 need the centre
    assert cells(bb.THREATS[0b000_001_011]) == {2, 6}  # 0, 1, 3: a double threat on 2 and 6
    assert bb.THREATS[0] == 0


def test_canonical_key_is_shared_by_exactly_the_symmetric_images(non_terminal: list[State]) -> None:
    classes: dict[int, set[tuple[int, int]]] = {}
    for state in non_terminal:
        key = bb.canonical_key(state.x, state.o)
        images = {(masks[state.x], masks[state.o]) for masks in bb.SYMMETRY_MASKS}
        assert {bb.canonical_key(x, o) for x, o in images} == {key}
        assert key in {x << 9 | o for x, o in images}
        classes.setdefault(key, set()).add((state.x, state.o))
    for key, members in classes.items():
        x, o = next(iter(members))
        assert members == {(m[x], m[o]) for m in bb.SYMMETRY_MASKS} & {(s.x, s.o) for s in non_terminal}, key
    assert len(classes) == 627  # non-terminal positions up to symmetry (765 with the finished ones)
