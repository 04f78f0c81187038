"""A finished game move by move (/ttt review), by the cells its board names: each move's label and value, and a
summary per side.

Every move is an :class:`engine.review.PlyReview`. A game with exact values (3x3, 4x4, 5x5) gets chess labels as in
:mod:`engine.review`; ultimate gets labels from a fixed-budget search, marked as the engine's estimate, with each
labelled move's loss in percentage points of expected score (thresholds in /ttt help). A review longer than one
message keeps the labelled moves (as many as fit) and says how many best moves it left out, so it always fits
Discord's 2,000 characters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import FinishedGame
from bot.text.common import Who, discord_who
from bot.text.discs import piece_emoji
from engine import GameValue, Mark, PlyReview
from engine import variant as variant_named

__all__ = [
    "MAX_CHARS",
    "REVIEW_LABELS",
    "VALUE_NAMES",
    "exact_line",
    "mistakes_line",
    "review_header",
    "review_text",
    "states_text",
]

MAX_CHARS = 2000

REVIEW_LABELS = {
    "slower": N_("slower"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("**mistake**"),
    "blunder": N_("**blunder**"),
}


VALUE_NAMES = {
    "win": N_("win in {plies}"),
    "draw": N_("draw"),
    "loss": N_("loss in {plies}"),
}


def _value(value: GameValue, tr: Lang) -> str:
    return tr(VALUE_NAMES[value.result], plies=value.plies)


def review_text(game: FinishedGame, moves: Sequence[PlyReview], tr: Lang | None = None, who: Who | None = None) -> str:
    """``game`` move by move from its reviewed ``moves``: each move's cell and label, with an exact value the
    mover's value before and after it (win or loss in N plies with best play, or draw), the best moves when the one
    played was not among them, and the states searched there; then each side's moves of every label but best. At most
    :data:`MAX_CHARS` characters.

    Labels (chess terms, :mod:`engine.review`, explained by /ttt help): best, slower (a win kept, but later),
    inaccuracy (a loss kept, but sooner), mistake (a win turned into a draw), blunder (a win or a draw turned
    into a loss).
    """
    tr = tr or lang(None)
    header = [review_header(game, tr, who)]
    budget = variant_named(game.variant).review_budget_ms
    if budget is not None:
        header.append(tr(N_("The engine's estimate: a search of {budget} ms per move."), budget=tr.number(int(budget))))
    lines: list[tuple[bool, str]] = []
    for move in moves:
        line = _exact_line(game.variant, move, tr) if move.exact else _estimated_line(game.variant, move, tr)
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


def _exact_line(variant: str, move: PlyReview, tr: Lang) -> str:
    rules = variant_named(variant)
    names = [rules.cell_label(c) for c in move.best_moves]
    cell = rules.cell_label(move.cell)
    line = exact_line(move.ply, move.mover, cell, move.label, move.values, names, tr)
    return line + " · " + states_text(move.states, tr)


def _estimated_line(variant: str, move: PlyReview, tr: Lang) -> str:
    rules = variant_named(variant)
    line = f"`{move.ply}.` {move.mover.value} {rules.cell_label(move.cell)}"
    if move.label != "best":
        best = rules.cell_label(move.best_moves[0])
        line += " · " + tr(REVIEW_LABELS[move.label])
        line += " · " + tr(N_("{loss} points below {best}"), loss=tr.number(move.loss or 0), best=best)
    return line + " · " + tr(N_("depth {depth}, {states} states"), depth=move.depth, states=tr.number(move.states))


def _side(moves: Sequence[PlyReview], mark: Mark, tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4), 2 inaccuracies (moves 6, 8)``."""
    labelled = {label: [m.ply for m in moves if m.mover is mark and m.label == label] for label in _SUMMARY}
    return mistakes_line(mark, labelled, tr)


def review_header(game: FinishedGame, tr: Lang, who: Who | None = None) -> str:
    """``**Review of game `g1`** · ❌ @alice vs ⭕ @bob``, each side with its game's pieces (:func:`piece_emoji`:
    🔴 and 🟡 for discs; ``who`` names a user id; default: a Discord mention)."""
    who = who or (lambda user_id: discord_who(user_id, tr))
    emoji = piece_emoji(variant_named(game.variant))
    return tr(
        N_("**Review of game `{game_id}`** · {x} vs {o}"),
        game_id=game.game_id,
        x=f"{emoji[Mark.X]} {who(game.x_user_id)}",
        o=f"{emoji[Mark.O]} {who(game.o_user_id)}",
    )


def exact_line(
    ply: int, mark: Mark, cell: str, label: str, values: tuple[GameValue, GameValue], best: Sequence[str], tr: Lang
) -> str:
    """A move with its exact label: ``"`3.` X 5 · best · win in 3"``, or for any other label the mover's values
    ``(before, after)`` the move and the ``best`` cells (named as the board names them)."""
    before, after = values
    if label == "best":
        return tr(
            N_("`{ply}.` {mark} {cell} · best · {value}"), ply=ply, mark=mark.value, cell=cell, value=_value(before, tr)
        )
    line = tr(
        N_("`{ply}.` {mark} {cell} · {label} · {before} → {after}"),
        ply=ply,
        mark=mark.value,
        cell=cell,
        label=tr(REVIEW_LABELS[label]),
        before=_value(before, tr),
        after=_value(after, tr),
    )
    return line + " · " + tr(N_("best: {cells}"), cells=", ".join(best))


def states_text(states: int, tr: Lang) -> str:
    """``"7,641 states"``: the states a search evaluated."""
    return tr.plural("{states} state", "{states} states", states, states=tr.number(states))


_SUMMARY = ("blunder", "mistake", "inaccuracy", "slower")
"""Every label but best, worst first: the summary counts each."""


def mistakes_line(mark: Mark, labelled: Mapping[str, Sequence[int]], tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4), 2 inaccuracies (moves 6, 8)``: a side's moves of each label but
    best (``labelled``: label → the moves' ply numbers), worst first; "0 mistakes" only when every move was best."""
    parts = [_labelled_text(label, plies, tr) for label in _SUMMARY if (plies := labelled.get(label, ()))]
    return f"{mark.value}: " + (", ".join(parts) if parts else tr(N_("0 mistakes")))


def _labelled_text(label: str, plies: Sequence[int], tr: Lang) -> str:
    count, moves = len(plies), _plies_text(plies, tr)
    if label == "blunder":
        return tr.plural("{count} blunder ({moves})", "{count} blunders ({moves})", count, count=count, moves=moves)
    if label == "mistake":
        return tr.plural("{count} mistake ({moves})", "{count} mistakes ({moves})", count, count=count, moves=moves)
    if label == "inaccuracy":
        return tr.plural(
            "{count} inaccuracy ({moves})", "{count} inaccuracies ({moves})", count, count=count, moves=moves
        )
    return tr.plural("{count} slower win ({moves})", "{count} slower wins ({moves})", count, count=count, moves=moves)


def _plies_text(plies: Sequence[int], tr: Lang) -> str:
    numbers = ", ".join(map(str, plies))
    return tr.plural("move {numbers}", "moves {numbers}", len(plies), numbers=numbers)
