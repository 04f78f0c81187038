"""Reading an ultimate board the way a player does, from the message Discord stores: its buttons' ids and text.

Ultimate's button ids (``ttt:u:<kind>:<game>:<version>`` on the board, ``ttt:up:...`` on a player's private pad)
name the button's kind (a cell ``0``-``80``, a small board ``p0``-``p8``, ``k`` Back, ``r`` Resign, ``n`` Rematch),
the game and its version (the ply the board shows). :data:`REF` and :data:`PAD` are the only places here that know
that layout (adapt them when it changes).
"""

from __future__ import annotations

import re
from typing import Any

from testing.boards import nested

__all__ = ["PAD", "REDUCED", "REF", "is_over", "pressable", "shows_bot_move", "text_of", "version"]

REF = re.compile(r"ttt:u:(?P<kind>\d{1,2}|[rnk]|p[0-8]):(?P<game>[0-9a-z]+):(?P<version>\d+)")
PAD = re.compile(r"ttt:up:(?P<kind>\d{1,2}|k|p[0-8]):(?P<game>[0-9a-z]+):(?P<version>\d+)")
KINDS = {"cell": r"\d{1,2}", "pick": r"p[0-8]", "back": "k", "resign": "r", "rematch": "n"}
REDUCED = "a shorter search than usual"
"""In the bot's move line when its search had a reduced budget (English: the fake's default locale)."""


def pressable(message: dict[str, Any], kind: str) -> list[str]:
    """The custom_ids of the enabled ultimate buttons of ``kind`` on ``message`` (a board or a private pad): ``cell``
    (a cell of the pad), ``pick`` (an open small board), ``back``, ``resign`` or ``rematch``."""
    return [
        b["custom_id"]
        for b in nested(message.get("components") or [])
        if b.get("type") == 2
        and not b.get("disabled")
        and (m := REF.fullmatch(b.get("custom_id", "")) or PAD.fullmatch(b.get("custom_id", "")))
        and re.fullmatch(KINDS[kind], m["kind"])
    ]


def version(message: dict[str, Any]) -> int | None:
    """The game's version (its ply) the board's buttons carry; ``None`` when it has no ultimate button."""
    found = [
        int(m["version"])
        for b in nested(message.get("components") or [])
        if (m := REF.fullmatch(b.get("custom_id", "")))
    ]
    return max(found, default=None)


def text_of(message: dict[str, Any]) -> str:
    """The text displays of a Components V2 message, joined by newlines."""
    return "\n".join(c["content"] for c in nested(message.get("components") or []) if c.get("type") == 10)


def is_over(message: dict[str, Any]) -> bool:
    """Whether the board shows a finished game: it has no Resign button (the bot thinking disables the cells only)."""
    return not pressable(message, "resign")


def shows_bot_move(message: dict[str, Any], pressed_at: int) -> bool:
    """Whether ``message`` shows the bot's answer to a move pressed at version ``pressed_at``: its version is two
    past it (the player's ply and the bot's), or the game is over."""
    now = version(message)
    return now is not None and (now >= pressed_at + 2 or (now > pressed_at and is_over(message)))
