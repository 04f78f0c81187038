"""The text of a board message and of a challenge: header, the bot's last move, whose turn or the result, a
text grid; and what a declined, expired or moved prompt says.

``who`` turns a player id (``None`` for the bot) into a name, so the same text serves Discord (``<@id>``
mentions, sent without pings) and the console ("you", "the bot")."""

from __future__ import annotations

from bot.games.game import EngineMove, Game
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import ALGORITHM_NAMES, MARK_EMOJI, Who, discord_who, level_name
from bot.text.variants import (
    VARIANT_NAMES,
    played_line,
    thinking_line,
    variant_ai_line,
    variant_grid,
    variant_move_line,
)
from engine import Mark, State

__all__ = [
    "ai_line",
    "board_grid",
    "challenge_text",
    "declined_text",
    "expired_text",
    "message_text",
    "moved_text",
    "result_line",
]


def board_grid(state: State) -> str:
    """An aligned monospace grid in a code block: marks, and the numbers (1-9) of empty cells."""

    def row(r: int) -> str:
        return "│".join(f" {m.value if (m := state[3 * r + c]) else 3 * r + c + 1} " for c in range(3))

    divider = "───┼───┼───"
    return "```\n" + f"\n{divider}\n".join(row(r) for r in range(3)) + "\n```"


def ai_line(ai: EngineMove, tr: Lang | None = None) -> str:
    """``"O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"`` (cells shown 1-9)."""
    return played_line(ai, ai.cell + 1, tr)


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
    elif reason == "abandoned" and _bot_gave_up(game):
        text = tr(N_("Game abandoned: the bot could not find a move. Nobody loses this game."))
    elif reason == "abandoned":
        late = who(game.player_id(game.to_move))
        text = tr(N_("Game abandoned: {loser} did not move in time, which counts as a loss."), loser=late)
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


def _bot_gave_up(game: Game) -> bool:
    """True when an abandoned game ended with the bot to move against a person: its searches failed (or never
    ended), not the person's clock (:mod:`bot.games.bot_moves`)."""
    return game.player_id(game.to_move) is None and game.player_id(game.to_move.other) is not None


def _header(game: Game, who: Who, tr: Lang) -> str:
    x, o = _side(game, Mark.X, who), _side(game, Mark.O, who)
    if game.variant == "3x3":
        text = tr(N_("**Tic-tac-toe** · {x} vs {o}"), x=x, o=o)
    else:
        text = tr(N_("**Tic-tac-toe {variant}** · {x} vs {o}"), variant=tr(VARIANT_NAMES[game.variant]), x=x, o=o)
    if game.vs_bot:
        text += f" · {level_name(game.variant, game.level, tr)} · {tr(ALGORITHM_NAMES[game.algorithm])}"
    return text


def message_text(game: Game, who: Who | None = None, *, tr: Lang | None = None, commands: bool = True) -> str:
    """The board message: header, the bot's last move, whose turn it is or the result; a grid in text mode.

    ``commands`` adds the ``/ttt move`` reminder under a text board (not wanted in the console).
    """
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    lines = [_header(game, who, tr)]
    if game.last_ai is not None:
        three = game.variant == "3x3"
        lines.append(ai_line(game.last_ai, tr) if three else variant_ai_line(game, game.last_ai, tr))
    if game.over:
        lines.append(result_line(game, who, tr))
        if commands and game.moves:
            lines.append(tr(N_("Game `{game_id}` · `/ttt review` shows every move's value."), game_id=game.game_id))
    elif game.variant != "3x3" and game.thinking:
        lines.append(thinking_line(tr))
    else:
        mark = game.to_move
        lines.append(tr(N_("{side} to move ({mark})."), side=_side(game, mark, who), mark=mark.value))
        if game.variant == "ultimate":
            lines.append(variant_move_line(game, tr))
    if game.mode == "text":
        lines.append(board_grid(game.state) if game.variant == "3x3" else variant_grid(game))
        if commands and not game.over and game.variant == "3x3":
            lines.append(tr(N_("Play with `/ttt move cell:<1-9>`.")))
        elif commands and not game.over:
            last = game.cell_name(game.cells - 1)
            lines.append(tr(N_("Play with `/ttt move cell:<a1-{last}>`."), last=last))
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
