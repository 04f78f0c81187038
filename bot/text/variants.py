"""Text of the variants other than 3x3 (4x4, 5x5, ultimate): their names, text grids with coordinates, the bot's
move by coordinate, "the bot is thinking", and the hints (pure text, no ``discord`` import).

Coordinates are a column letter and a row number, ``a1`` at the top left (:mod:`engine.coordinates`). An ultimate
small board is named by the cells it covers, e.g. ``d4-f6`` for the centre board.
"""

from __future__ import annotations

from typing import Any

from bot.games.game import EngineMove, Game
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import ALGORITHM_NAMES, MARK_EMOJI, format_elapsed
from engine import Mark
from engine.coordinates import cell_name
from engine.hints import Hint
from engine.solver import ValueKind

__all__ = [
    "VARIANT_DESCRIPTIONS",
    "VARIANT_NAMES",
    "board_cells",
    "estimated_hint_text",
    "exact_hint_text",
    "mark_at",
    "pad_played_text",
    "pad_text",
    "played_line",
    "proven_text",
    "small_board_name",
    "state_grid",
    "thinking_line",
    "variant_ai_line",
    "variant_grid",
    "variant_hint_text",
    "variant_move_line",
    "width_of",
]

VARIANT_NAMES = {
    "3x3": N_("3x3"),
    "4x4": N_("4x4, four in a row"),
    "5x5": N_("5x5, four in a row"),
    "ultimate": N_("ultimate"),
}
"""The name of each variant, as players choose it (``/ttt start variant:``) and as board headers say it."""
VARIANT_DESCRIPTIONS = {
    "3x3": N_("Classic tic-tac-toe: three in a row on 3x3"),
    "4x4": N_("Four in a row on a 4x4 board"),
    "5x5": N_("Four in a row on a 5x5 board"),
    "ultimate": N_("Nine small boards in one: win three of them in a row"),
}
"""A one-line description of each variant."""

_WIDTH = {"3x3": 3, "4x4": 4, "5x5": 5, "ultimate": 9}


def width_of(variant: str) -> int:
    """How many columns ``variant``'s whole board has (3, 4, 5, 9)."""
    return _WIDTH[variant]


def board_cells(small_board: int) -> tuple[int, ...]:
    """The nine grid cells (0-80, row by row over the 9x9 grid) of ultimate small board ``small_board`` (0-8), in
    the small board's own order (row by row)."""
    top, left = 3 * (small_board // 3), 3 * (small_board % 3)
    return tuple(9 * (top + i // 3) + left + i % 3 for i in range(9))


def small_board_name(small_board: int) -> str:
    """An ultimate small board by the cells it covers: ``0`` → ``"a1-c3"``, ``4`` → ``"d4-f6"``."""
    cells = board_cells(small_board)
    return f"{cell_name(cells[0], 9)}-{cell_name(cells[-1], 9)}"


def mark_at(state: Any, cell: int) -> Mark | None:
    """The mark in 0-based ``cell`` of a variant's engine state (one indexable by cell, or a pair of masks ``x``,
    ``o`` as 4x4's and 5x5's), or ``None``."""
    if hasattr(state, "__getitem__"):
        value = state[cell]
        return value if isinstance(value, Mark) else None
    return Mark.X if state.x >> cell & 1 else Mark.O if state.o >> cell & 1 else None


def variant_grid(game: Game) -> str:
    """The board as monospace text in a code block, with column letters and row numbers; empty cells are ``·``.
    Ultimate's 9x9 grid separates its small boards with lines. At most about 300 characters (ultimate)."""
    return state_grid(game.variant, game.state)


def state_grid(variant: str, state: Any) -> str:
    """:func:`variant_grid` of an engine ``state`` of ``variant`` (a puzzle's position, say)."""
    width = width_of(variant)
    letters = "abcdefghi"[:width]
    if variant != "ultimate":
        lines = ["   " + " ".join(letters)]
        for row in range(width):
            cells = (mark_at(state, width * row + col) for col in range(width))
            lines.append(f"{row + 1:>2} " + " ".join(m.value if m else "·" for m in cells))
        return "```\n" + "\n".join(lines) + "\n```"
    lines = ["   " + " | ".join(" ".join(letters[i : i + 3]) for i in (0, 3, 6))]
    for row in range(9):
        if row in (3, 6):
            lines.append("   " + "-+-".join(["-----"] * 3))
        marks = [mark_at(state, 9 * row + col) for col in range(9)]
        text = [m.value if m else "·" for m in marks]
        lines.append(f"{row + 1:>2} " + " | ".join(" ".join(text[i : i + 3]) for i in (0, 3, 6)))
    return "```\n" + "\n".join(lines) + "\n```"


def variant_ai_line(game: Game, ai: EngineMove, tr: Lang | None = None) -> str:
    """``"O played b3 · alpha-beta evaluated 7,641 states in 812.0 ms"``, with the search depth on ultimate and a
    note when the bot was busy and searched less."""
    return played_line(ai, game.cell_name(ai.cell), tr)


def played_line(ai: EngineMove, cell: str | int, tr: Lang | None = None) -> str:
    """The bot's move ``ai`` with ``cell`` as the board names it (``"b3"``; 3x3: ``5``, numbered 1-9), the states
    its search evaluated and its time, then a note for each of: an opening book move, a search's result (ultimate:
    what it proved, or its expected score and depth, an estimate), a search shortened because the bot was busy, a
    random move its difficulty allowed."""
    tr = tr or lang(None)
    algorithm = tr(N_("MCTS")) if ai.expected is not None else tr(ALGORITHM_NAMES[ai.algorithm])
    text = tr.plural(
        "{mark} played {cell} · {algorithm} evaluated {states} state in {elapsed}",
        "{mark} played {cell} · {algorithm} evaluated {states} states in {elapsed}",
        ai.states,
        mark=ai.mark.value,
        cell=cell,
        algorithm=algorithm,
        states=tr.number(ai.states),
        elapsed=format_elapsed(ai.elapsed_ms / 1000.0, tr),
    )
    if ai.book:
        text += " " + tr(N_("(from its opening book)"))
    if ai.value is not None:
        text += " " + proven_text(ai.value.result, ai.value.plies, tr)
    elif ai.expected is not None:
        text += " " + tr(
            N_("(an estimate, {depth} plies deep: expected score for {mark} {percent}%)"),
            depth=ai.depth or 0,
            percent=round(100 * ai.expected),
            mark=ai.mark.value,
        )
    elif ai.depth is not None:
        text += " " + tr(N_("(an estimate: {depth} plies deep)"), depth=ai.depth)
    if ai.reduced:
        text += " " + tr(N_("(a shorter search than usual: I am busy)"))
    if ai.random:
        text += " " + tr(N_("(then played a random move, as its difficulty allows)"))
    return text


def proven_text(result: ValueKind, plies: int | None, tr: Lang) -> str:
    """``"(proved: win in 7 plies)"``; without the distance (not measured, or a draw) ``"(proved: draw)"``."""
    from bot.text.hints import OUTCOME_NAMES

    if plies is None or result == "draw":
        return tr(N_("(proved: {outcome})"), outcome=tr(OUTCOME_NAMES[result]))
    return tr.plural(
        "(proved: {outcome} in {plies} ply)",
        "(proved: {outcome} in {plies} plies)",
        plies,
        outcome=tr(OUTCOME_NAMES[result]),
        plies=plies,
    )


def thinking_line(tr: Lang | None = None) -> str:
    """What the board says while the bot's search runs."""
    return (tr or lang(None))(N_("\N{HOURGLASS WITH FLOWING SAND} The bot is thinking about its move…"))


def pad_text(board: int | None, tr: Lang | None = None) -> str:
    """What an ultimate free choice's private pad says: the small board ``board`` (0-8) whose cells it shows, or
    (``None``) that it shows the open small boards."""
    tr = tr or lang(None)
    if board is None:
        return tr(N_("Only you see this pad. Choose a small board; nothing is played until you press a cell."))
    return tr(
        N_("Only you see this pad. Small board {board}: choose a cell, or Back to choose another small board."),
        board=small_board_name(board),
    )


def pad_played_text(game: Game, tr: Lang | None = None) -> str:
    """What a private pad says once its player's move (``game``'s last) is committed."""
    return (tr or lang(None))(N_("You played {cell}; the board shows your move."), cell=game.cell_name(game.moves[-1]))


def variant_move_line(game: Game, tr: Lang | None = None) -> str:
    """Where the next move goes (ultimate: the small board, or any open one), or ``""`` for 4x4 and 5x5."""
    tr = tr or lang(None)
    if game.variant != "ultimate" or game.over:
        return ""
    forced = getattr(game.state, "forced_board", None)
    if forced is None:
        return tr(N_("Next move: in any open small board."))
    return tr(N_("Next move: in the small board {board}."), board=small_board_name(forced))


def exact_hint_text(game: Game, hint: Hint, tr: Lang | None = None) -> str:
    """4x4 and 5x5: every free cell's exact value with best play, best cells starred, and the solver's count."""
    from bot.text.hints import OUTCOME_NAMES

    tr = tr or lang(None)
    mark = game.to_move
    lines = [tr(N_("**Hint for {mark}** (best play from both sides):"), mark=f"{MARK_EMOJI[mark]} {mark.value}")]
    best = {m.cell for m in hint.best}
    for cell, value in ((m.cell, m.value) for m in hint.moves if m.value is not None):
        line = tr.plural(
            "`{cell}` {outcome} in {plies} ply",
            "`{cell}` {outcome} in {plies} plies",
            value.plies,
            cell=game.cell_name(cell),
            outcome=tr(OUTCOME_NAMES[value.result]),
            plies=value.plies,
        )
        lines.append(line + (" ★" if cell in best else ""))
    lines.append(
        tr(
            N_("The solver evaluated {states} states in {elapsed}."),
            states=tr.number(hint.states),
            elapsed=format_elapsed(hint.elapsed_ms / 1000.0, tr),
        )
    )
    return "\n".join(lines)


def estimated_hint_text(game: Game, hint: Hint, tr: Lang | None = None) -> str:
    """Ultimate: the search's best moves with the expected score of the player to move (or what the search proved),
    the depth and the states, marked as an estimate."""
    tr = tr or lang(None)
    mark = game.to_move
    lines = [
        tr(N_("**Hint for {mark}** (the engine's estimate, not a proof):"), mark=f"{MARK_EMOJI[mark]} {mark.value}")
    ]
    for move in hint.moves:
        if move.value is None:
            worth = tr(N_("expected score {percent}%"), percent=round(100 * move.expected))
        else:
            worth = proven_text(move.value.result, move.value.plies or None, tr)
        lines.append(f"`{game.cell_name(move.cell)}` {worth}")
    lines.append(
        tr(
            N_("MCTS-Solver reached {depth} plies deep and evaluated {states} states in {elapsed}."),
            depth=hint.depth or 0,
            states=tr.number(hint.states),
            elapsed=format_elapsed(hint.elapsed_ms / 1000.0, tr),
        )
    )
    return "\n".join(lines)


def variant_hint_text(game: Game, hint: Hint, tr: Lang | None = None) -> str:
    """A variant's hint in words: exact (4x4, 5x5) or the engine's estimate (ultimate)."""
    if hint.exact:
        return exact_hint_text(game, hint, tr)
    return estimated_hint_text(game, hint, tr)
