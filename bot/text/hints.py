"""A refusal from the game service in words, and a hint (:class:`engine.hints.Hint`, one type for every game): every
free cell's exact value with best play, or the engine's best moves with their expected scores (an estimate)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.match import Match
from bot.games.service import Player
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import OUTCOME_NAMES, Who, discord_who, escaped, format_elapsed, proven_text
from bot.text.discs import mark_emoji
from engine import GameValue, Hint, HintMove

__all__ = ["OUTCOME_NAMES", "hint_text", "refusal_text"]


def refusal_text(key: str, values: Mapping[str, object], tr: Lang | None = None, who: Who | None = None) -> str:
    """A refusal from the game service in words: ``key`` translated, its values filled in (players as names,
    a missing link as "see above", counts grouped, what someone typed escaped and shortened)."""
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    filled: dict[str, object] = {}
    for name, value in values.items():
        if isinstance(value, Player):
            filled[name] = who(value.user_id)
        elif name == "states" and isinstance(value, int):
            filled[name] = tr.number(value)
        elif name == "link" and value is None:
            filled[name] = tr(N_("see above"))
        elif name == "typed" and isinstance(value, str):
            filled[name] = escaped(value)
        else:
            filled[name] = value
    return tr(key, **filled)


def hint_text(game: Match, hint: Hint, tr: Lang | None = None) -> str:
    """``hint`` for the player to move in ``game``, cells named as its board names them. Exact: every free cell's
    value with best play, the best starred, then what alpha-beta and plain minimax evaluate from here (3x3) or what
    the solver evaluated (or that the opening book answered: nothing searched). An estimate: the search's best moves
    with the expected score of the player to move (or what the search proved), then its depth and states."""
    tr = tr or lang(None)
    rules = game.kind
    mark = f"{mark_emoji(game)[hint.to_move]} {hint.to_move.value}"
    if not hint.exact:
        lines = [tr(N_("**Hint for {mark}** (the engine's estimate, not a proof):"), mark=mark)]
        lines += [f"`{rules.cell_label(move.cell)}` {_worth(move, tr)}" for move in hint.moves]
        footer = N_("MCTS-Solver reached {depth} plies deep and evaluated {states} states in {elapsed}.")
        elapsed = format_elapsed(hint.elapsed_ms / 1000.0, tr)
        lines.append(tr(footer, depth=hint.depth, states=tr.number(hint.states), elapsed=elapsed))
        return "\n".join(lines)
    best = {move.cell for move in hint.best}
    lines = [tr(N_("**Hint for {mark}** (best play from both sides):"), mark=mark)]
    for move in hint.moves:
        if move.value is not None:
            lines.append(_exact_line(rules.cell_label(move.cell), move.value, move.cell in best, tr))
    if hint.alpha_beta_states is not None and hint.minimax_states is not None:
        lines.append(
            tr(
                N_("From here alpha-beta evaluates {alpha_beta} states; plain minimax evaluates {minimax}."),
                alpha_beta=tr.number(hint.alpha_beta_states),
                minimax=tr.number(hint.minimax_states),
            )
        )
    elif hint.states == 0:  # nothing searched: every value was read
        elapsed = format_elapsed(hint.elapsed_ms / 1000.0, tr)
        read = N_("Every value was read from the opening book in {elapsed}: nothing searched.")
        lines.append(tr(read, elapsed=elapsed))
    else:
        elapsed = format_elapsed(hint.elapsed_ms / 1000.0, tr)
        lines.append(
            tr(N_("The solver evaluated {states} states in {elapsed}."), states=tr.number(hint.states), elapsed=elapsed)
        )
    return "\n".join(lines)


def _exact_line(cell: str, value: GameValue, best: bool, tr: Lang) -> str:
    """```b3` win in 3 plies``, starred when it is among the best."""
    line = tr.plural(
        "`{cell}` {outcome} in {plies} ply",
        "`{cell}` {outcome} in {plies} plies",
        value.plies,
        cell=cell,
        outcome=tr(OUTCOME_NAMES[value.result]),
        plies=value.plies,
    )
    return line + (" ★" if best else "")


def _worth(move: HintMove, tr: Lang) -> str:
    """An estimated move's expected score, or what the search proved (its distance when measured)."""
    if move.value is None:
        return tr(N_("expected score {percent}%"), percent=round(100 * move.expected))
    return proven_text(move.value.result, move.value.plies or None, tr)
