"""The labels of the bot's buttons (gettext message ids): the views draw the buttons with them and ``/ttt help``
names the buttons with them, so both say the same words in every language. Pure text: no ``discord`` import."""

from __future__ import annotations

from bot.i18n import N_

__all__ = ["ACCEPT", "BACK", "DECLINE", "REMATCH", "RESIGN", "THINKING"]

RESIGN = N_("Resign")
"""Under a running game: resign it."""
THINKING = N_("How did it think?")
"""Under a board after the bot's move, and under a hint: the search behind it, drawn privately."""
REMATCH = N_("Rematch")
"""Under a finished game: the same game again, sides swapped."""
ACCEPT = N_("Accept")
"""Under a challenge: take it up."""
DECLINE = N_("Decline")
"""Under a challenge: turn it down."""
BACK = N_("Back")
"""On a pad of small boards (a free choice's private pad, a puzzle's): back to the choice of a small board."""
