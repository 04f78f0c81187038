"""Which interaction can still edit each board message, for where the bot's own channel edits are refused.

Installed on a user's account, the bot is used in group DMs, other people's DMs and servers it is not in; there
Discord refuses its channel REST calls (403), and a message is edited only through an interaction's webhook:
``PATCH /webhooks/{application_id}/{token}/messages/@original``. An interaction's ``@original`` is the message a
component is on when the press was answered with UPDATE_MESSAGE (7) or DEFERRED_UPDATE_MESSAGE (6), and the new
message when it was answered with CHANNEL_MESSAGE_WITH_SOURCE (4, or 5 then an edit). Its token is valid for 15
minutes from the interaction's creation.

:class:`Originals` remembers, per message, the interaction whose token expires last among those whose ``@original``
is that message, and which channels refuse the bot's channel edits. It keeps interactions only from where the
channel edits are refused or expected to be: a private-channel context, a guild the app is not installed in (only
a user install brings the interaction; Discord's ``authorizing_integration_owners``), or a channel that has already
refused one. An interaction holds its message, that message's components and the member, some 60 objects the
collector scans on every full pass. Kept for every board, they were most of the bot's heap: in
``benchmarks/ultimate_load.py`` the objects left after start-up went from about 116,000 to 33,000, and a full
collection from about 110 ms to 45 ms.
Everything here is in memory and synchronous: nothing is awaited, so it may be called anywhere, under a lock or
not. Tokens are never logged.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import discord

__all__ = ["MARGIN", "REFUSAL_MEMORY", "Originals"]

MARGIN = 60.0
"""Seconds before an interaction token's expiry from which it is no longer used (clock skew, queued edits,
discord.py's retries after a 429 or a 5xx)."""

REFUSAL_MEMORY = 600.0
"""Seconds a channel that refused a channel edit (403) is remembered as refusing them; a user-installed context
(a group DM or another person's DM) is refreshed by every interaction seen there."""

MAX_CHANNELS = 10_000
"""Channels remembered as refusing; the oldest is forgotten first."""


@dataclass(frozen=True, slots=True)
class _Original:
    interaction: discord.Interaction[discord.Client]
    expires: float  # on the monotonic clock, the margin taken off


class Originals:
    """Per message id, the freshest interaction whose ``@original`` is that message; per channel, whether the bot's
    channel edits are refused there. ``clock`` is monotonic, in seconds (tests pass their own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, *, margin: float = MARGIN) -> None:
        self._clock = clock
        self._margin = margin
        self._by_message: dict[int, _Original] = {}
        self._prune_at = 64
        self._refused: OrderedDict[int, float] = OrderedDict()

    def __len__(self) -> int:
        return len(self._by_message)

    def remember(self, message_id: int, interaction: discord.Interaction[discord.Client]) -> None:
        """``interaction`` was answered and its ``@original`` is message ``message_id``: keep it if channel edits are
        refused where it came from and its token outlives the one kept (less :data:`MARGIN`)."""
        if not self._refusing(interaction):
            return  # the bot edits there through the channel
        left = (interaction.expires_at - discord.utils.utcnow()).total_seconds() - self._margin
        if left <= 0:
            return
        expires = self._clock() + left
        kept = self._by_message.get(message_id)
        if kept is None or kept.expires < expires:
            self._by_message[message_id] = _Original(interaction, expires)
        if len(self._by_message) >= self._prune_at:
            self._prune()

    def _refusing(self, interaction: discord.Interaction[discord.Client]) -> bool:
        """True where ``interaction`` came from a place whose channel edits are refused, or expected to be; a group
        DM, another person's DM or a guild the app is not installed in (only a user install reaches the bot there)
        is marked as refusing."""
        channel_id = interaction.channel_id
        user_installed = interaction.context.private_channel or (
            interaction.guild_id is not None and not interaction.is_guild_integration()
        )
        if user_installed and channel_id is not None:
            self.refuse(channel_id)
        return user_installed or (channel_id is not None and self.refused(channel_id))

    def fresh(self, message_id: int) -> discord.Interaction[discord.Client] | None:
        """The interaction kept for message ``message_id`` if its token is still fresh, else ``None``."""
        kept = self._by_message.get(message_id)
        if kept is None:
            return None
        if kept.expires <= self._clock():
            del self._by_message[message_id]
            return None
        return kept.interaction

    def forget(self, message_id: int) -> None:
        """Drop what is kept for message ``message_id`` (Discord refused its token)."""
        self._by_message.pop(message_id, None)

    def refuse(self, channel_id: int) -> None:
        """Channel ``channel_id`` refuses the bot's channel edits, for the next :data:`REFUSAL_MEMORY` seconds."""
        self._refused.pop(channel_id, None)
        self._refused[channel_id] = self._clock() + REFUSAL_MEMORY
        while len(self._refused) > MAX_CHANNELS:
            self._refused.popitem(last=False)

    def refused(self, channel_id: int) -> bool:
        """True when channel ``channel_id`` is known to refuse the bot's channel edits."""
        until = self._refused.get(channel_id)
        if until is None:
            return False
        if until <= self._clock():
            del self._refused[channel_id]
            return False
        return True

    def _prune(self) -> None:
        """Drop every expired interaction; the next pruning waits until the map has doubled."""
        now = self._clock()
        for message_id in [m for m, kept in self._by_message.items() if kept.expires <= now]:
            del self._by_message[message_id]
        self._prune_at = max(64, 2 * len(self._by_message))
