"""How did it think? in words, where its picture cannot be drawn (Graphviz's ``dot`` is not installed).

The same search as the picture (:mod:`bot.games.thinking`), told in the player's language with the picture's own
phrases (:class:`engine.tree.words.Words`): the sentences that go beside the picture (:mod:`bot.text.thinking`,
without its colours), the root moves the search weighed with their values, bounds and counts, and the principal
variation; on ultimate the MCTS-Solver's most visited moves with their win rates, visits and proofs, and its most
visited line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games.thinking import Thought, words_for
from bot.i18n import N_
from bot.i18n.lang import Lang
from bot.text.thinking import thinking_text
from engine.tree import Choice, MctsTree, Outline, Words, signed

__all__ = ["LINE_SHOWN", "SHOWN", "thinking_words"]

SHOWN = 5
"""The root moves listed one by one, the mover's best first; the rest are counted."""
LINE_SHOWN = 10
"""The plies of ultimate's most visited line shown (3x3, 4x4 and 5x5: the whole recorded line)."""

NO_PICTURE = N_("(No picture: Graphviz's `dot` is not installed where the bot runs, so this is the search in words.)")


def thinking_words(thought: Thought, tr: Lang, label: Callable[[int], str], *, played: int | None) -> str:
    """The search behind a move (``played``, the bot's; ``None``: the search in the position, as under a hint) in
    words, in ``tr``'s language; ``label`` names a cell as the board does."""
    lines = [thinking_text(thought.summary, tr, label, played=played, drawn=False)]
    lines += thought.brief.tell(_Teller(tr, words_for(tr), label))
    lines.append(tr(NO_PICTURE))
    return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class _Teller:
    """The search in brief as lines in ``tr``'s language (:class:`engine.tree.outline.Teller`)."""

    tr: Lang
    words: Words
    label: Callable[[int], str]

    def searched(self, brief: Outline) -> list[str]:
        return _minimax(brief, self.tr, self.words, self.label)

    def sampled(self, brief: MctsTree) -> list[str]:
        return _mcts(brief, self.tr, self.words, self.label)


def _minimax(brief: Outline, tr: Lang, words: Words, label: Callable[[int], str]) -> list[str]:
    lines = [
        tr(N_("The first moves it weighed (values are X's, plies counted from this position: 10 minus the ply of X's "
              "win, the negative of that for O's, 0 a draw; ≥ and ≤ mark a bound where it stopped early):"))
    ]  # fmt: skip
    lines += [f"• {_choice(choice, words, label)}" for choice in brief.choices[:SHOWN]]
    if rest := brief.choices[SHOWN:]:
        lines.append(f"• {words.count(words.more_moves, len(rest))}")
    line = _moves(brief.line, brief.choices[0].mark if brief.choices else "X", label)
    lines.append(tr(N_("The line both sides play: {line}"), line=line if brief.line_ends else f"{line} …"))
    return lines


def _choice(choice: Choice, words: Words, label: Callable[[int], str]) -> str:
    said = words.bound(choice.value, choice.bound == "≥") if choice.bound else words.value(choice.value)
    value = f"{signed(choice.value)} ({said})"
    parts = [
        f"{choice.mark} {label(choice.move)}: {f'{choice.bound} ' if choice.bound else ''}{value}",
        words.count(words.states, choice.states),
    ]
    if choice.table:
        parts.append(words.table)
    if choice.skipped:
        parts.append("✂ " + words.not_searched.format(cells=", ".join(label(cell) for cell in choice.skipped)))
    return " · ".join(parts)


def _mcts(tree: MctsTree, tr: Lang, words: Words, label: Callable[[int], str]) -> list[str]:
    side = "X" if len(tree.cells) % 2 == 0 else "O"
    lines = [tr(N_("The moves it tried most:"))]
    for move in tree.moves[:SHOWN]:
        if move.proof is not None:
            score = words.proof(move.proof, move.plies)
        else:
            score = words.win_rate.format(rate=words.percent(move.mean))
        visits = words.count(words.visits, move.visits)
        lines.append(f"• {side} {label(move.move)}: {score} · {visits}")
    if rest := tree.moves[SHOWN:]:
        more = words.count(words.more_moves, len(rest))
        lines.append(f"• {more} · {words.count(words.visits, sum(m.visits for m in rest))}")
    line = _moves(tree.pv[:LINE_SHOWN], side, label)
    lines.append(tr(N_("The most visited line: {line}"), line=line if len(tree.pv) <= LINE_SHOWN else f"{line} …"))
    return lines


def _moves(cells: Sequence[int], first: str, label: Callable[[int], str]) -> str:
    """``"O 1 → X 3 → O 7"``: ``cells`` played in turn, ``first`` ("X" or "O") first."""
    marks = ("X", "O") if first == "X" else ("O", "X")
    return " → ".join(f"{marks[index % 2]} {label(cell)}" for index, cell in enumerate(cells))
