"""A finished 4x4, 5x5 or ultimate game move by move (/ttt review), by coordinate.

4x4 and 5x5 get exact labels as on 3x3 (:class:`~bot.games.hints.ExactReviewedMove`); ultimate gets labels from a
fixed-budget search, marked as the engine's estimate, with each labelled move's loss in percentage points of expected
score (:class:`~bot.games.hints.EstimatedReviewedMove`; thresholds in /ttt help). A review longer than one message
keeps the labelled moves (as many as fit) and says how many best moves it left out, so it always fits Discord's
2,000 characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.hints import REVIEW_BUDGET_MS, EstimatedReviewedMove, ExactReviewedMove
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import FinishedGame
from bot.text.common import Who
from bot.text.review import REVIEW_LABELS, exact_line, mistakes_line, review_header, states_text
from engine import Mark
from engine.coordinates import cell_name

__all__ = ["MAX_CHARS", "variant_review_text"]

MAX_CHARS = 2000
_WIDTH = {"4x4": 4, "5x5": 5, "ultimate": 9}


def _exact_line(move: ExactReviewedMove, width: int, tr: Lang) -> str:
    best = [cell_name(c, width) for c in move.best]
    line = exact_line(move.ply, move.mark, cell_name(move.cell, width), move.label, (move.before, move.after), best, tr)
    return line + " · " + states_text(move.states, tr)


def _estimated_line(move: EstimatedReviewedMove, tr: Lang) -> str:
    cell = cell_name(move.cell, 9)
    line = f"`{move.ply}.` {move.mark.value} {cell}"
    if move.label is not None and move.label in REVIEW_LABELS:
        line += " · " + tr(REVIEW_LABELS[move.label])
        line += " · " + tr(N_("{loss} points below {best}"), loss=tr.number(move.loss), best=cell_name(move.best, 9))
    return line + " · " + tr(N_("depth {depth}, {states} states"), depth=move.depth, states=tr.number(move.states))


def variant_review_text(
    game: FinishedGame,
    moves: Sequence[ExactReviewedMove] | Sequence[EstimatedReviewedMove],
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
        if isinstance(move, ExactReviewedMove):
            lines.append((move.label != "best", _exact_line(move, width, tr)))
        else:
            lines.append((move.label is not None, _estimated_line(move, tr)))
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


def _side(moves: Sequence[ExactReviewedMove] | Sequence[EstimatedReviewedMove], mark: Mark, tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4)``."""
    blunders = [m.ply for m in moves if m.mark is mark and m.label == "blunder"]
    mistakes = [m.ply for m in moves if m.mark is mark and m.label == "mistake"]
    return mistakes_line(mark, blunders, mistakes, tr)
