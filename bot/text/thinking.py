"""The sentences beside the picture of "How did it think?": what the search did, in the player's language.

They read the search's :class:`~engine.tree.summary.Summary` (the picture is drawn by :mod:`bot.games.thinking`).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.games.thinking import words_for
from bot.i18n import N_
from bot.i18n.lang import Lang
from engine.tree import Summary

__all__ = ["thinking_text"]


def thinking_text(
    summary: Summary, tr: Lang, label: Callable[[int], str], *, played: int | None, drawn: bool = True
) -> str:
    """What the search behind a move did: ``played`` is the bot's move (``None``: the search explains the position
    for the player to move, as a hint does); ``label`` names a cell as the board does; ``drawn``: beside the picture
    (its colours are named), else alone (:mod:`bot.text.thinking_words`)."""
    move = label(summary.move)
    if played is None:
        lines = [tr(N_("**How the search sees this position** (best move {move}):"), move=move)]
    else:
        lines = [tr(N_("**How I chose {move}:**"), move=label(played))]
    if summary.algorithm == "mcts":
        lines += _mcts(summary, tr, move)
    else:
        lines += _minimax(summary, tr, drawn)
    if played is not None and played not in summary.best_moves:
        if summary.algorithm == "mcts":  # a fresh search of its own: it may rank the moves a little differently
            lines.append(tr(N_("This fresh search prefers {move}; my move's own search ranked them differently."),
                            move=label(summary.best_moves[0])))  # fmt: skip
        else:
            lines.append(
                tr(N_("The search's own choice is {move}; at this level I play weaker moves on purpose."), move=move)
            )
    return "\n".join(lines)


def _minimax(summary: Summary, tr: Lang, drawn: bool) -> list[str]:
    states, other = tr.number(summary.states), tr.number(summary.other_states or 0)
    if summary.algorithm == "minimax":
        lines = [
            tr(
                N_("Plain minimax evaluated {states} states: every move, down to the end of every game. Alpha-beta "
                   "would evaluate {other}."),
                states=states, other=other,
            )
        ]  # fmt: skip
    elif summary.at_once:
        lines = [tr(N_("A win in one is played at once, before any search: no other move was evaluated."))]
    elif summary.fresh:
        lines = [tr(N_("Alpha-beta evaluated {states} states in a fresh search of this position, from an empty "
                       "transposition table (my move's own search reuses what earlier moves stored, so its count "
                       "differs)."), states=states)]  # fmt: skip
    else:
        lines = [tr(N_("Alpha-beta evaluated {states} states; plain minimax would evaluate {other}."), states=states,
                    other=other)]  # fmt: skip
    if summary.cuts and not drawn:
        lines.append(
            tr.plural(
                "It cut {count} branch: {skipped} moves were never searched, because a move found earlier was "
                "already at least as good, whatever they were worth.",
                "It cut {count} branches: {skipped} moves were never searched, because a move found earlier was "
                "already at least as good, whatever they were worth.",
                summary.cuts, count=tr.number(summary.cuts), skipped=tr.number(summary.skipped),
            )
        )  # fmt: skip
    elif summary.cuts:
        lines.append(
            tr.plural(
                "It cut {count} branch (grey): {skipped} moves were never searched, because a move found earlier "
                "was already at least as good, whatever they were worth.",
                "It cut {count} branches (grey): {skipped} moves were never searched, because a move found earlier "
                "was already at least as good, whatever they were worth.",
                summary.cuts, count=tr.number(summary.cuts), skipped=tr.number(summary.skipped),
            )
        )  # fmt: skip
    if summary.fresh and summary.table:
        lines.append(tr(N_("{table} positions came from the transposition table (seen earlier in this search)."),
                        table=tr.number(summary.table)))  # fmt: skip
    elif summary.table or summary.mirrors:
        lines.append(
            tr(N_("{table} positions came from the transposition table (seen before), and {mirrors} first moves were "
                  "mirror images of others."),
               table=tr.number(summary.table), mirrors=tr.number(summary.mirrors))
        )  # fmt: skip
    outcome = words_for(tr).value(summary.value or 0)
    if drawn:
        lines.append(
            tr(N_("With best play from both sides: {outcome}. The orange line is that play."), outcome=outcome)
        )
    else:
        lines.append(tr(N_("With best play from both sides: {outcome}."), outcome=outcome))
    return lines


def _mcts(summary: Summary, tr: Lang, best: str) -> list[str]:
    lines = [
        tr(
            N_("Monte Carlo tree search played {iterations} games from this position to their end, always trying the "
               "most promising moves more often (a fresh search: its numbers differ a little from my move's own)."),
            iterations=tr.number(summary.iterations),
        ),
        tr(N_("This move was tried in {visits} of them and scored {rate} on average."),
           visits=tr.number(summary.visits), rate=words_for(tr).percent(summary.win_rate)),
    ]  # fmt: skip
    if summary.proof is not None:
        lines.append(tr(N_("It is proven: every line below it is settled ({proof})."),
                        proof=words_for(tr).proof(summary.proof, summary.plies)))  # fmt: skip
    return lines
