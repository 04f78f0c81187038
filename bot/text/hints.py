"""A refusal from the game service in words, and a hint: every free cell's value with best play (an exact one), or
the engine's best moves with their expected scores (an estimate)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.game import Game
from bot.games.hints import EstimatedHint, ExactHint
from bot.games.service import Player
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import MARK_EMOJI, OUTCOME_NAMES, Who, discord_who, format_elapsed, proven_text
from bot.text.grid import DEFAULT_VARIANT, cell_label, small_board_name
from engine import Analysis, Mark

__all__ = [
    "OUTCOME_NAMES",
    "estimated_hint_text",
    "exact_hint_text",
    "hint_text",
    "refusal_text",
    "variant_hint_text",
]

EXACT_TITLE = N_("**Hint for {mark}** (best play from both sides):")


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


def _title(template: str, mark: Mark, tr: Lang) -> str:
    return tr(template, mark=f"{MARK_EMOJI[mark]} {mark.value}")


def _exact_line(cell: str, outcome: str, plies: int, best: bool, tr: Lang) -> str:
    """```b3` win in 3 plies``, starred when it is among the best."""
    line = tr.plural(
        "`{cell}` {outcome} in {plies} ply",
        "`{cell}` {outcome} in {plies} plies",
        plies,
        cell=cell,
        outcome=tr(OUTCOME_NAMES[outcome]),
        plies=plies,
    )
    return line + (" ★" if best else "")


def hint_text(analysis: Analysis, tr: Lang | None = None, variant: str = DEFAULT_VARIANT) -> str:
    """Every free cell's outcome with best play, and what alpha-beta and plain minimax evaluate from here
    (``analysis`` of a position of ``variant``, whose board names its cells)."""
    tr = tr or lang(None)
    best = {m.cell for m in analysis.best}
    lines = [_title(EXACT_TITLE, analysis.to_move, tr)]
    for move in analysis.moves:
        cell = cell_label(variant, move.cell)
        lines.append(_exact_line(cell, move.outcome, move.plies, move.cell in best, tr))
    lines.append(
        tr(
            N_("From here alpha-beta evaluates {alpha_beta} states; plain minimax evaluates {minimax}."),
            alpha_beta=tr.number(analysis.alpha_beta_states),
            minimax=tr.number(analysis.minimax_states),
        )
    )
    return "\n".join(lines)


def exact_hint_text(game: Game, hint: ExactHint, tr: Lang | None = None) -> str:
    """Every free cell's exact value with best play, best cells starred, and the solver's count."""
    tr = tr or lang(None)
    lines = [_title(EXACT_TITLE, game.to_move, tr)]
    rank = {"win": 2, "draw": 1, "loss": 0}

    def key(value: Any) -> tuple[int, int]:
        return rank[value.result], -value.plies if value.result == "win" else value.plies

    best = max((key(value) for _, value in hint.values), default=None)
    for cell, value in hint.values:
        name = cell_label(game.variant, cell)
        lines.append(_exact_line(name, value.result, value.plies, key(value) == best, tr))
    lines.append(
        tr(
            N_("The solver evaluated {states} states in {elapsed}."),
            states=tr.number(hint.states),
            elapsed=format_elapsed(hint.elapsed_ms / 1000.0, tr),
        )
    )
    return "\n".join(lines)


def estimated_hint_text(game: Game, hint: EstimatedHint, tr: Lang | None = None) -> str:
    """The search's best moves with the expected score of the player to move (or what the search proved), the
    depth and the states, marked as an estimate."""
    tr = tr or lang(None)
    lines = [_title(N_("**Hint for {mark}** (the engine's estimate, not a proof):"), game.to_move, tr)]
    for move in hint.best:
        if move.proven is None:
            worth = tr(N_("expected score {percent}%"), percent=round(100 * move.expected))
        else:
            worth = proven_text(move.proven, move.plies, tr)
        lines.append(f"`{cell_label(game.variant, move.cell)}` {worth}")
    lines.append(
        tr(
            N_("MCTS-Solver reached {depth} plies deep and evaluated {states} states in {elapsed}."),
            depth=hint.depth,
            states=tr.number(hint.states),
            elapsed=format_elapsed(hint.elapsed_ms / 1000.0, tr),
        )
    )
    return "\n".join(lines)


def variant_hint_text(game: Game, hint: ExactHint | EstimatedHint, tr: Lang | None = None) -> str:
    """A hint of the game service in words: exact, or the engine's estimate."""
    if isinstance(hint, ExactHint):
        return exact_hint_text(game, hint, tr)
    return estimated_hint_text(game, hint, tr)
