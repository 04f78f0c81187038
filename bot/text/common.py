"""What every text shares: how a player is named (``Who``), the marks' emoji, the names of games, levels, algorithms
and outcomes, what a search proved, durations, and Discord markdown as terminal text."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.games.levels import is_unbeatable, rating_of
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from engine import Mark, ValueKind, Variant

__all__ = [
    "ERROR",
    "MARK_EMOJI",
    "OUTCOME_NAMES",
    "Who",
    "deciding_line",
    "discord_who",
    "escaped",
    "format_elapsed",
    "in_code",
    "level_name",
    "plain",
    "proven_text",
]

Who = Callable[[int | None], str]


MARK_EMOJI = {Mark.X: "\N{CROSS MARK}", Mark.O: "\N{HEAVY LARGE CIRCLE}"}


ERROR = N_("Sorry, something went wrong on my side. The game is unchanged; /ttt board shows it.")


OUTCOME_NAMES = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}


def proven_text(result: ValueKind, plies: int | None, tr: Lang) -> str:
    """``"(proved: win in 7 plies)"``; without the distance (not measured, or a draw) ``"(proved: draw)"``."""
    if plies is None or result == "draw":
        return tr(N_("(proved: {outcome})"), outcome=tr(OUTCOME_NAMES[result]))
    return tr.plural(
        "(proved: {outcome} in {plies} ply)",
        "(proved: {outcome} in {plies} plies)",
        plies,
        outcome=tr(OUTCOME_NAMES[result]),
        plies=plies,
    )


def level_name(variant: str, level: int, tr: Lang | None = None, side: Mark | None = None) -> str:
    """A level with its rating in ``variant``: ``"level 5 (1450)"``, and on a solved game level 8
    ``"level 8 (1610, unbeatable)"`` where it cannot lose as ``side`` (the bot's mark; ``None``: as either side).
    """
    tr = tr or lang(None)
    rating = rating_of(variant, level)
    if is_unbeatable(variant, level, side):
        return tr(N_("level {level} ({rating}, unbeatable)"), level=level, rating=rating)
    return tr(N_("level {level} ({rating})"), level=level, rating=rating)


def discord_who(user_id: int | None, tr: Lang | None = None) -> str:
    """A mention for a user (rendered, never pinging: messages go out with ``AllowedMentions.none()``), or
    "the bot"."""
    return (tr or lang(None))(N_("the bot")) if user_id is None else f"<@{user_id}>"


def escaped(text: str, limit: int = 40) -> str:
    """What someone typed, shown as they typed it: Discord's markdown and mentions escaped, on one line, at most
    ``limit`` characters (never inside a code span, where nothing can be escaped)."""
    line = " ".join(text.split())[:limit]
    return re.sub(r"([\\*_~`|>\[\]])", r"\\\1", line).replace("@", "@\u200b")


def in_code(text: str, limit: int = 40) -> str:
    """What someone typed, for a code span: on one line, without the backticks that would end it,
    at most ``limit`` characters."""
    return " ".join(text.replace("`", "'").split())[:limit]


def format_elapsed(seconds: float, tr: Lang | None = None) -> str:
    """``0.0023`` → ``"2.3 ms"``; ``0.00004`` → ``"0.04 ms"``; ``1.5`` → ``"1.50 s"`` (German: ``"2,3 ms"``)."""
    tr = tr or lang(None)
    ms = seconds * 1000.0
    if ms < 1:
        return f"{tr.decimal(ms, 2)} ms"
    if ms < 1000:
        return f"{tr.decimal(ms, 1)} ms"
    return f"{tr.decimal(seconds, 2)} s"


def plain(text: str) -> str:
    """Discord markdown as terminal text: code fences dropped, bold and inline-code marks removed."""
    kept = [line for line in text.splitlines() if line.strip() != "```"]
    return "\n".join(kept).replace("**", "").replace("`", "")


def deciding_line(kind: Variant, state: Any) -> tuple[frozenset[int], bool]:
    """The cells of the line that decided ``kind``'s game in ``state`` (:meth:`engine.Variant.deciding_line`), and
    True when that line lost it: its pieces are not the winner's (a misère game), so a board paints it as a loss."""
    cells, winner = kind.deciding_line(state)
    return cells, winner is not None and any(kind.mark(state, cell) is not winner for cell in cells)
