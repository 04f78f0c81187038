"""The ``/ttt`` application commands and the game logic behind the board's buttons.

Every change to a channel's game happens under that channel's lock: validate, build the reply (with
the bot's move already in it), answer the interaction, and only then commit the new session.
Every interaction is answered exactly once; every message is sent with ``AllowedMentions.none()``.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import codec, render, views
from bot.ai import AI, is_slow
from bot.codec import GameCode
from bot.sessions import Session, SessionManager, new_game_id
from bot.stats import Stats
from engine import Difficulty, Mark, terminal

if TYPE_CHECKING:
    from bot.client import TTTBot

__all__ = ["NO_PINGS", "TicTacToe", "setup"]

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
HISTORY_LIMIT = 25
"""How many recent messages /ttt move reads to find a board after a restart."""
Interaction = discord.Interaction[Any]


class TicTacToe(commands.GroupCog, name=views.COG_NAME, group_name="ttt", group_description="Play tic-tac-toe"):
    """Tic-tac-toe against the bot (minimax / alpha-beta) or another member."""

    def __init__(
        self,
        bot: TTTBot | Any,
        *,
        ai: AI | None = None,
        turn_timeout: float = 600.0,
        challenge_timeout: float = 60.0,
        rng: random.Random | None = None,
    ) -> None:
        self.bot = bot
        self.ai = ai or AI()
        self.sessions = SessionManager(turn_timeout, on_timeout=self._on_turn_timeout)
        self.stats = Stats()
        self.challenge_timeout = challenge_timeout
        self._challenge_timers: dict[int, asyncio.Task[None]] = {}
        self.rng = rng or random.Random()
        super().__init__()

    async def cog_unload(self) -> None:
        """Cancel the turn timers."""
        self.sessions.close()
        for timer in self._challenge_timers.values():
            timer.cancel()

    # ---- commands -------------------------------------------------------------------------------

    @app_commands.command(name="start", description="Start a game against the bot, or challenge someone")
    @app_commands.describe(
        opponent="Who to challenge; leave empty to play the bot",
        play_as="Your mark: X moves first",
        difficulty="How well the bot plays (unbeatable never loses)",
        algorithm="The bot's search: alpha-beta (prunes) or plain minimax (visits every position)",
        board="Buttons to press, or a text grid played with /ttt move",
    )
    async def start(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        play_as: Literal["X", "O", "random"] = "X",
        difficulty: Literal["easy", "medium", "unbeatable"] = "unbeatable",
        algorithm: Literal["alpha-beta", "minimax"] = "alpha-beta",
        board: Literal["buttons", "text"] = "buttons",
    ) -> None:
        """/ttt start: a game against the bot, or a challenge to ``opponent``."""
        user_id = interaction.user.id
        if opponent is not None and opponent.id == user_id:
            return await _private(interaction, "You can't challenge yourself — leave `opponent` empty to play me.")
        if opponent is not None and opponent.bot:
            return await _private(interaction, "Bots can't accept challenges — leave `opponent` empty to play me.")
        mark = Mark(play_as) if play_as != "random" else self.rng.choice((Mark.X, Mark.O))
        other = None if opponent is None else opponent.id
        x_id, o_id = (user_id, other) if mark is Mark.X else (other, user_id)
        session = Session(
            game_id=new_game_id(),
            channel_id=_channel_id(interaction),
            x_id=x_id,
            o_id=o_id,
            difficulty=Difficulty(difficulty),
            algorithm=algorithm,
            mode=board,
            guild_id=interaction.guild_id,
            status="playing" if opponent is None else "challenge",
        )
        async with self.sessions.lock(session.channel_id):
            running = self.sessions.get(session.channel_id)
            if running is not None:
                return await _private(interaction, _busy_text(running))
            if opponent is not None:
                await self._challenge(interaction, session, user_id, opponent.id)
            else:
                await self._begin(interaction, session)

    @app_commands.command(name="move", description="Play a cell (1-9, numbered like a phone keypad)")
    @app_commands.describe(cell="The cell: 1-3 top row, 4-6 middle, 7-9 bottom")
    async def move(self, interaction: Interaction, cell: app_commands.Range[int, 1, 9]) -> None:
        """/ttt move: play a cell (1-9); the board is posted again with the bot's reply."""
        channel_id = _channel_id(interaction)
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id) or await self._resume_from_history(interaction)
            refusal = _turn_refusal(session, interaction.user.id)
            if refusal is None and session is not None and session.state[cell - 1] is not None:
                refusal = render.CELL_TAKEN
            if refusal is not None or session is None:
                return await _private(interaction, refusal or render.NO_GAME)
            await self._play(interaction, session, cell - 1, in_place=False)

    @app_commands.command(name="hint", description="Privately see every free cell's outcome with best play")
    async def hint(self, interaction: Interaction) -> None:
        """/ttt hint: every free cell's outcome with best play, privately, for the player to move."""
        session = self.sessions.get(_channel_id(interaction))
        refusal = _turn_refusal(session, interaction.user.id)
        if refusal is not None or session is None:
            return await _private(interaction, refusal or render.NO_GAME)
        if is_slow(session.state, "minimax"):
            await interaction.response.defer(ephemeral=True, thinking=True)
        analysis = await self.ai.analyse(session.state)
        log.info(
            "hint: channel=%s game=%s states=%d alphabeta=%d minimax=%d",
            session.channel_id,
            session.game_id,
            analysis.states,
            analysis.alphabeta_states,
            analysis.minimax_states,
        )
        text = render.hint_text(analysis)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)

    @app_commands.command(name="resign", description="Resign the game you are playing in this channel")
    async def resign(self, interaction: Interaction) -> None:
        """/ttt resign: end the game as a loss for the player who resigns."""
        channel_id = _channel_id(interaction)
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.status != "playing":
                return await _private(interaction, render.NO_GAME if session is None else _busy_text(session))
            mark = session.mark_of(interaction.user.id)
            if mark is None:
                return await _private(interaction, render.NOT_YOUR_GAME)
            await self._repost(interaction, session, session.resign(mark))

    @app_commands.command(name="board", description="Post the board again at the bottom of the channel")
    async def board(self, interaction: Interaction) -> None:
        """/ttt board: post the board again at the bottom of the channel."""
        channel_id = _channel_id(interaction)
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.status != "playing":
                return await _private(interaction, render.NO_GAME if session is None else _busy_text(session))
            await self._repost(interaction, session, session)

    @app_commands.command(name="stats", description="Wins, draws and losses against the bot and against people")
    @app_commands.describe(user="Whose record to show (default: yours)")
    async def stats_(self, interaction: Interaction, user: discord.User | None = None) -> None:
        """/ttt stats: a player's wins, draws and losses since the bot started."""
        target = user or interaction.user
        text = render.stats_text(f"<@{target.id}>", self.stats.get(target.id))
        await interaction.response.send_message(text, allowed_mentions=NO_PINGS)

    @app_commands.command(name="help", description="Rules, cell numbers and what 'states evaluated' means")
    async def help_(self, interaction: Interaction) -> None:
        """/ttt help: the rules, the cell numbers and what 'states evaluated' means."""
        await interaction.response.send_message(render.help_text(), ephemeral=True, allowed_mentions=NO_PINGS)

    async def cog_app_command_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        """Log a failed /ttt command with its traceback and apologise privately."""
        original = getattr(error, "original", error)
        session = self.sessions.get(interaction.channel_id or 0)
        log.error(
            "/ttt %s failed: channel=%s game=%s",
            interaction.command.name if interaction.command else "?",
            interaction.channel_id,
            session.game_id if session else None,
            exc_info=original,
        )
        await views.apologise(interaction)

    # ---- buttons (called by bot.views) ----------------------------------------------------------

    async def press_cell(self, interaction: Interaction, code: GameCode, cell: int, disabled: bool) -> None:
        """A press on a board cell."""
        channel_id = _channel_id(interaction)
        async with self.sessions.lock(channel_id):
            session = await self._pressed_session(interaction, code, disabled)
            if session is None:
                return
            refusal = _turn_refusal(session, interaction.user.id)
            if refusal is None and session.state[cell] is not None:
                refusal = render.CELL_TAKEN
            if refusal is not None:
                return await _private(interaction, refusal)
            await self._play(interaction, session, cell, in_place=True)

    async def press_resign(self, interaction: Interaction, code: GameCode, disabled: bool) -> None:
        """A press on Resign."""
        async with self.sessions.lock(_channel_id(interaction)):
            session = await self._pressed_session(interaction, code, disabled)
            if session is None:
                return
            mark = session.mark_of(interaction.user.id)
            assert mark is not None  # _pressed_session refused everyone else
            ended = session.resign(mark)
            await interaction.response.edit_message(
                content=render.message_text(ended), view=views.board_view(ended), allowed_mentions=NO_PINGS
            )
            self._commit(ended)

    async def press_rematch(self, interaction: Interaction, code: GameCode) -> None:
        """A press on Rematch: a new game, same players and options, sides swapped."""
        if interaction.user.id not in (code.x_id, code.o_id):
            return await _private(interaction, render.NOT_YOUR_GAME)
        session = Session(
            game_id=new_game_id(),
            channel_id=_channel_id(interaction),
            x_id=code.o_id,
            o_id=code.x_id,
            difficulty=code.difficulty,
            algorithm=code.algorithm,
            mode=code.mode,
            guild_id=interaction.guild_id,
        )
        async with self.sessions.lock(session.channel_id):
            running = self.sessions.get(session.channel_id)
            if running is not None:
                return await _private(interaction, _busy_text(running))
            await self._begin(interaction, session)

    async def answer_challenge(
        self, interaction: Interaction, game_id: str, challenged_id: int, *, accepted: bool
    ) -> None:
        """Accept or Decline pressed on a challenge prompt (only the challenged user may answer)."""
        if interaction.user.id != challenged_id:
            text = f"Only <@{challenged_id}> can answer this challenge — start your own game with /ttt start"
            return await _private(interaction, text)
        channel_id = _channel_id(interaction)
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.game_id != game_id or session.status != "challenge":
                return await _private(interaction, "This challenge is no longer open")
            self._stop_challenge_timer(channel_id)
            if not accepted:
                ended = session.end("declined")
                await interaction.response.edit_message(
                    content=f"<@{challenged_id}> declined the challenge.", view=None, allowed_mentions=NO_PINGS
                )
                self.sessions.end(ended)
                log.info("challenge declined: channel=%s game=%s", ended.channel_id, ended.game_id)
                return
            started = session.accept()
            await interaction.response.edit_message(
                content=render.message_text(started), view=views.board_view(started), allowed_mentions=NO_PINGS
            )
            self.sessions.update(started)
            log.info("game started: channel=%s game=%s x=%s o=%s", started.channel_id, started.game_id, *_ids(started))

    async def expire_challenge(self, channel_id: int, game_id: str) -> None:
        """The challenge got no answer in time: say so and free the channel."""
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.game_id != game_id or session.status != "challenge":
                return
            ended = self.sessions.end(session.end("expired"))
            log.info("challenge expired: channel=%s game=%s", channel_id, game_id)
            await self._edit(
                ended,
                content=f"The challenge expired: no answer within {self.challenge_timeout:.0f} s.",
                view=None,
            )

    # ---- internals ------------------------------------------------------------------------------

    async def _challenge(self, interaction: Interaction, session: Session, challenger: int, challenged: int) -> None:
        view = views.challenge_view(session.game_id, challenged)
        text = render.challenge_text(session, challenger, challenged, self.challenge_timeout)
        response = await interaction.response.send_message(text, view=view, allowed_mentions=NO_PINGS)
        self.sessions.start(session.at(await _message_id(interaction, response)))
        self._stop_challenge_timer(session.channel_id)
        self._challenge_timers[session.channel_id] = asyncio.get_running_loop().create_task(
            self._challenge_timer(session.channel_id, session.game_id), name=f"ttt-challenge-{session.game_id}"
        )
        log.info(
            "challenge: channel=%s game=%s from=%s to=%s", session.channel_id, session.game_id, challenger, challenged
        )

    async def _begin(self, interaction: Interaction, session: Session) -> None:
        """Post a new game's first board (with the bot's opening move when it plays X) and register it."""
        if session.ai_to_move:
            if is_slow(session.state, session.algorithm):
                await interaction.response.defer(thinking=True)
            session = await self._ai_reply(session)
        message_id = await self._send_board(interaction, session)
        self.sessions.start(session.at(message_id))
        log.info(
            "game started: channel=%s game=%s x=%s o=%s difficulty=%s algorithm=%s mode=%s",
            session.channel_id,
            session.game_id,
            *_ids(session),
            session.difficulty.value,
            session.algorithm,
            session.mode,
        )

    async def _play(self, interaction: Interaction, session: Session, cell: int, *, in_place: bool) -> None:
        """Apply a validated move and the bot's reply; answer by editing the pressed board or posting a new one."""
        after = session.play(cell)
        log.info(
            "move: channel=%s game=%s user=%s cell=%d", session.channel_id, session.game_id, interaction.user.id, cell
        )
        if after.ai_to_move:
            if is_slow(after.state, after.algorithm):
                await interaction.response.defer(thinking=not in_place)
            after = await self._ai_reply(after)
        if not in_place:
            return await self._repost(interaction, session, after)
        content, view = render.message_text(after), views.board_view(after)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=view, allowed_mentions=NO_PINGS)
        else:
            await interaction.response.edit_message(content=content, view=view, allowed_mentions=NO_PINGS)
        self._commit(after)

    async def _ai_reply(self, session: Session) -> Session:
        decision = await self.ai.choose(session.state, session.difficulty, session.algorithm)
        after = session.with_ai(decision)
        log.info(
            "ai move: channel=%s game=%s cell=%d algorithm=%s states=%d elapsed_ms=%.2f random=%s",
            session.channel_id,
            session.game_id,
            decision.move,
            session.algorithm,
            decision.search.states,
            decision.search.elapsed_ms,
            decision.random,
        )
        return after

    async def _repost(self, interaction: Interaction, old: Session, new: Session) -> None:
        """Answer with ``new``'s board as a new message; the old board says it moved and is disabled."""
        message_id = await self._send_board(interaction, new)
        new = new.at(message_id)
        self._commit(new)
        if old.message_id is not None and old.message_id != message_id:
            await self._edit(old, content=render.moved_text(new.jump_url), view=views.board_view(old, retired=True))

    async def _send_board(self, interaction: Interaction, session: Session) -> int | None:
        content, view = render.message_text(session), views.board_view(session)
        if interaction.response.is_done():
            message = await interaction.edit_original_response(content=content, view=view, allowed_mentions=NO_PINGS)
            return message.id
        if view is None:
            response = await interaction.response.send_message(content, allowed_mentions=NO_PINGS)
        else:
            response = await interaction.response.send_message(content, view=view, allowed_mentions=NO_PINGS)
        return await _message_id(interaction, response)

    async def _pressed_session(self, interaction: Interaction, code: GameCode, disabled: bool) -> Session | None:
        """The running game a board press belongs to (resumed from its ``custom_id`` after a restart), or ``None``
        after answering why the press is refused."""
        user_id = interaction.user.id
        if user_id not in (code.x_id, code.o_id):
            await _private(interaction, render.NOT_YOUR_GAME)
            return None
        message_id = interaction.message.id if interaction.message is not None else None
        session = self.sessions.get(_channel_id(interaction))
        if session is None or session.game_id != code.game_id:
            if disabled or terminal(code.state) or self.sessions.is_finished(code.game_id):
                await _private(interaction, render.GAME_OVER)
                return None
            if session is not None:
                await _private(interaction, f"{render.STALE_BOARD}: {session.jump_url}")
                return None
            session = self.sessions.start(
                Session.from_code(code, _channel_id(interaction), interaction.guild_id, message_id)
            )
            log.info(
                "game resumed from its board: channel=%s game=%s message=%s",
                session.channel_id,
                session.game_id,
                message_id,
            )
        if session.message_id != message_id:
            await _private(interaction, f"{render.STALE_BOARD}: {session.jump_url}")
            return None
        if session.state != code.state:
            await _private(interaction, render.BOARD_CHANGED)
            return None
        return session

    async def _challenge_timer(self, channel_id: int, game_id: str) -> None:
        await asyncio.sleep(self.challenge_timeout)
        if self._challenge_timers.get(channel_id) is asyncio.current_task():
            del self._challenge_timers[channel_id]
        try:
            await self.expire_challenge(channel_id, game_id)
        except Exception:
            log.exception("challenge expiry failed: channel=%s game=%s", channel_id, game_id)

    def _stop_challenge_timer(self, channel_id: int) -> None:
        timer = self._challenge_timers.pop(channel_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _resume_from_history(self, interaction: Interaction) -> Session | None:
        """After a restart, resume the channel's game from the bot's latest board message, if it is unfinished.

        A text board has no cell buttons to press, but its Resign button carries the game; reading the
        channel's recent messages needs the Read Message History permission (without it: ``None``).
        """
        channel_id = _channel_id(interaction)
        me = self.bot.user
        if me is None:
            return None
        channel = self.bot.get_partial_messageable(channel_id, guild_id=interaction.guild_id)
        try:
            async for message in channel.history(limit=HISTORY_LIMIT):
                if message.author.id != me.id:
                    continue
                found = _board_code(message)
                if found is None:
                    continue
                code, over = found
                if over or terminal(code.state) or self.sessions.is_finished(code.game_id):
                    return None
                session = self.sessions.start(Session.from_code(code, channel_id, interaction.guild_id, message.id))
                log.info("game resumed from history: channel=%s game=%s msg=%s", channel_id, code.game_id, message.id)
                return session
        except discord.HTTPException:
            log.warning("could not read the history of channel %s to resume a game", channel_id, exc_info=True)
        return None

    def _commit(self, session: Session) -> None:
        self.sessions.update(session)
        if session.over:
            self.stats.record(session)
            log.info(
                "game over: channel=%s game=%s reason=%s winner=%s ai_states=%d",
                session.channel_id,
                session.game_id,
                session.end_reason,
                session.winner.value if session.winner else None,
                session.ai_states,
            )

    async def _on_turn_timeout(self, session: Session) -> None:
        await self._edit(session, content=render.message_text(session), view=views.board_view(session))

    async def _edit(self, session: Session, *, content: str, view: discord.ui.View | None) -> None:
        """Edit a session's message outside an interaction (interaction tokens expire after 15 minutes)."""
        if session.message_id is None:
            return
        channel = self.bot.get_partial_messageable(session.channel_id, guild_id=session.guild_id)
        try:
            await channel.get_partial_message(session.message_id).edit(
                content=content, view=view, allowed_mentions=NO_PINGS
            )
        except discord.HTTPException:
            log.warning(
                "could not edit message %s: channel=%s game=%s",
                session.message_id,
                session.channel_id,
                session.game_id,
                exc_info=True,
            )


def _board_code(message: discord.Message) -> tuple[GameCode, bool] | None:
    """The game on a board message, and whether it is over (a Rematch button, or a disabled one), or ``None``."""
    for row in message.components:
        for item in getattr(row, "children", ()):
            custom_id = getattr(item, "custom_id", None)
            if not custom_id:
                continue
            try:
                code, kind = codec.decode(custom_id)
            except codec.CodecError:
                continue
            return code, kind == "n" or bool(getattr(item, "disabled", False))
    return None


def _channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise RuntimeError("interaction without a channel")
    return interaction.channel_id


def _ids(session: Session) -> tuple[str, str]:
    return tuple("bot" if i is None else str(i) for i in (session.x_id, session.o_id))  # type: ignore[return-value]


def _busy_text(running: Session) -> str:
    what = "A challenge is waiting for an answer" if running.status == "challenge" else "A game is already running"
    return f"{what} in this channel: {running.jump_url or 'see above'} — one game per channel."


def _turn_refusal(session: Session | None, user_id: int) -> str | None:
    """Why ``user_id`` may not move now, or ``None``."""
    if session is None:
        return render.NO_GAME
    if session.status == "challenge":
        return _busy_text(session)
    if not session.is_player(user_id):
        return render.NOT_YOUR_GAME
    if session.player_id(session.to_move) != user_id:
        return render.NOT_YOUR_TURN
    return None


async def _private(interaction: Interaction, text: str) -> None:
    """An ephemeral reply (a follow-up when the interaction was already answered)."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)


async def _message_id(interaction: Interaction, response: discord.InteractionCallbackResponse[Any] | None) -> int:
    if response is not None and response.message_id is not None:
        return response.message_id
    return (await interaction.original_response()).id


async def setup(bot: TTTBot) -> None:
    """Add the cog, configured from ``bot.settings``."""
    settings = bot.settings
    await bot.add_cog(
        TicTacToe(bot, ai=bot.ai, turn_timeout=settings.turn_timeout, challenge_timeout=settings.challenge_timeout)
    )
