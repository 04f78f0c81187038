"""A finished 4x4, 5x5 or ultimate game move by move (/ttt review), by coordinate.

4x4 and 5x5 get exact labels as on 3x3; ultimate gets labels from a fixed-budget search, marked as the engine's
estimate, with each labelled move's loss in percentage points of expected score (thresholds in /ttt help); both are
:class:`engine.review.PlyReview` rows. A review longer than one message
keeps the labelled moves (as many as fit) and says how many best moves it left out, so it always fits Discord's
2,000 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import FinishedGame
from bot.text.common import Who
from bot.text.review import REVIEW_LABELS, exact_line, mistakes_line, review_header, states_text
from engine import Mark
from engine.coordinates import cell_name
from engine.review import REVIEW_BUDGET_MS, PlyReview

__all__ = ["MAX_CHARS", "variant_review_text"]

MAX_CHARS = 2000
_WIDTH = {"4x4": 4, "5x5": 5, "ultimate": 9}


def _exact_line(move: PlyReview, width: int, tr: Lang) -> str:
    best = [cell_name(c, width) for c in move.best_moves]
    line = exact_line(move.ply, move.mover, cell_name(move.cell, width), move.label, move.values, best, tr)
    return line + " · " + states_text(move.states, tr)


def _estimated_line(move: PlyReview, tr: Lang) -> str:
    cell = cell_name(move.cell, 9)
    line = f"`{move.ply}.` {move.mover.value} {cell}"
    if move.label in REVIEW_LABELS:
        best = cell_name(move.best_moves[0], 9)
        line += " · " + tr(REVIEW_LABELS[move.label])
        line += " · " + tr(N_("{loss} points below {best}"), loss=tr.number(move.loss or 0), best=best)
    return line + " · " + tr(N_("depth {depth}, {states} states"), depth=move.depth, states=tr.number(move.states))


def variant_review_text(
    game: FinishedGame,
    moves: Sequence[PlyReview],
    tr: Lang | None = None,
    who: Who | None = None,
) -> str:
    """The review of ``game`` (4x4, 5x5 or ultimate) from the service's labelled ``moves``: a line per move, then
    each side's blunders and mistakes. At most :data:`MAX_CHARS` characters."""
    tr = tr or lang(None)
    width = _WIDTH[game.variant]
    header = [review_header(game, tr, who)]
    if game.variant == "ultimate":
        header.append(
            tr(N_("The engine's estimate: a search of {budget} ms per move."), budget=tr.number(int(REVIEW_BUDGET_MS)))
        )
    lines: list[tuple[bool, str]] = []
    for move in moves:
        line = _exact_line(move, width, tr) if move.exact else _estimated_line(move, tr)
        lines.append((move.label != "best", line))
    footer = [" · ".join(_side(moves, mark, tr) for mark in (Mark.X, Mark.O))]
    if not moves:
        footer.insert(0, tr(N_("No moves were played.")))
    text = "\n".join([*header, *(line for _, line in lines), *footer])
    if len(text) <= MAX_CHARS:
        return text
    kept = [line for labelled, line in lines if labelled]
    left_out = len(lines) - len(kept)
    note = tr.plural("({count} best move not shown)", "({count} best moves not shown)", left_out, count=left_out)
    while kept and len("\n".join([*header, *kept, note, *footer])) > MAX_CHARS:
        kept.pop()
    return "\n".join([*header, *kept, note, *footer])


def _side(moves: Sequence[PlyReview], mark: Mark, tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4)``."""
    blunders = [m.ply for m in moves if m.mover is mark and m.label == "blunder"]
    mistakes = [m.ply for m in moves if m.mover is mark and m.label == "mistake"]
    return mistakes_line(mark, blunders, mistakes, tr)
