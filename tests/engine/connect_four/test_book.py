"""The Connect Four opening book: it holds exactly the positions the bot can face up to its last ply, its scores are
our own solver's on a sample, BitBully's scale converts to ours, and the file reads back what was written."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import bitbully
import pytest

from engine.connect_four.book import FULL, PLIES, Book, canonical, key_of, mirror, shipped
from engine.connect_four.book_build import from_pons, scores_of
from engine.connect_four.rules import CONNECT_FOUR, STRIDE, WIDTH, ConnectFourState
from engine.connect_four.solver import new_kernel, solve


@pytest.fixture(scope="module")
def book() -> Book:
    found = shipped()
    assert found is not None, "the shipped book is missing: make books"
    return found


def mirrored(state: ConnectFourState) -> ConnectFourState:
    return ConnectFourState(mirror(state.x), mirror(state.o))


def from_key(key: int) -> ConnectFourState:
    """The position of a book key (a column of ``h`` discs holds ``mover + 2**h - 1``)."""
    mover = mask = 0
    for column in range(WIDTH):
        bits = key >> (column * STRIDE) & 0x7F
        height = (bits + 1).bit_length() - 1
        mask |= ((1 << height) - 1) << (column * STRIDE)
        mover |= (bits - (1 << height) + 1) << (column * STRIDE)
    if mask.bit_count() % 2 == 0:
        return ConnectFourState(mover, mover ^ mask)
    return ConnectFourState(mover ^ mask, mover)


def test_the_book_holds_exactly_the_positions_the_bot_can_face(book: Book) -> None:
    """Walk every game the bot plays from the book (as X and as O) against every reply up to the book's last ply: each
    position the bot faces is in the book with every legal column, and the book holds nothing else."""
    faced: set[int] = set()
    seen: set[int] = set()

    def walk(state: ConnectFourState, bot_to_move: bool) -> None:
        if CONNECT_FOUR.terminal(state) or state.discs > PLIES or canonical(state)[0] in seen:
            return
        seen.add(canonical(state)[0])
        if bot_to_move:
            scores = book.column_scores(state)
            assert scores is not None, CONNECT_FOUR.format_board(state)
            assert sorted(scores) == list(CONNECT_FOUR.actions(state))
            faced.add(canonical(state)[0])
            found = book.move(state)
            assert found is not None and scores[found[0]] == max(scores.values()) == found[1]
            walk(CONNECT_FOUR.result(state, found[0]), False)
        else:
            for column in CONNECT_FOUR.actions(state):
                walk(CONNECT_FOUR.result(state, column), True)

    start = CONNECT_FOUR.initial_state()
    walk(start, True)
    seen.clear()
    walk(start, False)
    assert faced == set(book.keys)
    assert len(book) == len(faced) > 10_000


def test_a_position_and_its_mirror_image_read_the_same_scores_mirrored(book: Book) -> None:
    state = CONNECT_FOUR.play([2, 3, 0])
    scores, image = book.column_scores(state), book.column_scores(mirrored(state))
    assert scores is not None and image is not None
    assert {WIDTH - 1 - column: score for column, score in scores.items()} == image
    assert key_of(mirrored(state)) == mirror(key_of(state))


def test_the_book_move_keeps_the_value_from_the_empty_board(book: Book) -> None:
    """The centre wins for X in 41 plies (Allis 1988; Tromp): score 43 - 41 = 2."""
    assert book.move(CONNECT_FOUR.initial_state()) == (3, 2)
    assert book.column_scores(CONNECT_FOUR.initial_state()) == {0: -3, 1: -1, 2: 0, 3: 2, 4: 0, 5: -1, 6: -3}


def test_positions_past_the_book_or_off_it_are_not_answered(book: Book) -> None:
    assert book.column_scores(CONNECT_FOUR.play([0, 0, 0, 0, 6, 6])) is None  # the bot never plays 0 first
    assert book.move(CONNECT_FOUR.play([3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4, 1])) is None  # 13 discs


def test_a_sample_of_late_entries_agrees_with_our_solver(book: Book) -> None:
    """Twelve entries of 9-12 discs (seeded; our solver takes about 0.4 s each): every column's score."""
    rng = random.Random(37)
    by_discs: dict[int, list[int]] = {}
    for key in book.keys:
        by_discs.setdefault(from_key(key).discs, []).append(key)
    kernel = new_kernel()
    for discs in (9, 10, 11, 12):
        for key in rng.sample(by_discs[discs], 3):
            state = from_key(key)
            assert key_of(state) == key
            ours = {}
            for column in CONNECT_FOUR.actions(state):
                child = CONNECT_FOUR.result(state, column)
                ours[column] = 42 - discs if CONNECT_FOUR.winner(child) else -solve(child, kernel).score
            assert book.column_scores(state) == ours, CONNECT_FOUR.format_board(state)


def test_bitbully_scores_convert_to_ours_at_every_distance() -> None:
    """Random positions of 20-34 discs (seeded) until wins, losses and draws were seen for both sides to move:
    BitBully's every column, converted, equals our solver's."""
    rng = random.Random(4)
    solver = bitbully.BitBully()
    kernel = new_kernel()
    every = {(parity, sign) for parity in (0, 1) for sign in (-1, 0, 1)}
    seen: set[tuple[int, int]] = set()
    distances: set[int] = set()
    for _ in range(300):
        if seen == every and len(distances) >= 10:
            break
        moves: list[int] = []
        state = CONNECT_FOUR.initial_state()
        target = rng.randint(20, 34)
        while state.discs < target:
            column = rng.choice(CONNECT_FOUR.actions(state))
            child = CONNECT_FOUR.result(state, column)
            if CONNECT_FOUR.terminal(child):
                break
            moves.append(column)
            state = child
        theirs = scores_of(solver, moves, state.discs)
        for column in range(WIDTH):
            if column not in CONNECT_FOUR.actions(state):
                assert theirs[column] == FULL
                continue
            child = CONNECT_FOUR.result(state, column)
            ours = 42 - state.discs if CONNECT_FOUR.winner(child) else -solve(child, kernel).score
            assert theirs[column] == ours, (moves, column)
            seen.add((state.discs % 2, (ours > 0) - (ours < 0)))
            distances.add(43 - abs(ours) - state.discs if ours else 0)
    assert seen == every and len(distances) >= 10


def test_pons_scores_convert_by_the_parity_of_the_discs() -> None:
    """X to move (even discs) wins on an odd disc count: win at disc 7 from 6 discs is Pons 18, ours 43 - 7 = 36;
    O to move wins on an even count: at disc 8 from 7 discs, Pons 18, ours 35. A loss is the opponent's win: X to move
    loses to O's disc 8 (Pons -18, ours -35); O to move to X's disc 9 (Pons -17, ours -34)."""
    assert from_pons(18, 6) == 36 and from_pons(18, 7) == 35
    assert from_pons(-18, 6) == -35 and from_pons(-17, 7) == -34
    assert from_pons(0, 12) == 0


def test_a_book_file_reads_back_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "book.bin"
    keys = array("Q", [5, 9, 1 << 48])
    scores = bytes(s & 0xFF for s in [1, -2, 3, -128, 0, 41, -42] * 3)
    Book(keys, scores, ["line one", "line two"]).save(path)
    loaded = Book.load(path)
    assert list(loaded.keys) == list(keys) and loaded.scores == scores and loaded.header == ["line one", "line two"]
    assert loaded.entry(9) == (1, -2, 3, -128, 0, 41, -42) and loaded.entry(7) is None
    path.write_bytes(b"not a book")
    with pytest.raises(ValueError, match="not a Connect Four book"):
        Book.load(path)
