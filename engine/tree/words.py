"""Words for the searched tree's pictures and text: what a value means, why a cut was safe, what a rule did.

:class:`Words` holds every phrase as a ``str.format`` template, in English by default (:data:`ENGLISH`); the bot
passes one built from its translations, so the engine never needs a catalogue. One convention holds for every number
and every word (stated in :attr:`Words.legend`): values and bounds are X's, in :mod:`engine.tree.node`'s units, and
plies are counted from the position searched (the root; ply 1 is the move made there), so ``+4`` is "X wins at ply 6"
wherever it stands in the tree (``10 - 6``), and a bound is said as a bound ("X wins by ply 6", "at least a draw").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from engine.tree.node import Node

__all__ = ["ENGLISH", "N_", "Words", "is_exact", "plural", "principal_path", "signed"]


def signed(value: int) -> str:
    """``"+4"``, ``"-7"`` or ``"0"``."""
    return f"{value:+d}" if value else "0"


def N_(message: str) -> str:
    """Mark ``message`` as a phrase for the bot's translators (``babel.cfg`` extracts this module); returns it."""
    return message


def plural(singular: str, many: str) -> tuple[str, str]:
    """Mark a phrase with a count for the bot's translators (extracted as a plural entry, ``-k plural:1,2``); returns
    ``(singular, many)``, formatted by :meth:`Words.count`."""
    return singular, many


def _english_plural(singular: str, many: str, count: int, /, **values: object) -> str:
    return (singular if count == 1 else many).format(**values)


def _thousands(count: int) -> str:
    return f"{count:,}"


def _percent(share: float) -> str:
    return f"{share:.0%}"


def is_exact(node: Node) -> bool:
    """Whether ``node.value`` is the position's exact value (terminal, minimax, or alpha-beta inside its window), not a
    bound."""
    return node.bound in (None, "exact")


def at_least(node: Node) -> bool:
    """For a bound: whether it is X's lower bound (``≥``). ``node.bound`` is the side to move's, the side that did not
    play ``node.mark``."""
    return (node.bound == "lower") == (node.mark != "X")


@dataclass(frozen=True, slots=True)
class Words:
    """The phrases of the tree's pictures (``str.format`` templates with the named fields shown; the pairs are a
    singular and a plural, chosen by ``plurals`` as :meth:`bot.i18n.lang.Lang.plural` does) and how numbers are written
    (``number``: a count of states; ``percent``: a share in [0, 1])."""

    title: tuple[str, str] = plural("{algorithm}: {count} state", "{algorithm}: {count} states")
    to_move: str = N_("{side} to move: {value}")
    plays: str = N_("plays {move}")
    plays_mirror: str = N_("plays {move}, the mirror image of {searched} (drawn)")
    states: tuple[str, str] = plural("{count} state", "{count} states")
    below: tuple[str, str] = plural("+{count} state below", "+{count} states below")
    draw: str = N_("draw")
    wins_at: str = N_("{side} wins at ply {ply}")
    wins_by: str = N_("{side} wins by ply {ply}")
    at_least_draw: str = N_("at least a draw for {side}")
    no_win_before: str = N_("{side} cannot win before ply {ply}")
    table: str = N_("from the table: met before, not searched again")
    must_block: str = N_("{side} must block: the other moves lose at once")
    two_threats: str = N_("{side} cannot block two threats: not searched further")
    wins_next: str = N_("{side} completes a line: no other move searched")
    last_cell: str = N_("{side} fills the last cell")
    out_of_reach: str = N_("not searched: nothing left here is better for {side} than what it has elsewhere")
    out_of_reach_good: str = N_("not searched: the worst left here for {side} is already more than {other} allows")
    not_searched: str = N_("not searched: {cells}")
    mirrors: str = N_("mirror images, not searched:")
    held: str = N_("{letter} = {value} ({outcome}): {side} already has it elsewhere ({move} at ply {ply})")
    held_here: str = N_("{letter} = {value}: known before searching this position ({outcome})")
    legend: str = N_(
        "Values are X's and plies are counted from the position searched (ply 1 is the move made there):\n"
        "+(10 \N{MINUS SIGN} p) when X wins at ply p, \N{MINUS SIGN}(10 \N{MINUS SIGN} p) when O wins at ply p, "
        "0 a draw. ≥ and ≤ mark a bound.\n"
        "✂: the search stopped early. \N{GREEK SMALL LETTER ALPHA}: the best X already has elsewhere, "
        "β: the best O has. Orange: the line both sides play."
    )
    saved_title: str = N_("States evaluated here, each idea added to the ones above:")
    saved_line: str = N_("{step}: {count} ({change})")
    step_minimax: str = N_("plain minimax")
    step_alpha_beta: str = N_("alpha-beta as in the textbook")
    step_scores: str = N_("+ depth-aware scores (the fastest win)")
    step_ordering: str = N_("+ centre, corners, edges first")
    step_window: str = N_("+ one window shared by the root's moves")
    step_table: str = N_("+ transposition table")
    step_symmetry: str = N_("+ symmetry (mirror images)")
    step_threats: str = N_("+ threat rules: the bot's search")
    mcts_title: tuple[str, str] = plural("MCTS: {count} iteration", "MCTS: {count} iterations")
    mcts_plays: str = N_("{side} to move, plays {move}")
    win_rate: str = N_("win rate {rate}")
    visits: tuple[str, str] = plural("{count} visit", "{count} visits")
    proven_win: str = N_("proven win at ply {plies}")
    proven_loss: str = N_("proven loss at ply {plies}")
    proven_draw: str = N_("proven draw")
    proven: str = N_("proven")
    more_moves: tuple[str, str] = plural("{count} more move", "{count} more moves")
    mcts_legend: str = N_(
        "Win rate: the mover's mean score over the rollouts through the move (a win 1, a draw 1/2).\n"
        "Proven: every line below it is settled; plies are counted from this position. Orange: the most visited line."
    )
    number: Callable[[int], str] = _thousands
    percent: Callable[[float], str] = _percent
    plurals: Callable[..., str] = _english_plural

    def translated(
        self,
        translate: Callable[[str], str],
        number: Callable[[int], str],
        percent: Callable[[float], str],
        plurals: Callable[..., str] | None = None,
    ) -> Words:
        """These words with every phrase passed through ``translate`` (a gettext lookup), numbers written by
        ``number`` and ``percent``, and counted phrases chosen and filled by ``plurals`` (``(singular, plural, count,
        **values) -> str``, as :meth:`bot.i18n.lang.Lang.plural`; default: English's rule, untranslated)."""
        phrases: dict[str, Any] = {f.name: translate(getattr(self, f.name)) for f in fields(self) if f.type == "str"}
        return replace(self, **phrases, number=number, percent=percent, plurals=plurals or _english_plural)

    def count(self, phrase: tuple[str, str], count: int, **values: object) -> str:
        """``phrase`` (one of the pairs) for ``count``, its ``{count}`` written by :attr:`number`."""
        return self.plurals(phrase[0], phrase[1], count, count=self.number(count), **values)

    def value(self, value: int) -> str:
        """``"draw"``, ``"X wins at ply 3"``: an exact value in words (plies from the root: ``10 - abs(value)``)."""
        if value == 0:
            return self.draw
        return self.wins_at.format(side="X" if value > 0 else "O", ply=10 - abs(value))

    def bound(self, value: int, lower: bool) -> str:
        """A bound in words: X's value is at least ``value`` (``lower``) or at most. ``≥ +4`` is "X wins by ply 6",
        ``≥ 0`` "at least a draw for X", ``≥ -3`` "O cannot win before ply 7"; ``≤`` mirrors them for O."""
        side, other = ("X", "O") if lower else ("O", "X")
        mine = value > 0 if lower else value < 0
        if value == 0:
            return self.at_least_draw.format(side=side)
        ply = 10 - abs(value)
        return self.wins_by.format(side=side, ply=ply) if mine else self.no_win_before.format(side=other, ply=ply)

    def value_text(self, node: Node) -> str:
        """``"+4 (X wins at ply 6)"``, or for a bound ``"≥ +4 (X wins by ply 6)"``."""
        if is_exact(node):
            return f"{signed(node.value)} ({self.value(node.value)})"
        lower = at_least(node)
        return f"{'≥' if lower else '≤'} {signed(node.value)} ({self.bound(node.value, lower)})"

    def cut_reason(self, side: str, held: int | None, move: str = "", ply: int = 0, window: int | None = None) -> str:
        """Why the search could skip the rest of a node's children (``side`` is to move there and its value reached
        what the other side holds). ``held``: the value the other side already has elsewhere on the path (X's), won
        by ``move`` at ``ply``: the textbook alpha or beta (AIMA §5.3), ``"β = 0 (draw): O already has it elsewhere
        (O 1 at ply 1)"``. ``None``: the bound came from this position itself (the transposition table's, or the best
        result still possible), ``window``: that bound (X's)."""
        letter, other = ("β", "O") if side == "X" else ("\N{GREEK SMALL LETTER ALPHA}", "X")
        if held is None:
            value = window or 0
            return self.held_here.format(letter=letter, value=signed(value), outcome=self.bound(value, side == "O"))
        outcome = self.value(held)
        return self.held.format(letter=letter, value=signed(held), side=other, outcome=outcome, move=move, ply=ply)

    def proof(self, result: str, plies: int | None) -> str:
        """A proven root move in words (``plies``: its exact distance, counted from the root, when measured)."""
        if result == "draw":
            return self.proven_draw
        if plies is None:
            return self.proven
        return (self.proven_win if result == "win" else self.proven_loss).format(plies=plies)


ENGLISH = Words()
"""The pictures' English words (the command line's)."""


def principal_path(root: Node, move: int) -> list[Node]:
    """The principal variation as nodes: the played root move, then at each node the first child whose value is
    the node's exact value, down to the end of the recorded line (a bound is never followed: it is not a line
    either side plays)."""
    path: list[Node] = []
    node = next((child for child in root.children if child.move == move), None)
    while node is not None and is_exact(node):
        path.append(node)
        node = next((c for c in node.children if c.value == node.value and is_exact(c)), None)
    return path
