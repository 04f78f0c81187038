"""/ttt help: every registered game and how to play it, every command and button, what "states evaluated" means, the
review labels, levels and ratings.

Built from what is registered, never from a list written here: the games are :data:`engine.VARIANTS`, each described
by its own answers (title, description, how its moves are made: :meth:`engine.Variant.columns` a button per column,
:attr:`engine.Variant.block` a picture and a pad, else a button per cell; :meth:`engine.Variant.cell_label` how moves
are typed; whether its level 8 is perfect); the commands are the ones the bot syncs, with the names Discord shows the
reader (:mod:`bot.text.commands`); the buttons are named with the labels the views draw (:mod:`bot.text.labels`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.games.levels import beatable_side, is_unbeatable
from bot.i18n import N_
from bot.i18n.catalogs import format_list
from bot.i18n.lang import Lang, lang
from bot.records.stats import LEADERBOARD_MAX_DEVIATION, LEADERBOARD_MIN_GAMES
from bot.text import labels
from bot.text.commands import CommandNames
from bot.text.discs import piece, played_by_column
from engine import BLUNDER_POINTS, INACCURACY_POINTS, MISTAKE_POINTS, TOP_LEVEL, VARIANTS, Mark, Variant

__all__ = [
    "MAX_DESCRIPTION",
    "MAX_EMBED",
    "MAX_FIELDS",
    "MAX_FIELD_NAME",
    "MAX_FIELD_VALUE",
    "HelpPage",
    "help_page",
]

MAX_DESCRIPTION: Final = 4096
"""Discord's limit of an embed's description, characters."""
MAX_FIELDS: Final = 25
"""Discord's limit of an embed's fields."""
MAX_FIELD_NAME: Final = 256
"""Discord's limit of a field's name, characters."""
MAX_FIELD_VALUE: Final = 1024
"""Discord's limit of a field's value, characters."""
MAX_EMBED: Final = 6000
"""Discord's limit of all of an embed's text (title, description, field names and values...), characters."""

BY_CELL = N_("Press a free cell, or type `{move}` and a cell from {first} (top left) to {last}.")
BY_COLUMN = N_(
    "Press a column's button, or type `{move}` and a column from {first} (left) to {last}: the disc falls to the "
    "lowest empty cell."
)
BY_PAD = N_(
    "The board is a picture: press a cell on the pad below it, which shows the small board you must play in (on a free "
    "choice, pick a small board first), or type `{move}` and a cell from {first} (top left) to {last}. The board says "
    "which small board the next move goes to."
)
NAMED_CELLS = N_("The cells are named like this:")
SIDES = N_("{x} moves first, then {o}.")
ALGORITHMS = N_("My search is yours to pick with `{algorithm}`: {algorithms}.")
PERFECT = N_("Level 8 plays perfectly and never loses.")
PERFECT_BEATABLE = N_("Level 8 plays perfectly, but best play wins for {winner}: it can only lose as {loser}.")
RATINGS = N_(
    "**Ratings** (Glicko-2, per game): a game against the bot rates you against its level; resigning or timing out "
    "loses, and wins against a low level gain less and less. Games between people are rated apart. `{rating}`: yours "
    "(1500 ± 350 at first); `{leaderboard}`: {games}+ games, ± {deviation} or less."
)
ESTIMATED = N_("Level 8 is my strongest search, not perfect play: its moves, hints and reviews are estimates.")


@dataclass(frozen=True, slots=True)
class HelpPage:
    """The help as one embed: ``description`` (the commands, buttons and what every game shares) and ``fields``, one
    ``(name, value)`` per registered game."""

    description: str
    fields: tuple[tuple[str, str], ...]

    def size(self) -> int:
        """All its text as Discord counts it against :data:`MAX_EMBED`, characters."""
        return len(self.description) + sum(len(name) + len(value) for name, value in self.fields)


def help_page(commands: CommandNames, tr: Lang | None = None) -> HelpPage:
    """The help in ``tr``'s language, naming the commands as ``commands`` shows them (the reader's locale): within
    Discord's embed limits (:data:`MAX_EMBED`...) in every language with the built-in games.

    Raises:
        KeyError: ``commands`` lacks ``/ttt start`` or ``/ttt move`` (the /ttt cog's own) or one of their options; the
            ratings' line is left out without ``/ttt rating`` and ``/ttt leaderboard`` (the record commands' cog).
    """
    tr = tr or lang(None)
    return HelpPage(_general(commands, tr), tuple(_game(kind, commands, tr) for kind in VARIANTS.values()))


def _general(commands: CommandNames, tr: Lang) -> str:
    """What every game shares: how to start, the commands, the buttons, states, review labels, estimates, levels,
    ratings."""

    def option(name: str) -> str:
        return commands.option("start", name)

    estimated = [tr(kind.title) for kind in VARIANTS.values() if not kind.exact]
    lines = [
        tr(
            N_(
                "**How to play:** `{start}` plays me, or challenges someone with `{opponent}`. Pick the game with "
                "`{variant}` (each is below), my strength with `{level}`, and a text board with `{board}`, played by "
                "typing `{move}`."
            ),
            start=commands("start"),
            opponent=option("opponent"),
            variant=option("variant"),
            level=option("level"),
            board=f"{option('board')} {tr(N_('text'))}",
            move=commands("move", "cell"),
        ),
        tr(N_("**Commands**")),
        *(f"`{commands(command.name)}` — {command.description}" for command in commands.commands),
        tr(
            N_(
                "**Buttons:** **{resign}** ends the game as your loss. **{thinking}** privately shows how my search "
                "saw the position, after my move and under a hint, where it can be drawn. **{rematch}**, once the game "
                "is over, plays it again with the sides swapped. **{accept}** or **{decline}** answers a challenge. "
                "**{back}** on a pad returns to the choice of a small board."
            ),
            resign=tr(labels.RESIGN),
            thinking=tr(labels.THINKING),
            rematch=tr(labels.REMATCH),
            accept=tr(labels.ACCEPT),
            decline=tr(labels.DECLINE),
            back=tr(labels.BACK),
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
    ]
    if estimated:
        lines.append(
            tr(
                N_(
                    "**Estimates** ({games}): hints and reviews give the expected score (a draw counts half) unless "
                    "proved: {blunder}+ points (of 100) below the best move found is a *blunder*, {mistake}+ a "
                    "*mistake*, {inaccuracy}+ an *inaccuracy*."
                ),
                games=format_list(estimated, tr.locale),
                blunder=BLUNDER_POINTS,
                mistake=MISTAKE_POINTS,
                inaccuracy=INACCURACY_POINTS,
            )
        )
    lines.append(
        tr(
            N_(
                "**Levels** (`{level}` 1-8): lower levels look fewer moves ahead; each game says what level 8 does. "
                "Their ratings were measured against fixed reference players."
            ),
            level=option("level"),
        )
    )
    if {"rating", "leaderboard"} <= set(commands.names()):  # the record commands (a cog of their own) are loaded
        lines.append(
            tr(
                RATINGS,
                rating=commands("rating"),
                leaderboard=commands("leaderboard"),
                games=LEADERBOARD_MIN_GAMES,
                deviation=round(LEADERBOARD_MAX_DEVIATION),
            )
        )
    return "\n".join(lines)


def _game(kind: Variant, commands: CommandNames, tr: Lang) -> tuple[str, str]:
    """A game's field: its title, then its description, how its moves are made, its sides and what its level 8 does,
    each asked of the game."""
    state = kind.game.initial_state()
    discs = played_by_column(kind, state)
    move = commands("move", "cell")
    lines = [tr(kind.description)]
    if discs:
        lines.append(tr(BY_COLUMN, move=move, first=kind.cell_label(0), last=kind.cell_label(kind.width - 1)))
    else:
        how = BY_PAD if kind.block else BY_CELL
        lines.append(tr(how, move=move, first=kind.cell_label(0), last=kind.cell_label(kind.cells - 1)))
        if any(kind.cell_label(cell) != kind.cell_name(cell) for cell in range(kind.cells)):
            lines.append(tr(NAMED_CELLS) + "\n```\n" + kind.text_grid(state) + "\n```")
    lines.append(tr(SIDES, x=piece(Mark.X, tr, discs=discs), o=piece(Mark.O, tr, discs=discs)))
    if len(kind.algorithms) > 1:
        names = format_list([tr(kind.search_name(a)) for a in kind.algorithms], tr.locale, alternatives=True)
        lines.append(tr(ALGORITHMS, algorithm=commands.option("start", "algorithm"), algorithms=names))
    lines.append(_top_level(kind, discs, tr))
    return tr(kind.title), "\n".join(lines)


def _top_level(kind: Variant, discs: bool, tr: Lang) -> str:
    """What level 8 does on ``kind``: perfect play that never loses, perfect play that loses as the side best play
    beats (a game solved as a win), or the strongest search (an estimated game)."""
    if is_unbeatable(kind.name, TOP_LEVEL):
        return tr(PERFECT)
    loser = beatable_side(kind.name)
    if kind.exact and loser is not None:
        return tr(PERFECT_BEATABLE, winner=piece(loser.other, tr, discs=discs), loser=piece(loser, tr, discs=discs))
    return tr(ESTIMATED)
