"""The search behind one move, as an object that draws and tells itself: the answer of a game's
:meth:`engine.Variant.explain`, for the bot's "How did it think?", its stepper and ``python -m engine tree``.

A game says where its moves can be explained (:meth:`engine.Variant.explains`) and how: it records its search with
the shared recorders (:mod:`engine.tree.record`, :mod:`engine.tree.mnk`, :mod:`engine.tree.mcts`, or its own) and
hands back an :class:`Explanation`. Two are built here: :class:`Explained`, recorded minimax or alpha-beta trees drawn
node by node (:mod:`engine.tree.draw`), and :class:`Sampled`, an MCTS search's first plies with their statistics
(:mod:`engine.tree.draw_mcts`). Their words-only form (:meth:`Explanation.outline`) tells itself to a
:class:`~engine.tree.outline.Teller`, so a caller never asks which kind it holds.

Deterministic: the same moves, move and seed give the same explanation, so one asked after a restart is the one
asked before it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engine.coordinates import cell_name
from engine.tree.labels import saving_lines
from engine.tree.mcts import MctsTree
from engine.tree.node import SearchTree
from engine.tree.outline import Outline, Teller, outline
from engine.tree.savings import savings
from engine.tree.summary import Summary
from engine.tree.words import ENGLISH, Words, signed

__all__ = ["Brief", "Explained", "Explanation", "Sampled", "Teller", "best_or_played"]

T_co = TypeVar("T_co", covariant=True)


class Brief(Protocol):
    """The search in brief, picklable (it crosses from the worker that recorded it to the bot)."""

    def tell(self, teller: Teller[T_co]) -> T_co:
        """Hand this brief to the method of ``teller`` for its kind."""
        ...


class Explanation(Protocol):
    """The search behind a move, as a game explains it.

    Attributes:
        summary: what the search did (:class:`~engine.tree.summary.Summary`), for the sentences beside the picture.
    """

    @property
    def summary(self) -> Summary: ...

    def draw(self, words: Words = ENGLISH, fmt: str = "png", *, depth: int = 2) -> bytes:
        """The picture (PNG or SVG bytes), its phrases in ``words``, ``depth`` plies drawn where the kind draws
        plies. Loads Graphviz and Pillow.

        Raises:
            ImportError: the graphviz package or Pillow is missing.
            graphviz.ExecutableNotFound: Graphviz's ``dot`` is not on the ``PATH``.
            ValueError: ``fmt`` is neither ``"png"`` nor ``"svg"``.
        """
        ...

    def outline(self) -> Brief:
        """The search in brief, for an answer in words where no picture can be drawn."""
        ...

    def stepped(self) -> SearchTree | None:
        """The alpha-beta tree a stepper walks (:mod:`engine.tree.step`), or ``None`` where the search has no window
        to walk (MCTS)."""
        ...

    def as_json(self) -> dict[str, Any]:
        """The search as one JSON object (``docs/engine.md``), cells 1-based."""
        ...

    def text(self) -> str:
        """A few English lines about the search, for the terminal (``python -m engine tree``)."""
        ...


def best_or_played(record: Callable[[int | None], SearchTree], played: int | None) -> SearchTree:
    """``record(None)``, the search's own choice, or ``record(played)`` when ``played`` is one of its best moves
    (a move the search would not play, a weaker level's, is explained by the search's own best move)."""
    tree = record(None)
    return record(played) if played is not None and played in tree.best_moves else tree


@dataclass(frozen=True, slots=True)
class Explained:
    """Recorded minimax or alpha-beta trees, drawn side by side (3x3: plain minimax's beside alpha-beta's).

    Attributes:
        trees: the trees in the order drawn; the one summarised is the last whose algorithm is the summary's.
        summary: the :class:`~engine.tree.summary.Summary` of the search asked for.
        steppable: the asked search is alpha-beta with a window to walk.
        savings: :meth:`text` adds what each idea of the search saved (:func:`engine.tree.savings.savings`: a
            3x3 position).
    """

    trees: tuple[SearchTree, ...]
    summary: Summary
    steppable: bool = True
    savings: bool = False

    @property
    def asked(self) -> SearchTree:
        """The tree of the search the summary describes."""
        return next(tree for tree in reversed(self.trees) if tree.algorithm == self.summary.algorithm)

    def draw(self, words: Words = ENGLISH, fmt: str = "png", *, depth: int = 2) -> bytes:
        from engine.tree.draw import render

        return render(self.trees, fmt, depth=depth, words=words)

    def outline(self) -> Outline:
        return outline(self.asked)

    def stepped(self) -> SearchTree | None:
        return self.asked if self.steppable and self.asked.algorithm == "alpha-beta" else None

    def as_json(self) -> dict[str, Any]:
        return self.asked.as_json()

    def text(self) -> str:
        """Who moves, the move and its value, the states and what alpha-beta cut, the mirror moves not searched, a
        win played at once; where :attr:`savings` is set, what each idea of the search saved."""
        tree, facts = self.asked, self.summary
        side = "X" if len(tree.cells) % 2 == 0 else "O"
        lines = [
            f"{side} to move; {tree.algorithm} plays {tree.move + 1}: {ENGLISH.value(tree.root.value)}"
            f" (value {signed(tree.root.value)}; plies counted from this position).",
            f"{_count(facts.states, 'state')} evaluated: {facts.terminal:,} terminal, {facts.table:,} from the table, "
            f"{_count(facts.cuts, 'cut')} skipping {_count(facts.skipped, 'move')}.",
        ]
        if facts.at_once:
            lines.append("A win in one: played at once, as the bot does, with no other move searched.")
        if tree.same_as:
            lines.append(f"Not searched (mirror images): {', '.join(str(cell + 1) for cell in sorted(tree.same_as))}.")
        if self.savings:
            known = tree.states if tree.algorithm == "minimax" else None
            lines += saving_lines(savings(tree.cells, minimax_states=known))
        return "\n".join(lines)


@dataclass(frozen=True, slots=True)
class Sampled:
    """An MCTS search's first plies (:class:`~engine.tree.mcts.MctsTree`), the summary of the move explained, and
    the board's width in cells (for naming cells)."""

    tree: MctsTree
    summary: Summary
    width: int

    def draw(self, words: Words = ENGLISH, fmt: str = "png", *, depth: int = 2) -> bytes:
        from engine.tree.draw_mcts import render_mcts

        return render_mcts(self.tree, fmt, words=words)

    def outline(self) -> MctsTree:
        return self.tree

    def stepped(self) -> SearchTree | None:
        return None

    def as_json(self) -> dict[str, Any]:
        return self.tree.as_json()

    def text(self) -> str:
        """The iterations and states, the move played with its visits, win rate and proof."""
        tree, best = self.tree, self.tree.moves[0]
        proof = f", proven {best.proof}" if best.proof else ""
        return (
            f"MCTS: {tree.iterations:,} iterations, {tree.states:,} states; plays {cell_name(best.move, self.width)}"
            f" ({best.visits:,} visits, win rate {best.mean:.0%}{proof})"
        )


def _count(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"
