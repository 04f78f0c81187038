"""One cooldown for the hints and the looks at a search: a refusal in words with the wait left, per user."""

from __future__ import annotations

from types import SimpleNamespace

from bot.cogs import _presses, ttt
from bot.cogs.cooldowns import Cooldown
from bot.i18n import N_
from tests.bot.ui.fakes import FakeInteraction

WAIT = N_("Hints are limited to one every {seconds} s — try again in {retry} s.")


async def test_a_second_press_within_the_cooldown_is_refused_with_the_wait_left() -> None:
    clock = [100.0]
    cooldown = Cooldown(5.0, WAIT, clock=lambda: clock[0])
    first = FakeInteraction()
    assert not await cooldown.refused(first) and not first.calls
    clock[0] = 101.5
    second = FakeInteraction()
    assert await cooldown.refused(second)
    said = [call.kwargs.get("content") for call in second.calls if call.name == "send_message"]
    assert said == ["Hints are limited to one every 5 s — try again in 3.5 s."]
    assert second.extras["result"] == "refused"
    clock[0] = 105.0
    assert not await cooldown.refused(FakeInteraction())  # the wait is over


async def test_each_user_has_their_own_cooldown() -> None:
    cooldown = Cooldown(5.0, WAIT, clock=lambda: 0.0)
    alice, bob = FakeInteraction(), FakeInteraction()
    bob.user.id = 20
    assert not await cooldown.refused(alice) and not await cooldown.refused(bob)
    assert await cooldown.refused(FakeInteraction())


def test_hints_and_looks_keep_their_limits() -> None:
    cog = ttt.GameCommands(SimpleNamespace(games=None, responder=None))  # type: ignore[arg-type]
    assert cog.hints.seconds == 5.0 and cog.hints.message == ttt.HINT_COOLDOWN
    assert cog.looks.seconds == 2.0 and cog.looks.message == _presses.THINKING_COOLDOWN
