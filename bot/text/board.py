"""The text of a board message and of a challenge: header, the bot's last move, whose turn or the result, a
text grid; an ultimate free choice's private pad; and what a declined, expired or moved prompt says.

The board follows its game's :class:`~engine.variants.Variant`: cells named by number or coordinate, the small board
to play in where there are small boards, the grid of discs of a game played by column (:mod:`bot.text.discs`), "the
bot is thinking" where its search does not answer inline.
``who`` turns a player id (``None`` for the bot) into a name, so the same text serves Discord (``<@id>``
mentions, sent without pings) and the console ("you", "the bot")."""

from __future__ import annotations

from bot.games.match import EngineMove, Match
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import (
    Who,
    discord_who,
    format_elapsed,
    level_name,
    proven_text,
)
from bot.text.discs import disc_grid, mark_emoji, piece, shows_discs
from bot.text.grid import DEFAULT_VARIANT, board_grid
from bot.text.presenters import typed
from engine import Mark
from engine import variant as variant_named

__all__ = [
    "ai_line",
    "challenge_text",
    "declined_text",
    "expired_text",
    "message_text",
    "moved_text",
    "pad_played_text",
    "pad_text",
    "played_line",
    "result_line",
    "states_total",
    "thinking_line",
]


def ai_line(ai: EngineMove, tr: Lang | None = None, variant: str = DEFAULT_VARIANT) -> str:
    """``"O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"``: :func:`played_line` with the cell named as
    ``variant``'s board names it."""
    kind = variant_named(variant)
    return played_line(ai, kind.cell_label(ai.cell), tr, search=kind.search_name(ai.algorithm))


def played_line(ai: EngineMove, cell: str | int, tr: Lang | None = None, *, search: str) -> str:
    """The bot's move ``ai`` with ``cell`` as the board names it (``"b3"``; 3x3: ``5``, numbered 1-9), the states
    its search evaluated (``search``: the search's name as the game gives it, :meth:`engine.Variant.search_name`) and
    its time, then a note for each of: a search's result (what it proved; ultimate: its
    expected score and depth, an estimate), a search cut short before it proved anything, a search shortened because
    the bot was busy. A move read from an opening book says so instead of a count (with the offline proof's count
    where the book keeps it, named as such); a winning move found without a search reads ``"O played e9 and wins at
    once"``."""
    tr = tr or lang(None)
    if ai.states == 0 and ai.value is not None and ai.value.result == "win" and ai.value.plies == 1:
        return tr(N_("{mark} played {cell} and wins at once"), mark=ai.mark.value, cell=cell)  # nothing searched
    elapsed = format_elapsed(ai.elapsed_ms / 1000.0, tr)
    if ai.book:
        text = tr(N_("{mark} played {cell} · read from its opening book in {elapsed}"), mark=ai.mark.value,
                  cell=cell, elapsed=elapsed)  # fmt: skip
        if ai.book_states:
            text += " " + tr.plural(
                "(its proof evaluated {states} state when the book was built)",
                "(its proof evaluated {states} states when the book was built)",
                ai.book_states,
                states=tr.number(ai.book_states),
            )
    else:
        algorithm = tr(search)
        text = tr.plural(
            "{mark} played {cell} · {algorithm} evaluated {states} state in {elapsed}",
            "{mark} played {cell} · {algorithm} evaluated {states} states in {elapsed}",
            ai.states,
            mark=ai.mark.value,
            cell=cell,
            algorithm=algorithm,
            states=tr.number(ai.states),
            elapsed=elapsed,
        )
    if ai.value is not None:
        text += " " + proven_text(ai.value.result, ai.value.plies, tr)
    elif ai.cut_short:
        text += " " + tr(
            N_("(cut short at its time limit before it proved a value: the best move found, {depth} plies deep)"),
            depth=ai.depth or 0,
        )
    elif ai.expected is not None:
        text += " " + tr(
            N_("(an estimate, {depth} plies deep: expected score for {mark} {percent}%)"),
            depth=ai.depth or 0,
            percent=round(100 * ai.expected),
            mark=ai.mark.value,
        )
    elif ai.depth is not None:
        text += " " + tr(N_("(an estimate: {depth} plies deep)"), depth=ai.depth)
    if ai.reduced:
        text += " " + tr(N_("(a shorter search than usual: I am busy)"))
    return text


def thinking_line(tr: Lang | None = None) -> str:
    """What the board says while the bot's search runs."""
    return (tr or lang(None))(N_("\N{HOURGLASS WITH FLOWING SAND} The bot is thinking about its move…"))


def _side(game: Match, mark: Mark, who: Who) -> str:
    return f"{mark_emoji(game)[mark]} {who(game.player_id(mark))}"


def result_line(game: Match, who: Who | None = None, tr: Lang | None = None) -> str:
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
        text += " " + states_total(game, tr)
    return text


def states_total(game: Match, tr: Lang) -> str:
    """``"The bot evaluated 1,234 states over 4 moves."``: the bot's searches over a game."""
    return tr.plural(
        "The bot evaluated {states} states over {moves} move.",
        "The bot evaluated {states} states over {moves} moves.",
        game.ai_moves,
        states=tr.number(game.ai_states),
        moves=game.ai_moves,
    )


def _bot_gave_up(game: Match) -> bool:
    """True when an abandoned game ended with the bot to move against a person: its searches failed (or never
    ended), not the person's clock (:mod:`bot.games.bot_moves`)."""
    return game.player_id(game.to_move) is None and game.player_id(game.to_move.other) is not None


def _header(game: Match, who: Who, tr: Lang) -> str:
    x, o = _side(game, Mark.X, who), _side(game, Mark.O, who)
    kind = game.kind
    text = tr(kind.heading(), variant=tr(kind.title), x=x, o=o)
    if game.vs_bot:
        text += f" · {level_name(game.variant, game.level, tr, Mark.X if game.x_id is None else Mark.O)}"
        if len(game.kind.algorithms) > 1:  # the player chose the search (3x3); elsewhere the move line names it
            text += f" · {tr(kind.search_name(game.algorithm, game.level))}"
    return text


def message_text(game: Match, who: Who | None = None, *, tr: Lang | None = None, commands: bool = True) -> str:
    """The board message: header, the bot's last move, whose turn it is or the result; a grid in text mode.

    ``commands`` adds the ``/ttt move`` reminder under a text board (not wanted in the console).
    """
    tr = tr or lang(None)
    who = who or (lambda user_id: discord_who(user_id, tr))
    lines = [_header(game, who, tr)]
    rules = game.kind
    last_ai = game.last_ai
    if last_ai is not None and not (game.over and game.moves and game.moves[-1] != last_ai.cell):  # not once a
        search = rules.search_name(last_ai.algorithm, game.level)  # player's move ended it
        lines.append(played_line(last_ai, rules.cell_label(last_ai.cell), tr, search=search))
    if game.over:
        lines.append(result_line(game, who, tr))
        if commands and game.moves:
            lines.append(tr(N_("Game `{game_id}` · `/ttt review` shows every move's value."), game_id=game.game_id))
    elif game.thinking:
        lines.append(thinking_line(tr))
    else:
        mark = game.to_move
        lines.append(tr(N_("{side} to move ({mark})."), side=_side(game, mark, who), mark=mark.value))
        if rules.open_blocks(game.state):
            lines.append(_next_board_line(game, tr))
    if shows_discs(game):
        lines.append(disc_grid(rules, game.state, game.moves[-1] if game.moves else None))
    if game.mode == "text":
        lines.append(board_grid(game.state, game.variant))
    if commands and not game.over and typed(game):  # a text board, or a picture without buttons for the moves
        first, last = rules.cell_label(0), rules.cell_label(rules.cells - 1)
        lines.append(tr(N_("Play with `/ttt move cell:<{first}-{last}>`."), first=first, last=last))
    return "\n".join(lines)


def _next_board_line(game: Match, tr: Lang) -> str:
    """Where the next move goes on a board of small boards: the small board to play in, or any open one."""
    forced = game.kind.forced_block(game.state)
    if forced is None:
        return tr(N_("Next move: in any open small board."))
    return tr(N_("Next move: in the small board {board}."), board=game.kind.block_name(forced))


def pad_text(game: Match, board: int | None, tr: Lang | None = None) -> str:
    """What an ultimate free choice's private pad says: the small board ``board`` (0-8) whose cells it shows, or
    (``None``) that it shows the open small boards."""
    tr = tr or lang(None)
    if board is None:
        return tr(N_("Only you see this pad. Choose a small board; nothing is played until you press a cell."))
    return tr(
        N_("Only you see this pad. Small board {board}: choose a cell, or Back to choose another small board."),
        board=game.kind.block_name(board),
    )


def pad_played_text(game: Match, tr: Lang | None = None) -> str:
    """What a private pad says once its player's move (``game``'s last) is committed."""
    return (tr or lang(None))(N_("You played {cell}; the board shows your move."), cell=game.cell_name(game.moves[-1]))


def challenge_text(game: Match, seconds: float, tr: Lang | None = None) -> str:
    """The prompt a challenged user sees with Accept and Decline: the game (its title and description,
    :attr:`engine.Variant.title`), and the side they would play, named by its pieces as the board shows them
    (:func:`bot.text.discs.piece`: ``"❌ X"``, or ``"🔴 red"`` on a board of discs).

    Raises:
        ValueError: ``game`` is not a challenge.
    """
    tr = tr or lang(None)
    challenged = game.challenged_id
    mark = game.mark_of(challenged) if challenged is not None else None
    if challenged is None or mark is None:
        raise ValueError(f"game {game.game_id} is not a challenge")
    challenger = game.player_id(mark.other)
    template = (
        N_(
            "{challenged}, {challenger} challenges you to a game of **{game}** ({description})! You would play "
            "{piece} and move first. Accept within {seconds} s."
        )
        if mark is Mark.X
        else N_(
            "{challenged}, {challenger} challenges you to a game of **{game}** ({description})! You would play "
            "{piece} and move second. Accept within {seconds} s."
        )
    )
    return tr(
        template,
        challenged=discord_who(challenged, tr),
        challenger=discord_who(challenger, tr),
        game=tr(game.kind.title),
        description=tr(game.kind.description),
        piece=piece(mark, tr, discs=shows_discs(game)),
        seconds=f"{seconds:.0f}",
    )


def declined_text(game: Match, tr: Lang | None = None) -> str:
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
