"""The 5x5 opening book: it covers every position the bot can face before search takes over, and its moves hold."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.mnk.book import Book, book_for, book_path, canonical
from engine.mnk.book_build import build, main, prove
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.solver import move_value, new_kernel
from engine.protocol import Mark


def faced_positions(game: TicTacToe, book: Book, plies: int) -> list[MnkState]:
    """Every position with fewer than ``plies`` marks where the bot is to move, playing the book's moves."""
    faced: list[MnkState] = []

    def walk(state: MnkState, bot: Mark) -> None:
        if state.marks >= plies or game.terminal(state):
            return
        if game.player(state) is bot:
            faced.append(state)
            entry = book.lookup(state)
            assert entry is not None, f"{game.format_board(state)} is not in the book"
            walk(game.result(state, entry[0]), bot)
        else:
            for cell in game.actions(state):
                walk(game.result(state, cell), bot)

    walk(game.initial_state(), Mark.X)
    walk(game.initial_state(), Mark.O)
    return faced


def shipped_plies(book: Book) -> int:
    """The book's depth, read from its provenance header (``--plies N``)."""
    line = next(text for text in book.header if "--plies" in text)
    return int(line.split("--plies")[1].split(")")[0])


def test_the_5x5_book_covers_every_position_the_bot_can_face_as_x_and_as_o() -> None:
    book = book_for(TIC_TAC_TOE_5X5)
    assert book is not None and shipped_plies(book) == 6
    faced = faced_positions(TIC_TAC_TOE_5X5, book, 6)
    assert len(faced) > 10_000  # every opponent reply, unfolded (the book stores them by symmetry class)
    assert {canonical(TIC_TAC_TOE_5X5, state)[:2] for state in faced} == set(book.entries)
    assert book_path(TIC_TAC_TOE_5X5).stat().st_size < 5_000_000


def test_book_moves_are_legal_and_keep_the_stored_score_on_a_sample() -> None:
    game = TIC_TAC_TOE_5X5
    book = book_for(game)
    assert book is not None
    rng = random.Random(7)
    late = [key for key in book.entries if (key[0] | key[1]).bit_count() >= 4]
    kernel = new_kernel(game)
    for x, o in rng.sample(late, 8):
        move, score, states = book.entries[(x, o)]
        state = MnkState(x, o)
        me, opp = (x, o) if game.player(state) is Mark.X else (o, x)
        assert not (x | o) >> move & 1 and states > 0
        assert move_value(kernel, game, me, opp, move) == score
        assert prove(kernel, game, me, opp)[1] == score


def test_a_rebuilt_4x4_book_covers_its_plies_and_survives_a_round_trip(tmp_path: Path) -> None:
    game = TIC_TAC_TOE_4X4
    lines: list[str] = []
    book = build(game, 3, log=lines.append)
    assert len(lines) == len(book) > 3
    assert faced_positions(game, book, 3)
    path = tmp_path / "book.txt"
    book.save(path)
    again = Book.load(game, path)
    assert again.entries == book.entries and again.header == book.header
    assert all(score == 0 for _, score, _ in book.entries.values())  # 4x4 is a draw from every early position


def test_the_command_writes_a_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "4x4.txt"
    assert main(["--game", "4x4", "--plies", "2", "--out", str(out)]) == 0
    assert Book.load(TIC_TAC_TOE_4X4, out).entries and "positions" in capsys.readouterr().err


def test_a_malformed_book_line_is_reported_with_its_place(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("# header\n0 0 5\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.txt:2: expected 'x o move score states'"):
        Book.load(TIC_TAC_TOE_4X4, path)
