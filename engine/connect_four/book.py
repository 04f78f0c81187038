"""The Connect Four opening book: every column's exact score in every early position the bot can face.

**What it holds.** Every position in which the bot is to move when it plays the book's move and the opponent plays
anything: the bot as X after 0, 2, ..., 12 plies and as O after 1, 3, ..., 11 plies (:data:`PLIES` = 12, the last
ply with an entry). For each, the exact score of every legal column, on the solver's scale
(:mod:`engine.connect_four.solver`: a win completed when the board holds ``n`` discs is worth ``43 - n`` to its
side). So the bot's move (:meth:`Book.move`) and a hint in the opponent's position (whose children are book
positions) are read at once; from ply 12 on the engine's own solver decides every position.

**The book's move** is a column of the best score (so it keeps the position's exact value, plies included), the
nearest the centre among several (:data:`engine.connect_four.solver.CENTRE_FIRST`), chosen in the position's
canonical orientation: the book decides which positions follow, so it must decide alike in both mirror images.

**Provenance.** The scores were computed when the book was built (``make books``:
:mod:`engine.connect_four.book_build`) by BitBully (Markus Thill, MIT licence; ``pip install bitbully``), a C++
Connect Four solver with a published database of the exact distance-to-end value of every 12-ply position
(bitbully-databases' "12-ply-dist", after John Tromp's 8-ply database), converted from its scale (Pons, "Solving
Connect 4", 2019: a win is 22 minus the winner's discs) to ours. Like a chess engine's endgame tablebase, it is
published data the engine reads, not its own search: the tests check a sample of its entries against the engine's
own solver (``tests/engine/connect_four/test_book.py``). BitBully is never imported at run time.

**File format** (``books/connect-four.bin``): the magic line ``ttt-connect-four-book 1``, then the provenance as
UTF-8 text up to an empty line, then a zlib stream of: the entry count (4 bytes, little-endian); the canonical keys
(8 bytes each, little-endian, sorted); then 7 signed bytes per entry, the scores of columns 0-6 in the canonical
orientation (:data:`FULL`: the column is full). A position's key is ``mover + every disc`` on the bitboard of
:mod:`engine.connect_four.rules` (Pons' key: unique, as the column heights and the side to move follow from the
discs), and its canonical key the smaller of its key and its mirror image's.
"""

from __future__ import annotations

import bisect
import struct
import sys
import zlib
from array import array
from functools import cache
from pathlib import Path

from engine.connect_four.rules import STRIDE, WIDTH, ConnectFourState
from engine.connect_four.solver import CENTRE_FIRST

__all__ = ["BOOK_PATH", "FULL", "MAGIC", "PLIES", "Book", "canonical", "key_of", "mirror", "shipped"]

BOOK_PATH = Path(__file__).resolve().parent / "books" / "connect-four.bin"
"""The shipped book."""
MAGIC = b"ttt-connect-four-book 1\n"
PLIES = 12
"""The most discs a book position holds (the bot as X; as O, 11)."""
FULL = -128
"""The stored score of a full column."""
_COLUMN = (1 << STRIDE) - 1


def key_of(state: ConnectFourState) -> int:
    """The position's key: the side to move's discs plus every disc (see the module's docstring)."""
    mask = state.x | state.o
    return (state.x if state.x.bit_count() == state.o.bit_count() else state.o) + mask


def mirror(key: int) -> int:
    """The key of the mirror image (column ``c`` becomes ``6 - c``); a key never carries from column to column."""
    mirrored = 0
    for column in range(WIDTH):
        mirrored |= ((key >> (column * STRIDE)) & _COLUMN) << ((WIDTH - 1 - column) * STRIDE)
    return mirrored


def canonical(state: ConnectFourState) -> tuple[int, bool]:
    """``(canonical key, mirrored)``: ``mirrored`` when the canonical orientation is the mirror image."""
    key = key_of(state)
    image = mirror(key)
    return (image, True) if image < key else (key, False)


def best_column(scores: tuple[int, ...]) -> int:
    """The book's move among ``scores`` (columns 0-6, :data:`FULL` for a full one): the best, nearest the centre."""
    top = max(scores)
    return next(column for column in CENTRE_FIRST if scores[column] == top)


class Book:
    """A loaded book: ``keys`` (canonical, sorted) and ``scores`` (7 per key, canonical orientation), ``header``
    the provenance lines."""

    def __init__(self, keys: array[int], scores: bytes, header: list[str]) -> None:
        if len(scores) != WIDTH * len(keys):
            raise ValueError(f"{len(keys)} keys but {len(scores)} scores: expected {WIDTH} per key")
        self.keys = keys
        self.scores = scores
        self.header = header

    def __len__(self) -> int:
        return len(self.keys)

    def entry(self, key: int) -> tuple[int, ...] | None:
        """The stored scores of canonical ``key`` (canonical orientation), or ``None``."""
        at = bisect.bisect_left(self.keys, key)
        if at == len(self.keys) or self.keys[at] != key:
            return None
        return struct.unpack_from("7b", self.scores, WIDTH * at)

    def column_scores(self, state: ConnectFourState) -> dict[int, int] | None:
        """Every legal column (0-6) → its exact score for the side to move in ``state``, or ``None`` when
        ``state`` is not in the book."""
        found = self._lookup(state)
        if found is None:
            return None
        stored, mirrored = found
        return {
            (WIDTH - 1 - column if mirrored else column): score for column, score in enumerate(stored) if score != FULL
        }

    def move(self, state: ConnectFourState) -> tuple[int, int] | None:
        """``(column, score)``: the book's move in ``state`` and its exact score (the position's), or ``None``."""
        found = self._lookup(state)
        if found is None:
            return None
        stored, mirrored = found
        column = best_column(stored)
        return (WIDTH - 1 - column if mirrored else column), stored[column]

    def _lookup(self, state: ConnectFourState) -> tuple[tuple[int, ...], bool] | None:
        """``(stored scores, mirrored)`` of ``state``'s entry, or ``None``."""
        if state.discs > PLIES:
            return None
        key, mirrored = canonical(state)
        stored = self.entry(key)
        return None if stored is None else (stored, mirrored)

    @classmethod
    def load(cls, path: Path) -> Book:
        """Read a book file.

        Raises:
            OSError: the file cannot be read.
            ValueError: it is not a book (wrong magic line, truncated or corrupt data).
        """
        data = path.read_bytes()
        if not data.startswith(MAGIC):
            raise ValueError(f"{path}: not a Connect Four book (no {MAGIC!r} line)")
        end = data.find(b"\n\n", len(MAGIC))
        if end < 0:
            raise ValueError(f"{path}: the provenance has no end")
        header = data[len(MAGIC) : end].decode("utf-8").splitlines()
        try:
            body = zlib.decompress(data[end + 2 :])
        except zlib.error as err:
            raise ValueError(f"{path}: corrupt data: {err}") from err
        (count,) = struct.unpack_from("<I", body)
        keys = array("Q", body[4 : 4 + 8 * count])
        if sys.byteorder == "big":
            keys.byteswap()
        return cls(keys, body[4 + 8 * count :], header)

    def save(self, path: Path) -> None:
        """Write the book (see the module's docstring)."""
        keys = array("Q", self.keys)
        if sys.byteorder == "big":
            keys.byteswap()
        body = struct.pack("<I", len(keys)) + keys.tobytes() + self.scores
        text = "\n".join(self.header).encode("utf-8")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(MAGIC + text + b"\n\n" + zlib.compress(body, 9))


@cache
def shipped() -> Book | None:
    """The shipped book, read on first use (tens of ms), or ``None`` when the file is missing."""
    return Book.load(BOOK_PATH) if BOOK_PATH.exists() else None
