"""A finished game move by move: each ply's label (engine.review) and value, and a summary per side."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records import FinishedGame
from bot.text.common import MARK_EMOJI, Who, discord_who
from engine import GameValue, Mark, PlyReview, SideSummary, summary

__all__ = ["REVIEW_LABELS", "VALUE_NAMES", "review_text"]

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
    who = who or (lambda user_id: discord_who(user_id, tr))
    x, o = who(game.x_user_id), who(game.o_user_id)
    lines = [
        tr(
            N_("**Review of game `{game_id}`** · {x} vs {o}"),
            game_id=game.game_id,
            x=f"{MARK_EMOJI[Mark.X]} {x}",
            o=f"{MARK_EMOJI[Mark.O]} {o}",
        )
    ]
    for ply in plies:
        if ply.label == "best":
            line = tr(
                N_("`{ply}.` {mark} {cell} · best · {value}"),
                ply=ply.ply,
                mark=ply.mover.value,
                cell=ply.cell + 1,
                value=_value(ply.before, tr),
            )
        else:
            line = tr(
                N_("`{ply}.` {mark} {cell} · {label} · {before} → {after}"),
                ply=ply.ply,
                mark=ply.mover.value,
                cell=ply.cell + 1,
                label=tr(REVIEW_LABELS[ply.label]),
                before=_value(ply.before, tr),
                after=_value(ply.after, tr),
            )
        if ply.label != "best":
            line += " · " + tr(N_("best: {cells}"), cells=", ".join(str(c + 1) for c in ply.best_moves))
        line += " · " + tr.plural("{states} state", "{states} states", ply.states, states=tr.number(ply.states))
        lines.append(line)
    if not plies:
        lines.append(tr(N_("No moves were played.")))
    lines.append(" · ".join(_side_summary(side, tr) for side in summary(plies).values()))
    return "\n".join(lines)


def _side_summary(side: SideSummary, tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4)``: the side's blunders and mistakes, with their ply numbers."""
    parts = []
    if side.blunders:
        count = len(side.blunders)
        moves = tr.plural("move {numbers}", "moves {numbers}", count, numbers=", ".join(map(str, side.blunders)))
        parts.append(
            tr.plural("{count} blunder ({moves})", "{count} blunders ({moves})", count, count=count, moves=moves)
        )
    if side.mistakes:
        count = len(side.mistakes)
        moves = tr.plural("move {numbers}", "moves {numbers}", count, numbers=", ".join(map(str, side.mistakes)))
        parts.append(
            tr.plural("{count} mistake ({moves})", "{count} mistakes ({moves})", count, count=count, moves=moves)
        )
    return f"{side.mark.value}: " + (", ".join(parts) if parts else tr(N_("0 mistakes")))
