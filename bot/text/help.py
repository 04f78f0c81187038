"""/ttt help: the rules, the cell numbers, what "states evaluated" means, the review labels, levels and ratings."""

from __future__ import annotations

from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.records.stats import LEADERBOARD_MAX_DEVIATION, LEADERBOARD_MIN_GAMES
from bot.text.grid import board_grid
from engine import DEFAULT_VARIANT, VARIANTS, variant
from engine.review import BLUNDER_POINTS, INACCURACY_POINTS, MISTAKE_POINTS

__all__ = ["MAX_HELP", "help_text"]

MAX_HELP = 4096
"""The longest help (characters): Discord's limit of an embed's description, which carries it."""


def help_text(tr: Lang | None = None) -> str:
    """Rules, the cell numbering and what "states evaluated" means: at most :data:`MAX_HELP` characters in every
    language."""
    tr = tr or lang(None)
    return "\n".join(
        [
            tr(N_("**Tic-tac-toe** — get three in a row (across, down or diagonally). X moves first.")),
            tr(N_("Cells are numbered like a phone keypad:")),
            board_grid(variant(DEFAULT_VARIANT).game.initial_state()),
            tr(
                N_(
                    "`/ttt start` plays the bot (or challenges `opponent`); press a cell or use "
                    "`/ttt move cell:<1-9>`. Also: `/ttt hint`, resign, board, review, stats, rating, leaderboard."
                )
            ),
            tr(
                N_(
                    "**States evaluated:** the positions the bot's search visited below the current one. *Minimax* "
                    "visits every position to the end of the game (549,945 from the empty board); *Alpha-beta* "
                    "returns the same move but *prunes* branches that cannot change it."
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
            *_by_column(tr),
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
                    "**Levels** (`level:` 1-8): lower levels look fewer moves ahead. Level 8 is full strength, "
                    "unbeatable on 3x3, 4x4 and 5x5 (not on ultimate). Their ratings were measured against fixed "
                    "reference players."
                )
            ),
            tr(
                N_(
                    "**Ratings** (Glicko-2, per game): a game against the bot rates you against its level; resigning "
                    "or timing out loses, and wins against a low level gain less and less. Games between people are "
                    "rated apart. `/ttt rating`: yours (1500 ± 350 at first); `/ttt leaderboard`: {games}+ games, "
                    "± {deviation} or less."
                ),
                games=LEADERBOARD_MIN_GAMES,
                deviation=round(LEADERBOARD_MAX_DEVIATION),
            ),
        ]
    )


def _by_column(tr: Lang) -> list[str]:
    """A line on the games played by column (:meth:`engine.Variant.columns`), named as ``/ttt start variant:`` takes
    them, with their descriptions; none when no such game is registered."""
    games = [kind for kind in VARIANTS.values() if kind.columns(kind.game.initial_state())]
    if not games:
        return []
    named = "; ".join(f"`{kind.name}`: {tr(kind.description)}" for kind in games)
    return [
        tr(
            N_(
                "**Played by column** ({games}): a disc falls to the lowest empty cell of its column. Press a column's "
                "button, or `/ttt move cell:4` (or `d`)."
            ),
            games=named,
        )
    ]
