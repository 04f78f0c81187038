"""The one cooldown of the ``/ttt`` cog's costly answers (a hint, a look at the bot's search): one use per user
every so many seconds, a refusal in the user's language saying how long to wait."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import discord

from bot.i18n.lang import lang
from bot.ui.replies import private

__all__ = ["Cooldown"]

_FORGET_AT = 10_000
"""How many users a cooldown remembers before it forgets those whose wait is over."""


class Cooldown:
    """One use per user every ``seconds``; a use too soon gets ``message`` (a gettext id with ``{seconds}``, the
    cooldown in whole seconds, and ``{retry}``, the wait left in tenths of a second) privately. ``clock`` gives
    monotonic seconds (:func:`time.monotonic`). Kept in memory: a restart forgets it."""

    def __init__(self, seconds: float, message: str, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.message = message
        self._clock = clock
        self._used_at: dict[int, float] = {}  # user id -> when their last use was allowed (clock's seconds)

    def retry_after(self, user_id: int) -> float | None:
        """The seconds ``user_id`` must still wait, or ``None`` when the use is allowed (and then counted)."""
        now = self._clock()
        wait = self.seconds - (now - self._used_at.get(user_id, -math.inf))
        if wait > 0:
            return wait
        if len(self._used_at) >= _FORGET_AT:
            self._used_at = {u: t for u, t in self._used_at.items() if now - t < self.seconds}
        self._used_at[user_id] = now
        return None

    async def refused(self, interaction: discord.Interaction[discord.Client]) -> bool:
        """True when the interaction's user must wait: then it was answered privately with the wait left and marked
        refused (``interaction.extras["result"]``, :data:`bot.ops.interactions.RESULT_KEY`); False when the use is
        allowed and counted."""
        wait = self.retry_after(interaction.user.id)
        if wait is None:
            return False
        interaction.extras["result"] = "refused"
        seconds, retry = f"{self.seconds:.0f}", f"{max(wait, 0.1):.1f}"
        await private(interaction, lang(str(interaction.locale))(self.message, seconds=seconds, retry=retry))
        return True
