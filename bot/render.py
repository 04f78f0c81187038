"""Pure functions from a game to what people see: message text, a text grid, button faces.

Nothing here talks to Discord; ``who`` callbacks turn a player id (``None`` for the bot) into a
name, so the same text serves Discord (``<@id>`` mentions) and the console ("you", "the bot").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from discord.enums import ButtonStyle

from bot.sessions import AIMove, Session
from bot.stats import PlayerStats, Record
from engine import Analysis, Mark, State, winning_cells

__all__ = [
    "BOARD_CHANGED",
    "CELL_TAKEN",
    "ERROR",
    "GAME_OVER",
    "MARK_EMOJI",
    "NOT_YOUR_GAME",
    "NOT_YOUR_TURN",
    "NO_GAME",
    "STALE_BOARD",
    "ButtonFace",
    "Who",
    "ai_line",
    "board_grid",
    "cell_face",
    "challenge_text",
    "discord_who",
    "format_elapsed",
    "help_text",
    "hint_text",
    "message_text",
    "moved_text",
    "plain",
    "result_line",
    "stats_text",
]

Who = Callable[[int | None], str]

MARK_EMOJI = {Mark.X: "\N{CROSS MARK}", Mark.O: "\N{HEAVY LARGE CIRCLE}"}
MARK_STYLE = {Mark.X: ButtonStyle.danger, Mark.O: ButtonStyle.primary}

NOT_YOUR_GAME = "This isn't your game — start your own with /ttt start"
NOT_YOUR_TURN = "Not your turn"
CELL_TAKEN = "That cell is taken — pick an empty one"
GAME_OVER = "This game is over"
BOARD_CHANGED = "The board changed before your move arrived — look again and retry"
STALE_BOARD = "This board is out of date — use the latest board (/ttt board shows it)"
NO_GAME = "No game is running in this channel — start one with /ttt start"
ERROR = "Sorry, something went wrong on my side. The game is unchanged; /ttt board shows it."


def discord_who(user_id: int | None) -> str:
    """A mention for a user (rendered, never pinging: we send with ``AllowedMentions.none()``), or "the bot"."""
    return "the bot" if user_id is None else f"<@{user_id}>"


@dataclass(frozen=True, slots=True)
class ButtonFace:
    """How one cell button looks."""

    label: str | None
    emoji: str | None
    style: ButtonStyle
    disabled: bool


def cell_face(state: State, cell: int, *, finished: bool) -> ButtonFace:
    """The face of ``cell``: its mark or number; the winning line green; everything disabled when ``finished``."""
    return _cell_faces(state, finished)[cell]


@lru_cache(maxsize=4096)
def _cell_faces(state: State, finished: bool) -> tuple[ButtonFace, ...]:
    """All nine faces at once (a board is drawn on every move; there are only 5,478 positions)."""
    won = winning_cells(state)
    faces = []
    for cell in range(9):
        mark = state[cell]
        if mark is None:
            faces.append(ButtonFace(label=str(cell + 1), emoji=None, style=ButtonStyle.secondary, disabled=finished))
        else:
            style = ButtonStyle.success if cell in won else MARK_STYLE[mark]
            faces.append(ButtonFace(label=None, emoji=MARK_EMOJI[mark], style=style, disabled=True))
    return tuple(faces)


def board_grid(state: State) -> str:
    """An aligned monospace grid in a code block: marks, and the numbers (1-9) of empty cells."""

    def row(r: int) -> str:
        return "│".join(f" {m.value if (m := state[3 * r + c]) else 3 * r + c + 1} " for c in range(3))

    divider = "───┼───┼───"
    return "```\n" + f"\n{divider}\n".join(row(r) for r in range(3)) + "\n```"


def format_elapsed(seconds: float) -> str:
    """``0.0023`` → ``"2.3 ms"``; ``0.00004`` → ``"0.04 ms"``; ``1.5`` → ``"1.50 s"``."""
    ms = seconds * 1000.0
    if ms < 1:
        return f"{ms:.2f} ms"
    return f"{ms:,.1f} ms" if ms < 1000 else f"{seconds:,.2f} s"


def ai_line(ai: AIMove) -> str:
    """``"O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"`` (cells shown 1-9)."""
    text = f"{ai.mark.value} played {ai.cell + 1} · {ai.algorithm} evaluated {ai.states:,} states in "
    text += format_elapsed(ai.elapsed)
    if ai.random:
        text += " (then played a random move, as its difficulty allows)"
    return text


def _side(session: Session, mark: Mark, who: Who) -> str:
    return f"{MARK_EMOJI[mark]} {who(session.player_id(mark))}"


def result_line(session: Session, who: Who = discord_who) -> str:
    """How the game ended, plus the bot's total states for the game."""
    reason = session.end_reason
    if reason == "win":
        won = session.winner
        assert won is not None
        text = f"{_side(session, won, who)} wins!"
    elif reason == "draw":
        text = "It's a draw."
    elif reason == "resigned":
        loser = session.resigned
        assert loser is not None
        text = f"{who(session.player_id(loser))} resigned — {_side(session, loser.other, who)} wins."
    elif reason == "abandoned":
        text = "Game abandoned: nobody moved in time."
    else:
        text = "Game over."
    if session.vs_bot and session.ai_moves:
        moves = "move" if session.ai_moves == 1 else "moves"
        text += f" The bot evaluated {session.ai_states:,} states over {session.ai_moves} {moves}."
    return text


def _header(session: Session, who: Who) -> str:
    text = f"**Tic-tac-toe** · {_side(session, Mark.X, who)} vs {_side(session, Mark.O, who)}"
    if session.vs_bot:
        text += f" · {session.difficulty.value} · {session.algorithm}"
    return text


def message_text(session: Session, who: Who = discord_who, *, commands: bool = True) -> str:
    """The board message: header, the bot's last move, whose turn it is or the result; a grid in text mode.

    ``commands`` adds the ``/ttt move`` reminder under a text board (not wanted in the console).
    """
    lines = [_header(session, who)]
    if session.last_ai is not None:
        lines.append(ai_line(session.last_ai))
    if session.over:
        lines.append(result_line(session, who))
    else:
        mark = session.to_move
        lines.append(f"{_side(session, mark, who)} to move ({mark.value}).")
    if session.mode == "text":
        lines.append(board_grid(session.state))
        if commands and not session.over:
            lines.append("Play with `/ttt move cell:<1-9>`.")
    return "\n".join(lines)


def challenge_text(session: Session, challenger: int, challenged: int, seconds: float, who: Who = discord_who) -> str:
    """The prompt a challenged user sees with Accept/Decline."""
    mark = session.mark_of(challenged)
    assert mark is not None
    return (
        f"{who(challenged)}, {who(challenger)} challenges you to tic-tac-toe! "
        f"You would play {MARK_EMOJI[mark]} {mark.value} ({'first' if mark is Mark.X else 'second'}). "
        f"Accept within {seconds:.0f} s."
    )


def moved_text(jump_url: str | None) -> str:
    """What an old board says once the board has been posted again."""
    return f"This board moved: {jump_url}" if jump_url else "This board moved further down."


def hint_text(analysis: Analysis) -> str:
    """Every free cell's outcome with best play, and what alpha-beta and plain minimax evaluate from here."""
    best = {m.cell for m in analysis.best}
    lines = [f"**Hint for {MARK_EMOJI[analysis.to_move]} {analysis.to_move.value}** (best play from both sides):"]
    for move in analysis.moves:
        plies = "ply" if move.plies == 1 else "plies"
        star = " ★" if move.cell in best else ""
        lines.append(f"`{move.cell + 1}` {move.outcome} in {move.plies} {plies}{star}")
    lines.append(
        f"From here alpha-beta evaluates {analysis.alphabeta_states:,} states; "
        f"plain minimax evaluates {analysis.minimax_states:,}."
    )
    return "\n".join(lines)


def _record(record: Record) -> str:
    return f"{record.wins} W · {record.draws} D · {record.losses} L"


def stats_text(name: str, stats: PlayerStats) -> str:
    """A user's records (since the bot last started)."""
    return f"**{name}**\nvs the bot: {_record(stats.vs_bot)}\nvs people: {_record(stats.vs_people)}"


def help_text() -> str:
    """Rules, the cell numbering and what "states evaluated" means."""
    return "\n".join(
        [
            "**Tic-tac-toe** — get three in a row (across, down or diagonally). X moves first.",
            "Cells are numbered like a phone keypad:",
            board_grid(State()),
            "`/ttt start` plays the bot (or challenges `opponent`); press a cell or use `/ttt move cell:<1-9>`. "
            "`/ttt hint`, `/ttt resign`, `/ttt board` (post it again), `/ttt stats`.",
            "**States evaluated:** the bot searches the game tree. *Minimax* visits every position to the end "
            "of the game (549,945 from the empty board). *Alpha-beta* returns the same move but *prunes* "
            "branches that cannot change the result, so it evaluates far fewer; the count is every position "
            "the search visited below the current one.",
        ]
    )


def plain(text: str) -> str:
    """Discord markdown as terminal text: code fences dropped, bold and inline-code marks removed."""
    kept = [line for line in text.splitlines() if line.strip() != "```"]
    return "\n".join(kept).replace("**", "").replace("`", "")
