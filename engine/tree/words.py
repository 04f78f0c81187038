"""Words for the searched tree's pictures and text: what a value means, why a cut was safe, what a rule did.

:class:`Words` holds every phrase as a ``str.format`` template, in English by default (:data:`ENGLISH`); the bot
passes one built from its translations, so the engine never needs a catalogue. Values and bounds are X's, relative to
the root, in depth-aware units (:mod:`engine.tree.node`): ``10 - p`` for a win by X p plies from the root, its
negative for O, 0 for a draw.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from engine.tree.node import Node

__all__ = ["ENGLISH", "N_", "Words", "principal_path", "signed"]


def signed(value: int) -> str:
    """``"+4"``, ``"-7"`` or ``"0"``."""
    return f"{value:+d}" if value else "0"


def N_(message: str) -> str:
    """Mark ``message`` as a phrase for the bot's translators (``babel.cfg`` extracts this module); returns it."""
    return message


def _thousands(count: int) -> str:
    return f"{count:,}"


def _percent(share: float) -> str:
    return f"{share:.0%}"


@dataclass(frozen=True, slots=True)
class Words:
    """The phrases of the tree's pictures (``str.format`` templates with the named fields shown) and how numbers are
    written (``number``: a count of states; ``percent``: a share in [0, 1])."""

    title: str = N_("{algorithm}: {count} states")
    to_move: str = N_("{side} to move: {value}")
    plays: str = N_("plays {move}")
    states: str = N_("{count} states")
    below: str = N_("+{count} below")
    draw: str = N_("draw")
    wins_in: str = N_("{side} wins in {plies}")
    table: str = N_("from the table")
    must_block: str = N_("{side} must block")
    two_threats: str = N_("{side} cannot block two threats")
    wins_next: str = N_("{side} wins next")
    not_searched: str = N_("not searched: {cells}")
    mirrors: str = N_("mirror images, not searched:")
    has_draw: str = N_("{side} already has a draw elsewhere")
    has_win: str = N_("{side} already has a win at least as fast elsewhere")
    has_slower_loss: str = N_("{side} already has a loss at least as slow elsewhere")
    legend: str = N_(
        "Values are X's, counted from the root: +(10 - plies) when X wins, -(10 - plies) when O wins, 0 a draw.\n"
        "≥ and ≤ mark a bound: the search stopped (✂) as soon as it knew enough. Orange: the line both sides play."
    )
    mcts_title: str = N_("MCTS: {count} iterations")
    mcts_plays: str = N_("{side} to move, plays {move}")
    win_rate: str = N_("win rate {rate}")
    visits: str = N_("{count} visits")
    proven_win: str = N_("proven win in {plies}")
    proven_loss: str = N_("proven loss in {plies}")
    proven_draw: str = N_("proven draw")
    proven: str = N_("proven")
    more_moves: str = N_("{count} more moves")
    mcts_legend: str = N_(
        "Win rate: the mover's mean score over the rollouts through the move (a win 1, a draw 1/2).\n"
        "Proven: every line below it is settled. Orange: the most visited line."
    )
    number: Callable[[int], str] = _thousands
    percent: Callable[[float], str] = _percent

    def translated(
        self, translate: Callable[[str], str], number: Callable[[int], str], percent: Callable[[float], str]
    ) -> Words:
        """These words with every phrase passed through ``translate`` (a gettext lookup) and numbers written by
        ``number`` and ``percent``."""
        phrases = {f.name: translate(getattr(self, f.name)) for f in fields(self) if f.type == "str"}
        return replace(self, **phrases, number=number, percent=percent)

    def value(self, value: int, depth: int = 0) -> str:
        """``"draw"``, ``"X wins in 3"``...: plies counted from a node ``depth`` plies below the root."""
        if value == 0:
            return self.draw
        return self.wins_in.format(side="X" if value > 0 else "O", plies=10 - abs(value) - depth)

    def cut_reason(self, node: Node, side: str, marks: int) -> str:
        """Why the search could skip the rest of ``node``'s children (``side`` is to move there; ``marks`` were on
        the board at the root): the bound the node's value reached, and who already has what elsewhere.

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
        kept = self.has_draw if 0 <= held <= marks + 1 else self.has_win if held < 0 else self.has_slower_loss
        return f"{letter} = {bound}: {kept.format(side=other)}"

    def proof(self, result: str, plies: int | None) -> str:
        """A proven root move in words (``plies``: its exact distance, when measured)."""
        if result == "draw":
            return self.proven_draw
        if plies is None:
            return self.proven
        return (self.proven_win if result == "win" else self.proven_loss).format(plies=plies)


ENGLISH = Words()
"""The pictures' English words (the command line's)."""


def principal_path(root: Node, move: int) -> list[Node]:
    """The principal variation as nodes: the played root move, then at each node the first child whose value is
    the node's value, down to the end of the recorded line."""
    path: list[Node] = []
    node = next((child for child in root.children if child.move == move), None)
    while node is not None:
        path.append(node)
        node = next((child for child in node.children if child.value == node.value), None)
    return path
