"""Pure functions from a game to what people see: message text, a text grid, button faces.

Nothing here talks to Discord. Text goes through a :class:`Lang` (a gettext catalog and a number
format), and ``who`` turns a player id (``None`` for the bot) into a name, so the same text serves
Discord (``<@id>`` mentions, sent without pings) and the console ("you", "the bot").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from discord.enums import ButtonStyle

from bot import i18n
from bot.games.game import AIMove, Game
from bot.games.service import Player
from bot.i18n import N_
from bot.records import Difficulty as RecordDifficulty
from bot.records import FinishedGame, Leaderboard, Record, UserStats
from engine import Analysis, Difficulty, GameValue, Mark, PlyReview, SideSummary, State, summary, winning_cells

__all__ = [
    "ERROR",
    "MARK_EMOJI",
    "ButtonFace",
    "Lang",
    "Who",
    "ai_line",
    "board_grid",
    "bot_record_text",
    "cell_faces",
    "challenge_text",
    "declined_text",
    "discord_who",
    "expired_text",
    "format_elapsed",
    "help_text",
    "hint_text",
    "lang",
    "leaderboard_text",
    "message_text",
    "moved_text",
    "plain",
    "refusal_text",
    "result_line",
    "review_text",
    "stats_text",
]

Who = Callable[[int | None], str]

MARK_EMOJI = {Mark.X: "\N{CROSS MARK}", Mark.O: "\N{HEAVY LARGE CIRCLE}"}
MARK_STYLE = {Mark.X: ButtonStyle.danger, Mark.O: ButtonStyle.primary}

ERROR = N_("Sorry, something went wrong on my side. The game is unchanged; /ttt board shows it.")
DIFFICULTY_NAMES = {
    Difficulty.EASY: N_("easy"),
    Difficulty.MEDIUM: N_("medium"),
    Difficulty.UNBEATABLE: N_("unbeatable"),
}
ALGORITHM_NAMES = {"alpha-beta": N_("alpha-beta"), "minimax": N_("minimax")}
OUTCOME_NAMES = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}


class Lang:
    """One locale's catalog (gettext) and number format; ``None`` is English."""

    def __init__(self, locale: str | None) -> None:
        self.locale = locale
        self._catalog = i18n.translation(locale)

    def __call__(self, message: str, /, **values: object) -> str:
        """``message`` translated, with its ``{placeholders}`` filled from ``values``."""
        text = self._catalog.gettext(message)
        return text.format(**values) if values else text

    def plural(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """The singular or plural form for ``count`` (the locale's plural rule), placeholders filled."""
        return self._catalog.ngettext(singular, plural, count).format(**values)

    def number(self, value: int) -> str:
        """``value`` with the locale's digit grouping (``7,641`` in English)."""
        return i18n.format_number(value, self.locale)

    def decimal(self, value: float, places: int) -> str:
        """``value`` with ``places`` decimals and the locale's separators (``2.30`` / ``2,30``)."""
        return i18n.format_number(round(value, places), self.locale, places=places)


@lru_cache(maxsize=64)
def lang(locale: str | None) -> Lang:
    """The :class:`Lang` for a Discord locale code (cached)."""
    return Lang(locale)


def discord_who(user_id: int | None, tr: Lang | None = None) -> str:
    """A mention for a user (rendered, never pinging: messages go out with ``AllowedMentions.none()``), or
    "the bot"."""
    return (tr or lang(None))(N_("the bot")) if user_id is None else f"<@{user_id}>"


@dataclass(frozen=True, slots=True)
class ButtonFace:
    """How one cell button looks."""

    label: str | None
    emoji: str | None
    style: ButtonStyle
    disabled: bool


@lru_cache(maxsize=4096)
def cell_faces(state: State, finished: bool) -> tuple[ButtonFace, ...]:
    """The nine faces of a board, cells 0-8: each its mark or number, the winning line green, all disabled when
    ``finished`` (cached: a board is drawn on every move, and there are only 5,478 positions)."""
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


def format_elapsed(seconds: float, tr: Lang | None = None) -> str:
    """``0.0023`` → ``"2.3 ms"``; ``0.00004`` → ``"0.04 ms"``; ``1.5`` → ``"1.50 s"`` (German: ``"2,3 ms"``)."""
    tr = tr or lang(None)
    ms = seconds * 1000.0
    if ms < 1:
        return f"{tr.decimal(ms, 2)} ms"
    if ms < 1000:
        return f"{tr.decimal(ms, 1)} ms"
    return f"{tr.decimal(seconds, 2)} s"


def ai_line(ai: AIMove, tr: Lang | None = None) -> str:
    """``"O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"`` (cells shown 1-9)."""
    tr = tr or lang(None)
    text = tr.plural(
        "{mark} played {cell} · {algorithm} evaluated {states} state in {elapsed}",
        "{mark} played {cell} · {algorithm} evaluated {states} states in {elapsed}",
        ai.states,
        mark=ai.mark.value,
        cell=ai.cell + 1,
        algorithm=tr(ALGORITHM_NAMES[ai.algorithm]),
        states=tr.number(ai.states),
        elapsed=format_elapsed(ai.elapsed, tr),
    )
    if ai.random:
        text += " " + tr(N_("(then played a random move, as its difficulty allows)"))
    return text


def _side(game: Game, mark: Mark, who: Who) -> str:
    return f"{MARK_EMOJI[mark]} {who(game.player_id(mark))}"


def result_line(game: Game, who: Who | None = None, tr: Lang | None = None) -> str:
    """How the game ended, plus the bot's total states for the game."""
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    reason = game.end_reason
    won = game.winner
    if reason == "win" and won is not None:
        text = tr(N_("{side} wins!"), side=_side(game, won, who))
    elif reason == "draw":
        text = tr(N_("It's a draw."))
    elif reason == "resigned" and game.resigned is not None:
        loser = game.resigned
        text = tr(
            N_("{loser} resigned — {side} wins."), loser=who(game.player_id(loser)), side=_side(game, loser.other, who)
        )
    elif reason == "abandoned":
        text = tr(N_("Game abandoned: nobody moved in time."))
    else:
        text = tr(N_("Game over."))
    if game.vs_bot and game.ai_moves:
        text += " " + tr.plural(
            "The bot evaluated {states} states over {moves} move.",
            "The bot evaluated {states} states over {moves} moves.",
            game.ai_moves,
            states=tr.number(game.ai_states),
            moves=game.ai_moves,
        )
    return text


def _header(game: Game, who: Who, tr: Lang) -> str:
    text = tr(N_("**Tic-tac-toe** · {x} vs {o}"), x=_side(game, Mark.X, who), o=_side(game, Mark.O, who))
    if game.vs_bot:
        text += f" · {tr(DIFFICULTY_NAMES[game.difficulty])} · {tr(ALGORITHM_NAMES[game.algorithm])}"
    return text


def message_text(game: Game, who: Who | None = None, *, tr: Lang | None = None, commands: bool = True) -> str:
    """The board message: header, the bot's last move, whose turn it is or the result; a grid in text mode.

    ``commands`` adds the ``/ttt move`` reminder under a text board (not wanted in the console).
    """
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    lines = [_header(game, who, tr)]
    if game.last_ai is not None:
        lines.append(ai_line(game.last_ai, tr))
    if game.over:
        lines.append(result_line(game, who, tr))
        if commands and game.moves:
            lines.append(tr(N_("Game `{game_id}` · `/ttt review` shows every move's value."), game_id=game.game_id))
    else:
        mark = game.to_move
        lines.append(tr(N_("{side} to move ({mark})."), side=_side(game, mark, who), mark=mark.value))
    if game.mode == "text":
        lines.append(board_grid(game.state))
        if commands and not game.over:
            lines.append(tr(N_("Play with `/ttt move cell:<1-9>`.")))
    return "\n".join(lines)


def challenge_text(game: Game, seconds: float, tr: Lang | None = None) -> str:
    """The prompt a challenged user sees with Accept and Decline."""
    tr = tr or lang(None)
    challenged = game.challenged_id
    mark = game.mark_of(challenged) if challenged is not None else None
    if challenged is None or mark is None:
        raise ValueError(f"game {game.game_id} is not a challenge")
    challenger = game.player_id(mark.other)
    template = (
        N_(
            "{challenged}, {challenger} challenges you to tic-tac-toe! You would play {mark} first. "
            "Accept within {seconds} s."
        )
        if mark is Mark.X
        else N_(
            "{challenged}, {challenger} challenges you to tic-tac-toe! You would play {mark} second. "
            "Accept within {seconds} s."
        )
    )
    return tr(
        template,
        challenged=discord_who(challenged, tr),
        challenger=discord_who(challenger, tr),
        mark=f"{MARK_EMOJI[mark]} {mark.value}",
        seconds=f"{seconds:.0f}",
    )


def declined_text(game: Game, tr: Lang | None = None) -> str:
    """What a declined challenge's prompt says."""
    tr = tr or lang(None)
    return tr(N_("{user} declined the challenge."), user=discord_who(game.challenged_id, tr))


def expired_text(seconds: float, tr: Lang | None = None) -> str:
    """What an expired challenge's prompt says."""
    return (tr or lang(None))(N_("The challenge expired: no answer within {seconds} s."), seconds=f"{seconds:.0f}")


def moved_text(jump_url: str | None, tr: Lang | None = None) -> str:
    """What an old board says once the board has been posted again."""
    tr = tr or lang(None)
    return tr(N_("This board moved: {link}"), link=jump_url) if jump_url else tr(N_("This board moved further down."))


def refusal_text(key: str, values: Mapping[str, object], tr: Lang | None = None, who: Who | None = None) -> str:
    """A refusal from the game service in words: ``key`` translated, its values filled in (players as names,
    a missing link as "see above")."""
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    filled: dict[str, object] = {}
    for name, value in values.items():
        if isinstance(value, Player):
            filled[name] = who(value.user_id)
        elif name == "link" and value is None:
            filled[name] = tr(N_("see above"))
        else:
            filled[name] = value
    return tr(key, **filled)


def hint_text(analysis: Analysis, tr: Lang | None = None) -> str:
    """Every free cell's outcome with best play, and what alpha-beta and plain minimax evaluate from here."""
    tr = tr or lang(None)
    best = {m.cell for m in analysis.best}
    mark = analysis.to_move
    lines = [tr(N_("**Hint for {mark}** (best play from both sides):"), mark=f"{MARK_EMOJI[mark]} {mark.value}")]
    for move in analysis.moves:
        line = tr.plural(
            "`{cell}` {outcome} in {plies} ply",
            "`{cell}` {outcome} in {plies} plies",
            move.plies,
            cell=move.cell + 1,
            outcome=tr(OUTCOME_NAMES[move.outcome]),
            plies=move.plies,
        )
        lines.append(line + (" ★" if move.cell in best else ""))
    lines.append(
        tr(
            N_("From here alpha-beta evaluates {alpha_beta} states; plain minimax evaluates {minimax}."),
            alpha_beta=tr.number(analysis.alpha_beta_states),
            minimax=tr.number(analysis.minimax_states),
        )
    )
    return "\n".join(lines)


def _record(record: Record, tr: Lang) -> str:
    counts = {"wins": tr.number(record.wins), "draws": tr.number(record.draws), "losses": tr.number(record.losses)}
    return tr(N_("{wins} W · {draws} D · {losses} L"), **counts)


def stats_text(name: str, stats: UserStats, tr: Lang | None = None) -> str:
    """A user's wins, draws and losses against the bot and against people."""
    tr = tr or lang(None)
    return "\n".join(
        [
            f"**{name}**",
            tr(N_("vs the bot: {record}"), record=_record(stats.vs_bot, tr)),
            tr(N_("vs people: {record}"), record=_record(stats.vs_people, tr)),
        ]
    )


def bot_record_text(name: str, record: Mapping[RecordDifficulty, Record], tr: Lang | None = None) -> str:
    """The bot's own record per difficulty (its wins are the players' losses)."""
    tr = tr or lang(None)
    lines = [f"**{name}**"]
    for difficulty in Difficulty:
        games = record.get(difficulty.value, Record())
        lines.append(
            tr.plural(
                "{difficulty}: {games} game · {record}",
                "{difficulty}: {games} games · {record}",
                games.games,
                difficulty=tr(DIFFICULTY_NAMES[difficulty]),
                games=tr.number(games.games),
                record=_record(games, tr),
            )
        )
    unbeatable = record.get(Difficulty.UNBEATABLE.value, Record())
    if unbeatable.games and not unbeatable.losses:
        lines.append(tr(N_("Never beaten at unbeatable.")))
    return "\n".join(lines)


def leaderboard_text(board: Leaderboard, *, everywhere: bool, tr: Lang | None = None) -> str:
    """The top players against the bot (draws at unbeatable, then fewest losses there) and against people
    (wins, then fewest losses); names are mentions, sent without pings."""
    tr = tr or lang(None)
    title = tr(N_("**Leaderboard** · all servers")) if everywhere else tr(N_("**Leaderboard** · this server"))
    lines = [title, tr(N_("__Against the bot__ (draws at unbeatable, then fewest losses there)"))]
    for rank, bot_row in enumerate(board.vs_bot, 1):
        lines.append(
            tr(
                N_("{rank}. {user} · unbeatable: {unbeatable} · all levels: {record}"),
                rank=rank,
                user=discord_who(bot_row.user_id, tr),
                unbeatable=_record(bot_row.unbeatable, tr),
                record=_record(bot_row.record, tr),
            )
        )
    if not board.vs_bot:
        lines.append(tr(N_("No finished games yet.")))
    lines.append(tr(N_("__Against people__ (wins, then fewest losses)")))
    for rank, people_row in enumerate(board.vs_people, 1):
        lines.append(
            tr(
                N_("{rank}. {user} · {record}"),
                rank=rank,
                user=discord_who(people_row.user_id, tr),
                record=_record(people_row.record, tr),
            )
        )
    if not board.vs_people:
        lines.append(tr(N_("No finished games yet.")))
    return "\n".join(lines)


REVIEW_LABELS = {
    "slower": N_("slower"),
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("**mistake**"),
    "blunder": N_("**blunder**"),
}
VALUE_NAMES = {
    "win": N_("win in {plies}"),
    "draw": N_("draw"),
    "loss": N_("loss in {plies}"),
}


def _value(value: GameValue, tr: Lang) -> str:
    return tr(VALUE_NAMES[value.result], plies=value.plies)


def review_text(game: FinishedGame, plies: Sequence[PlyReview], tr: Lang | None = None, who: Who | None = None) -> str:
    """A finished game move by move: each ply's cell, label and the mover's value before and after it (win or
    loss in N plies with best play, or draw), the best moves when the one played was not among them, and the
    states alpha-beta evaluated there; then one summary line per side. About 100 characters a ply, so a
    whole game fits Discord's 2,000.

    Labels (chess terms, explained by /ttt help): best, slower (a win kept, but later), mistake (a win turned
    into a draw), blunder (a win or a draw turned into a loss).
    """
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    x, o = who(game.x_user_id), who(game.o_user_id)
    lines = [
        tr(
            N_("**Review of game `{game_id}`** · {x} vs {o}"),
            game_id=game.game_id,
            x=f"{MARK_EMOJI[Mark.X]} {x}",
            o=f"{MARK_EMOJI[Mark.O]} {o}",
        )
    ]
    for ply in plies:
        if ply.label == "best":
            line = tr(
                N_("`{ply}.` {mark} {cell} · best · {value}"),
                ply=ply.ply,
                mark=ply.mover.value,
                cell=ply.cell + 1,
                value=_value(ply.before, tr),
            )
        else:
            line = tr(
                N_("`{ply}.` {mark} {cell} · {label} · {before} → {after}"),
                ply=ply.ply,
                mark=ply.mover.value,
                cell=ply.cell + 1,
                label=tr(REVIEW_LABELS[ply.label]),
                before=_value(ply.before, tr),
                after=_value(ply.after, tr),
            )
        if ply.label != "best":
            line += " · " + tr(N_("best: {cells}"), cells=", ".join(str(c + 1) for c in ply.best_moves))
        line += " · " + tr.plural("{states} state", "{states} states", ply.states, states=tr.number(ply.states))
        lines.append(line)
    if not plies:
        lines.append(tr(N_("No moves were played.")))
    lines.append(" · ".join(_side_summary(side, tr) for side in summary(plies).values()))
    return "\n".join(lines)


def _side_summary(side: SideSummary, tr: Lang) -> str:
    """``X: 0 mistakes`` or ``O: 1 blunder (move 4)``: the side's blunders and mistakes, with their ply numbers."""
    parts = []
    if side.blunders:
        count = len(side.blunders)
        moves = tr.plural("move {numbers}", "moves {numbers}", count, numbers=", ".join(map(str, side.blunders)))
        parts.append(
            tr.plural("{count} blunder ({moves})", "{count} blunders ({moves})", count, count=count, moves=moves)
        )
    if side.mistakes:
        count = len(side.mistakes)
        moves = tr.plural("move {numbers}", "moves {numbers}", count, numbers=", ".join(map(str, side.mistakes)))
        parts.append(
            tr.plural("{count} mistake ({moves})", "{count} mistakes ({moves})", count, count=count, moves=moves)
        )
    return f"{side.mark.value}: " + (", ".join(parts) if parts else tr(N_("0 mistakes")))


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
                    "a *mistake* turns a win into a draw; a *blunder* turns a win or a draw into a loss."
                )
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


def plain(text: str) -> str:
    """Discord markdown as terminal text: code fences dropped, bold and inline-code marks removed."""
    kept = [line for line in text.splitlines() if line.strip() != "```"]
    return "\n".join(kept).replace("**", "").replace("`", "")
