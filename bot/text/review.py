"""A finished game move by move: each ply's label (engine.review) and value, and a summary per side."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import FinishedGame
from bot.text.common import MARK_EMOJI, Who, discord_who
from engine import GameValue, Mark, PlyReview, summary

__all__ = [
    "REVIEW_LABELS",
    "VALUE_NAMES",
    "exact_line",
    "mistakes_line",
    "review_header",
    "review_text",
    "states_text",
]

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


def review_text(game: FinishedGame, plies: Sequence[PlyReview], tr: Lang | None = None, who: Who | None = None) -> str:
    """A finished game move by move: each ply's cell, label and the mover's value before and after it (win or
    loss in N plies with best play, or draw), the best moves when the one played was not among them, and the
    states alpha-beta evaluated there; then one summary line per side. About 100 characters a ply, so a
    whole game fits Discord's 2,000.

    Labels (chess terms, :mod:`engine.review`, explained by /ttt help): best, slower (a win kept, but later),
    inaccuracy (a loss kept, but sooner), mistake (a win turned into a draw), blunder (a win or a draw turned
    into a loss).
    """
    tr = tr or lang(None)
    lines = [review_header(game, tr, who)]
    for ply in plies:
        best = [str(c + 1) for c in ply.best_moves]
        lines.append(exact_line(ply.ply, ply.mover, str(ply.cell + 1), ply.label, ply.values, best, tr))
        lines[-1] += " · " + states_text(ply.states, tr)
    if not plies:
        lines.append(tr(N_("No moves were played.")))
    lines.append(
        " · ".join(mistakes_line(side.mark, side.blunders, side.mistakes, tr) for side in summary(plies).values())
    )
    return "\n".join(lines)


def review_header(game: FinishedGame, tr: Lang, who: Who | None = None) -> str:
    """``**Review of game `g1`** · X @alice vs O @bob`` (``who`` names a user id; default: a Discord mention)."""
    who = who or (lambda user_id: discord_who(user_id, tr))
    return tr(
        N_("**Review of game `{game_id}`** · {x} vs {o}"),
        game_id=game.game_id,
        x=f"{MARK_EMOJI[Mark.X]} {who(game.x_user_id)}",
        o=f"{MARK_EMOJI[Mark.O]} {who(game.o_user_id)}",
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


def mistakes_line(mark: Mark, blunders: Sequence[int], mistakes: Sequence[int], tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4)``: a side's blunders and mistakes, by their ply numbers."""
    parts = []
    if blunders:
        count, moves = len(blunders), _plies_text(blunders, tr)
        parts.append(
            tr.plural("{count} blunder ({moves})", "{count} blunders ({moves})", count, count=count, moves=moves)
        )
    if mistakes:
        count, moves = len(mistakes), _plies_text(mistakes, tr)
        parts.append(
            tr.plural("{count} mistake ({moves})", "{count} mistakes ({moves})", count, count=count, moves=moves)
        )
    return f"{mark.value}: " + (", ".join(parts) if parts else tr(N_("0 mistakes")))


def _plies_text(plies: Sequence[int], tr: Lang) -> str:
    numbers = ", ".join(map(str, plies))
    return tr.plural("move {numbers}", "moves {numbers}", len(plies), numbers=numbers)
