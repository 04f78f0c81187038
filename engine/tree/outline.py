"""The search behind a move in a few numbers per root move (:class:`Outline`), for explaining it in words where its
picture cannot be drawn (no Graphviz): the same values, bounds, counts and principal variation as
:mod:`engine.tree.draw` shows, without the tree below the first ply.

Values are X's, relative to the root, in :mod:`engine.tree.node`'s depth-aware units.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, TypeVar

from engine.tictactoe.bitboard import SYMMETRIES
from engine.tree.mcts import MctsTree, SampledTeller
from engine.tree.node import Node, SearchTree
from engine.tree.words import principal_path

__all__ = ["Choice", "Outline", "Teller", "outline"]

T_co = TypeVar("T_co", covariant=True)


class Teller(SampledTeller[T_co], Protocol[T_co]):
    """Who tells a search in words (the bot's :mod:`bot.text.thinking_words`), one method per kind of brief: a
    brief (an :class:`Outline` or an :class:`~engine.tree.mcts.MctsTree`) hands itself to its own, so the teller
    never asks which kind it holds."""

    def searched(self, brief: Outline) -> T_co:
        """A minimax or alpha-beta search: its root moves with values, bounds and counts, and its principal line."""
        ...

    def sampled(self, brief: MctsTree) -> T_co:
        """An MCTS search: its root moves with visits, win rates and proofs, and its most visited line."""
        ...


@dataclass(frozen=True, slots=True)
class Choice:
    """One root move the search looked at.

    Attributes:
        move: its 0-based cell.
        mark: the side that plays it (``"X"``/``"O"``).
        value: X's value after it (a bound when ``bound`` is set).
        bound: ``""`` for an exact value, ``"≥"`` or ``"≤"`` when the search only proved a bound (a cut, or a bound
            read from the transposition table).
        states: the states its search evaluated (the move's position included).
        skipped: at a cut, the moves below it left unsearched (0-based cells).
        table: its value came from the transposition table.
    """

    move: int
    mark: str
    value: int
    bound: str
    states: int
    skipped: tuple[int, ...] = ()
    table: bool = False


@dataclass(frozen=True, slots=True)
class Outline:
    """A minimax or alpha-beta search in brief.

    Attributes:
        algorithm: ``"alpha-beta"`` or ``"minimax"``.
        width: the board's side in cells (3, 4 or 5), for naming cells as the board does.
        states: the states the whole search evaluated.
        value: X's value of the root position with best play.
        move: the move explained (0-based cell).
        line: the principal variation as recorded, starting with ``move`` (0-based cells, sides alternating).
        line_ends: ``line`` reaches the end of the game (else the recording stopped first, or a threat rule valued
            the position where it stops).
        choices: every root move searched, the mover's best first (ties in search order).
        mirrors: root moves not searched because they mirror a searched one.
    """

    algorithm: str
    width: int
    states: int
    value: int
    move: int
    line: tuple[int, ...]
    line_ends: bool
    choices: tuple[Choice, ...]
    mirrors: int = 0

    def tell(self, teller: Teller[T_co]) -> T_co:
        """This search told by ``teller`` (:meth:`Teller.searched`)."""
        return teller.searched(self)


def outline(tree: SearchTree) -> Outline:
    """The :class:`Outline` of ``tree``: its root moves with their values, bounds and counts, and its principal
    variation from the move it explains."""
    choices = [_choice(node) for node in tree.root.children if node.move is not None]
    mover = choices[0].mark if choices else "X"
    choices.sort(key=lambda choice: -choice.value if mover == "X" else choice.value)  # stable: ties keep their order
    line, ends = _line(tree)
    return Outline(
        tree.algorithm, tree.width, tree.states, tree.root.value, tree.move, line, ends, tuple(choices),
        len(tree.same_as),
    )  # fmt: skip


def _line(tree: SearchTree) -> tuple[tuple[int, ...], bool]:
    """The principal variation from ``tree.move``, and whether it reaches the end of the game. A move not searched
    because it mirrors a searched one gets the searched move's line seen through the symmetry that maps the one onto
    the other (3x3's symmetries)."""
    searched = tree.same_as.get(tree.move, tree.move)
    nodes = principal_path(tree.root, searched)
    path = tuple(node.move for node in nodes if node.move is not None)
    ends = bool(nodes) and nodes[-1].kind == "terminal"
    if searched == tree.move:
        return path, ends
    x, o = frozenset(tree.cells[0::2]), frozenset(tree.cells[1::2])
    for perm in SYMMETRIES if tree.width == 3 else ():
        if perm[searched] == tree.move and {perm[c] for c in x} == x and {perm[c] for c in o} == o:
            return tuple(perm[cell] for cell in path), ends
    return (tree.move,), False


def _choice(node: Node) -> Choice:
    assert node.move is not None and node.mark is not None
    if node.kind == "cut":  # MAX (X) stopped at its value or more, MIN (O) at its value or less
        bound = "≥" if node.mark == "O" else "≤"
    elif node.bound in ("lower", "upper"):  # a bound for the side to move there
        bound = "≥" if (node.bound == "lower") == (node.mark == "O") else "≤"
    else:
        bound = ""
    return Choice(node.move, node.mark, node.value, bound, node.size() + 1, node.skipped, node.kind == "table")
