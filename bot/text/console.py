"""The console's own texts: the one person playing is "you", so the sentences about them are written in the second
person ("You win!", German "Du gewinnst!") rather than filling "you" into a sentence written for a mention."""

from __future__ import annotations

from bot.games.match import Match
from bot.i18n import N_
from bot.i18n.lang import Lang
from bot.text.board import played_line, states_total, thinking_line
from bot.text.common import MARK_EMOJI, level_name
from bot.text.grid import board_grid
from engine import Mark

__all__ = ["BOT_WINS", "DRAW", "YOUR_MOVE", "YOU_PLAYED", "YOU_WIN", "console_text", "end_line"]

YOUR_MOVE = N_("Your move ({mark}).")
YOU_PLAYED = N_("You played {cell}.")
YOU_WIN = N_("You win!")
BOT_WINS = N_("The bot wins.")
DRAW = N_("It's a draw.")
BOT_GAVE_UP = N_("Game abandoned: the bot could not find a move. Nobody loses this game.")
GAME_OVER = N_("Game over.")
NEXT_ANY = N_("Next move: in any open small board.")
NEXT_BOARD = N_("Next move: in the small board {board}.")


def console_text(game: Match, you: int, tr: Lang) -> str:
    """The board as the console shows it to player ``you``: the header, the last move (the bot's line, with its
    search, or yours), your turn or the end, and the grid."""
    rules = game.kind
    lines = [_header(game, you, tr)]
    last = game.moves[-1] if game.moves else None
    if game.last_ai is not None and last == game.last_ai.cell:
        search = rules.search_name(game.last_ai.algorithm, game.level)
        lines.append(played_line(game.last_ai, rules.cell_label(last), tr, search=search))
    elif last is not None:
        lines.append(tr(YOU_PLAYED, cell=rules.cell_label(last)))
    if game.over:
        lines.append(end_line(game, you, tr))
    elif game.thinking:
        lines.append(thinking_line(tr))
    else:
        lines.append(tr(YOUR_MOVE, mark=game.to_move.value))
        if rules.open_blocks(game.state):
            forced = rules.forced_block(game.state)
            lines.append(tr(NEXT_ANY) if forced is None else tr(NEXT_BOARD, board=rules.block_name(forced)))
    lines.append(board_grid(game.state, game.variant))
    return "\n".join(lines)


def end_line(game: Match, you: int, tr: Lang) -> str:
    """How the game ended, for player ``you``, then the bot's total states."""
    won = game.winner
    if game.end_reason == "win" and won is not None:
        text = tr(YOU_WIN if game.player_id(won) == you else BOT_WINS)
    elif game.end_reason == "draw":
        text = tr(DRAW)
    elif game.end_reason == "abandoned" and game.player_id(game.to_move) is None:
        text = tr(BOT_GAVE_UP)
    else:
        text = tr(GAME_OVER)
    if game.ai_moves:
        text += " " + states_total(game, tr)
    return text


def _header(game: Match, you: int, tr: Lang) -> str:
    def side(mark: Mark) -> str:
        return f"{MARK_EMOJI[mark]} {tr(N_('you')) if game.player_id(mark) == you else tr(N_('the bot'))}"

    kind = game.kind
    text = tr(kind.heading(), variant=tr(kind.title), x=side(Mark.X), o=side(Mark.O))
    text += f" · {level_name(game.variant, game.level, tr, Mark.X if game.x_id is None else Mark.O)}"
    if len(game.kind.algorithms) > 1:
        text += f" · {tr(kind.search_name(game.algorithm, game.level))}"
    return text
