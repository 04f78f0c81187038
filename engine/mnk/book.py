"""Opening books for m,n,k games: the solver's proven move for every early position the bot can face.

A book holds, for positions with fewer than ``plies`` marks where the bot is to move, one move that keeps
the exact value, that value, and the states (nodes) the solver visited to prove it. It covers every
position the bot can meet as X and as O: the bot's own moves are the book's, the opponent's are every legal
reply. Positions are stored once per symmetry class.

**File format** (``engine/mnk/books/<h>x<v>k<k>.txt``, text): ``#`` lines are the provenance (the command and
the build's time and totals); then one line per position, ``x o move score states``: ``x`` and ``o`` are
the hexadecimal masks of the position in its canonical orientation (the smallest ``x << cells | o`` over
the board's symmetries), ``move`` the 0-based cell in that orientation, ``score`` the depth-aware score for
the side to move (see :mod:`engine.mnk.solver`), ``states`` the nodes visited. ``make books`` rebuilds it
from scratch with ``python -m engine.mnk.book_build``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.mnk.rules import TIC_TAC_TOE_5X5, MnkState, TicTacToe

__all__ = ["BOOK_DIR", "Book", "book_for", "book_path", "canonical"]

BOOK_DIR = Path(__file__).resolve().parent / "books"
"""Where the shipped books live."""


def book_path(game: TicTacToe, directory: Path = BOOK_DIR) -> Path:
    """The book file of ``game``: ``<h>x<v>k<k>.txt`` in ``directory``."""
    return directory / f"{game.h}x{game.v}k{game.k}.txt"


def canonical(game: TicTacToe, state: MnkState) -> tuple[int, int, tuple[int, ...]]:
    """The position in its canonical orientation: ``(x, o, perm)`` with the symmetry ``perm`` that maps to it."""
    best: tuple[int, int, tuple[int, ...]] | None = None
    for perm in game.symmetries:
        x = sum(1 << perm[c] for c in range(game.cells) if state.x >> c & 1)
        o = sum(1 << perm[c] for c in range(game.cells) if state.o >> c & 1)
        if best is None or (x << game.cells | o) < (best[0] << game.cells | best[1]):
            best = (x, o, perm)
    assert best is not None  # the identity is always a symmetry
    return best


class Book:
    """An opening book in memory: ``entries[(x, o)] = (move, score, states)`` in canonical orientation.

    Attributes:
        game: the game it is for.
        entries: the positions, as described in the module docstring.
        header: the provenance lines of the file (without ``#``).
    """

    def __init__(self, game: TicTacToe, entries: dict[tuple[int, int], tuple[int, int, int]], header: list[str]):
        self.game = game
        self.entries = entries
        self.header = header

    def __len__(self) -> int:
        return len(self.entries)

    def lookup(self, state: MnkState) -> tuple[int, int, int] | None:
        """``(move, score, states)`` for ``state`` (move 0-based, in ``state``'s orientation), or ``None``."""
        x, o, perm = canonical(self.game, state)
        entry = self.entries.get((x, o))
        if entry is None:
            return None
        move, score, states = entry
        return perm.index(move), score, states

    @classmethod
    def load(cls, game: TicTacToe, path: Path) -> Book:
        """Read a book file.

        Raises:
            OSError: the file cannot be read.
            ValueError: a line is not ``x o move score states``.
        """
        entries: dict[tuple[int, int], tuple[int, int, int]] = {}
        header: list[str] = []
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("#"):
                header.append(line[1:].strip())
                continue
            fields = line.split()
            if len(fields) != 5:
                raise ValueError(f"{path}:{number}: expected 'x o move score states', got {line!r}")
            x, o = int(fields[0], 16), int(fields[1], 16)
            entries[(x, o)] = (int(fields[2]), int(fields[3]), int(fields[4]))
        return cls(game, entries, header)

    def save(self, path: Path) -> None:
        """Write the book (header, then one line per position, sorted by ply and key)."""
        lines = [f"# {text}" for text in self.header]
        for (x, o), (move, score, states) in sorted(
            self.entries.items(), key=lambda item: ((item[0][0] | item[0][1]).bit_count(), item[0])
        ):
            lines.append(f"{x:x} {o:x} {move} {score} {states}")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@cache
def _shipped(h: int, v: int, k: int) -> Book | None:
    game = TIC_TAC_TOE_5X5 if (h, v, k) == (5, 5, 4) else TicTacToe(h, v, k)
    path = book_path(game)
    return Book.load(game, path) if path.exists() else None


def book_for(game: TicTacToe) -> Book | None:
    """The book shipped for ``game`` (read once), or ``None`` when there is none."""
    book = _shipped(game.h, game.v, game.k)
    return None if book is None else Book(game, book.entries, book.header)
