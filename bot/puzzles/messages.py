"""What the puzzle service says: English message ids (gettext msgids) with ``str.format`` placeholders, for its
refusals and for the lines of a puzzle's message. The Discord layer translates them by the interaction's locale.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import N_

__all__ = [
    "DAILY",
    "DAILY_DONE",
    "DAILY_FAILED",
    "DAILY_OPEN",
    "DAILY_SOLVED",
    "ILLEGAL",
    "NOT_YOURS",
    "OVER",
    "RATED",
    "RECORDS_DOWN",
    "REFUTED",
    "RIGHT",
    "SLOWER",
    "SOLUTION",
    "SOLVED",
    "STALE",
    "UNRATED",
    "UNRATED_SLOWER",
    "WRONG",
    "Term",
]

RECORDS_DOWN = N_("The records database is unavailable right now — try the puzzle again soon.")
NOT_YOURS = N_("Only {owner} can move in this puzzle — /ttt puzzle gives you one of your own.")
OVER = N_("This puzzle is over — /ttt puzzle gives you a new one.")
STALE = N_("That button is from an earlier move of this puzzle.")
ILLEGAL = N_("That move cannot be played here.")
DAILY_DONE = N_("You already tried today's daily puzzle ({result}); {solvers} solved it so far. Come back tomorrow!")
DAILY_OPEN = N_("You already started today's daily puzzle: finish it on its board. One try a day!")
DAILY_SOLVED, DAILY_FAILED = N_("solved"), N_("not solved")
DAILY = N_("📅 Daily puzzle of {day} · solved by {solvers} so far")
RIGHT = N_("✅ {cell} is right. The engine answers {reply}: find the next move.")
SOLVED = N_("🎉 Solved! {cell} wins.")
WRONG = N_("❌ {cell} does not win in time.")
REFUTED = N_("❌ {cell} does not win in time: the engine answers {reply}.")
SOLUTION = N_("The solution: {line}")
RATED = N_("Your puzzle rating: {before} → {after}")
UNRATED = N_("Not rated: you had tried this puzzle before.")
SLOWER = N_("🐢 {cell} wins too, but in {slower}: find the win in {n}. Try again; this attempt is no longer rated.")
UNRATED_SLOWER = N_("Not rated: you had found a slower win first.")


@dataclass(frozen=True, slots=True)
class Term:
    """A message's value that is itself a message id, translated with the message (``DAILY_SOLVED``...)."""

    key: str
