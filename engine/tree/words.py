"""Words for the searched tree's picture and text: what a value means and why a cut was safe (English; the bot
translates its own sentences).

Values and bounds are X's, relative to the root, in depth-aware units (:mod:`engine.tree.node`): ``10 - p`` for a
win by X p plies from the root, its negative for O, 0 for a draw.
"""

from __future__ import annotations

from engine.tree.node import Node

__all__ = ["cut_reason", "principal_path", "signed", "value_words"]


def signed(value: int) -> str:
    """``"+4"``, ``"-7"`` or ``"0"``."""
    return f"{value:+d}" if value else "0"


def value_words(value: int, depth: int = 0) -> str:
    """``"draw"``, ``"X wins in 3"`` or ``"O wins in 1"``: plies counted from a node ``depth`` plies below the root."""
    if value == 0:
        return "draw"
    side = "X" if value > 0 else "O"
    return f"{side} wins in {10 - abs(value) - depth}"


def cut_reason(node: Node, side: str, marks: int) -> str:
    """Why the search could skip the rest of ``node``'s children (``side`` is to move there; ``marks`` were on the
    board at the root): the bound the node's value reached, and who already has what elsewhere.

    For example ``"β = 0: O already has a draw elsewhere"``: X's value here is at least β, and O, who chooses
    above, can already hold X to β, so O never lets the game come here (AIMA §5.3).
    """
    # The side above holds the bound; a bound within one point of 0 is a draw (a shared root window sits one
    # point past the best value so far: SearchConfig.root_window).
    if side == "X":
        bound, letter, other, sign = node.beta, "\N{GREEK SMALL LETTER BETA}", "O", 1
    else:
        bound, letter, other, sign = node.alpha, "\N{GREEK SMALL LETTER ALPHA}", "X", -1
    held = sign * (bound or 0)
    kept = "a draw" if 0 <= held <= marks + 1 else "a win" if held < 0 else "a slower loss"
    return f"{letter} = {bound}: {other} already has {kept} elsewhere"


def principal_path(root: Node, move: int) -> list[Node]:
    """The principal variation as nodes: the played root move, then at each node the first child whose value is
    the node's value, down to the end of the recorded line."""
    path: list[Node] = []
    node = next((child for child in root.children if child.move == move), None)
    while node is not None:
        path.append(node)
        node = next((child for child in node.children if child.value == node.value), None)
    return path
