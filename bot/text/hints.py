"""A refusal from the game service in words, and a hint: every free cell's outcome with best play."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.service import Player
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import MARK_EMOJI, Who, discord_who
from bot.text.variants import small_board_name
from engine.hints import Hint

__all__ = ["OUTCOME_NAMES", "hint_text", "refusal_text"]

OUTCOME_NAMES = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}


def refusal_text(key: str, values: Mapping[str, object], tr: Lang | None = None, who: Who | None = None) -> str:
    """A refusal from the game service in words: ``key`` translated, its values filled in (players as names,
    a missing link as "see above")."""
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    filled: dict[str, object] = {}
    for name, value in values.items():
        if isinstance(value, Player):
            filled[name] = who(value.user_id)
        elif name == "board" and isinstance(value, int):
            filled[name] = small_board_name(value)
        elif name == "states" and isinstance(value, int):
            filled[name] = tr.number(value)
        elif name == "link" and value is None:
            filled[name] = tr(N_("see above"))
        else:
            filled[name] = value
    return tr(key, **filled)


def hint_text(analysis: Hint, tr: Lang | None = None) -> str:
    """Every free cell's outcome with best play (an exact 3x3 hint), and what alpha-beta and plain minimax evaluate
    from here."""
    tr = tr or lang(None)
    best = {m.cell for m in analysis.best}
    mark = analysis.to_move
    lines = [tr(N_("**Hint for {mark}** (best play from both sides):"), mark=f"{MARK_EMOJI[mark]} {mark.value}")]
    for move in analysis.moves:
        if move.value is None:
            continue
        line = tr.plural(
            "`{cell}` {outcome} in {plies} ply",
            "`{cell}` {outcome} in {plies} plies",
            move.value.plies,
            cell=move.cell + 1,
            outcome=tr(OUTCOME_NAMES[move.value.result]),
            plies=move.value.plies,
        )
        lines.append(line + (" ★" if move.cell in best else ""))
    lines.append(
        tr(
            N_("From here alpha-beta evaluates {alpha_beta} states; plain minimax evaluates {minimax}."),
            alpha_beta=tr.number(analysis.alpha_beta_states or 0),
            minimax=tr.number(analysis.minimax_states or 0),
        )
    )
    return "\n".join(lines)
