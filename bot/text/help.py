"""/ttt help: the rules, the cell numbers, what "states evaluated" means, the review labels and the leaderboard."""

from __future__ import annotations

from bot.games.hints import BLUNDER_POINTS, INACCURACY_POINTS, MISTAKE_POINTS
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.board import board_grid
from engine import State

__all__ = ["help_text"]


def help_text(tr: Lang | None = None) -> str:
    """Rules, the cell numbering and what "states evaluated" means."""
    tr = tr or lang(None)
    return "\n".join(
        [
            tr(N_("**Tic-tac-toe** — get three in a row (across, down or diagonally). X moves first.")),
            tr(N_("Cells are numbered like a phone keypad:")),
            board_grid(State()),
            tr(
                N_(
                    "`/ttt start` plays the bot (or challenges `opponent`); press a cell or use "
                    "`/ttt move cell:<1-9>`. `/ttt hint`, `/ttt resign`, `/ttt board` (post it again), "
                    "`/ttt review` (a finished game, move by move), `/ttt stats`, `/ttt leaderboard`."
                )
            ),
            tr(
                N_(
                    "**States evaluated:** the bot searches the game tree. *Minimax* visits every position to the "
                    "end of the game (549,945 from the empty board). *Alpha-beta* returns the same move but "
                    "*prunes* branches that cannot change the result, so it evaluates far fewer; the count is every "
                    "position the search visited below the current one."
                )
            ),
            tr(
                N_(
                    "**Review labels:** *best* keeps the best outcome; *slower* keeps a win but makes it slower; "
                    "an *inaccuracy* keeps a loss but lets it come sooner; a *mistake* turns a win into a draw; "
                    "a *blunder* turns a win or a draw into a loss."
                )
            ),
            tr(
                N_(
                    "**Other games** (`/ttt start variant:`): 4x4 and 5x5, four in a row; ultimate, nine small boards: "
                    "your cell sends your opponent to the small board in the same place; win three in a row. Cells "
                    "are coordinates, a1 top left (`/ttt move cell:b3`)."
                )
            ),
            tr(
                N_(
                    "**Ultimate's hints and reviews are estimates** of the expected score (a draw counts half), "
                    "unless proved: {blunder}+ points (of 100) below the best move found is a *blunder*, "
                    "{mistake}+ a *mistake*, {inaccuracy}+ an *inaccuracy*."
                ),
                blunder=BLUNDER_POINTS,
                mistake=MISTAKE_POINTS,
                inaccuracy=INACCURACY_POINTS,
            ),
            tr(
                N_(
                    "**Leaderboard:** nobody can beat the bot at unbeatable, so against the bot players rank by "
                    "draws at unbeatable, then by fewest losses there. Against people they rank by wins, then by "
                    "fewest losses. Abandoned, declined and expired games do not count."
                )
            ),
        ]
    )
