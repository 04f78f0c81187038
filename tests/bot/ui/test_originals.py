"""Which interaction can still edit a message: kept only from where channel edits are refused (a user install, a
channel that refused one), the freshest token kept, an expired one never returned (the margin taken off), the map
pruned; channels of user-installed contexts, or that refused an edit, are remembered as refusing for a while."""

from __future__ import annotations

from typing import Any

from bot.ui.originals import MARGIN, REFUSAL_MEMORY, Originals
from tests.bot.ui.fakes import FakeInteraction


class Clock:
    """A monotonic clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def made(**kwargs: Any) -> Any:
    """An interaction from a guild the app is not installed in (only a user install brought it), unless told."""
    return FakeInteraction(**{"installed": False, **kwargs})


def test_where_the_bot_edits_through_the_channel_nothing_is_kept() -> None:
    originals = Originals(Clock())
    originals.remember(100, made(pressed=100, installed=True))
    assert originals.fresh(100) is None and len(originals) == 0 and not originals.refused(1)
    originals.refuse(1)  # a channel edit there was refused after all: later interactions are kept
    kept = made(pressed=100, installed=True)
    originals.remember(100, kept)
    assert originals.fresh(100) is kept


def test_a_guild_the_app_is_not_installed_in_refuses_channel_edits() -> None:
    originals = Originals(Clock())
    interaction = made(channel_id=7, pressed=100)
    originals.remember(100, interaction)
    assert originals.refused(7) and originals.fresh(100) is interaction


def test_the_token_that_expires_last_is_kept() -> None:
    originals = Originals(Clock())
    older, newer = made(pressed=100, age=300), made(pressed=100, age=10)
    originals.remember(100, newer)
    originals.remember(100, older)  # an answer that came back late does not replace a fresher token
    assert originals.fresh(100) is newer
    assert originals.fresh(200) is None


def test_a_token_is_not_used_within_the_margin_of_its_expiry() -> None:
    clock = Clock()
    originals = Originals(clock)
    originals.remember(100, made(pressed=100, age=900 - MARGIN + 1))  # 15 min less the margin already gone
    assert originals.fresh(100) is None and len(originals) == 0
    interaction = made(pressed=100, age=600)  # 300 s left: usable for 300 - MARGIN more
    originals.remember(100, interaction)
    clock.now += 300 - MARGIN - 5
    assert originals.fresh(100) is interaction
    clock.now += 10
    assert originals.fresh(100) is None and len(originals) == 0


def test_forget_drops_a_token_discord_refused() -> None:
    originals = Originals(Clock())
    originals.remember(100, made(pressed=100))
    originals.forget(100)
    originals.forget(100)
    assert originals.fresh(100) is None


def test_expired_tokens_are_pruned_as_the_map_grows() -> None:
    clock = Clock()
    originals = Originals(clock)
    for message_id in range(50):
        originals.remember(message_id, made(pressed=message_id, age=800))  # 100 s left, less the margin
    clock.now += 100
    for message_id in range(1000, 1100):
        originals.remember(message_id, made(pressed=message_id))
    assert len(originals) < 150 and all(originals.fresh(m) is None for m in range(50))
    assert all(originals.fresh(m) is not None for m in range(1000, 1100))


def test_a_private_channel_context_refuses_channel_edits_for_a_while() -> None:
    clock = Clock()
    originals = Originals(clock)
    originals.remember(100, made(channel_id=7, pressed=100, installed=True))
    assert not originals.refused(7)
    originals.remember(101, made(channel_id=8, pressed=101, private=True))
    assert originals.refused(8) and not originals.refused(7)
    clock.now += REFUSAL_MEMORY - 1
    originals.remember(102, made(channel_id=8, pressed=102, private=True, age=60))  # refreshed by a new interaction
    clock.now += 2
    assert originals.refused(8)
    clock.now += REFUSAL_MEMORY
    assert not originals.refused(8)


def test_a_channel_that_refused_an_edit_is_remembered() -> None:
    clock = Clock()
    originals = Originals(clock)
    originals.refuse(9)
    assert originals.refused(9)
    clock.now += REFUSAL_MEMORY + 1
    assert not originals.refused(9)
