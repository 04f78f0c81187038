"""VCT, victory by continuous threats (Allis, van den Herik and Huntjens, "Go-Moku and threat-space search", 1993):
the attacker plays fours and threes, here over either search board (:class:`engine.gomoku.search.Board`).

A **threat** is a move that is not a four after which the attacker, moving again, would win by a VCF of two moves
(an open four, or a four with a second four): an open three, or a three with a four. The defender's replies
searched are **all** the moves that matter: every empty cell after which that VCF in two is gone, and every four of
the defender's; any other reply loses to the VCF in two. So a VCT found is a proof, like a VCF, not a guess: every
node of the attacker is a VCF (of up to ``vcf`` moves) or a threat that wins against every reply.

**Moves** of a win are the winner's, the five included, along the longest reply (the defender's best defence).
**States**: one per VCT node, added to the board's :attr:`count` with the VCF's nodes.
"""

from __future__ import annotations

import time

from engine.gomoku.rules import CELLS
from engine.gomoku.search import Board

__all__ = ["THREATS_TRIED", "vct"]

THREATS_TRIED = 10
"""The best candidate moves (by the board's ordering) tried as threats at each attacker node."""


class _Timeout(Exception):
    pass


def vct(board: Board, side: int, threats: int, vcf: int, deadline: float | None = None) -> tuple[int, int] | None:
    """``(cell, moves)``: a move that wins for ``side`` (to move) by continuous threats, with at most ``threats``
    threes before the fours, each VCF of at most ``vcf`` moves, and the winner's moves to the five against the best
    defence; ``None`` when none is found (or ``deadline``, a :func:`time.perf_counter` time, passed first)."""
    try:
        return _attack(board, side, threats, vcf, deadline)
    except _Timeout:
        return None


def _attack(board: Board, side: int, threats: int, vcf: int, deadline: float | None) -> tuple[int, int] | None:
    board.count += 1
    if deadline is not None and time.perf_counter() > deadline:
        raise _Timeout
    line = board.vcf(side, vcf)
    if line is not None:
        return line[0], (len(line) + 1) // 2
    if threats == 0:
        return None
    theirs = board.five_cells(1 - side)
    if len(theirs) > 1:
        return None
    tries = theirs if theirs else board.candidates(side)[:THREATS_TRIED]
    for cell in tries:
        board.place(cell, side)
        try:
            if board.five_cells(side) or board.vcf(side, 2) is None:
                continue  # a four (the VCF's to try) or no threat
            worst = _defend(board, side, threats - 1, vcf, deadline)
        finally:
            board.remove(cell)
        if worst is not None:
            return cell, worst + 1
    return None


def _defend(board: Board, side: int, threats: int, vcf: int, deadline: float | None) -> int | None:
    """The attacker's moves to the five after its threat against the defender's best reply, or ``None`` when a
    reply holds."""
    defender = 1 - side
    replies = set(board.four_moves(defender))
    cells = board.cells
    for reply in range(CELLS):
        if cells[reply] < 0 and reply not in replies:
            board.place(reply, defender)
            if board.vcf(side, 2) is None:
                replies.add(reply)
            board.remove(reply)
    worst = 2  # any other reply loses to the VCF in two
    for reply in sorted(replies):
        board.place(reply, defender)
        try:
            found = _attack(board, side, threats, vcf, deadline)
        finally:
            board.remove(reply)
        if found is None:
            return None
        worst = max(worst, found[1])
    return worst
