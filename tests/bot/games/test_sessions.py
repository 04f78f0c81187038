"""The channels' sessions (bot.games.sessions): what its intent-level methods commit, arm and remember."""

from __future__ import annotations

from dataclasses import replace

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.hooks import Hooks
from bot.games.match import Match
from bot.games.sessions import Sessions

ALICE, BOB, CHANNEL = 11, 22, 7


def sessions(finished: list[Match] | None = None) -> Sessions:
    return Sessions(Hooks(on_finished=None if finished is None else finished.append), turn_timeout=60)


async def test_a_challenge_arms_its_deadline_and_its_acceptance_trades_it_for_the_turns() -> None:
    held = sessions()
    challenge = Match("g1", CHANNEL, ALICE, BOB, status="challenge", challenged_id=BOB)
    assert held.commit(challenge) is None
    assert held.current(CHANNEL) == challenge and held.deadlines == 1
    assert held.commit(challenge.accept(), rearm=True) is None
    assert held.deadlines == 1 and held.current(CHANNEL) == challenge.accept()  # the turn's, not the challenge's
    declined = Match("g2", CHANNEL + 1, ALICE, BOB, status="challenge", challenged_id=BOB)
    held.commit(declined)
    held.commit(declined.end("declined"))
    assert held.current(CHANNEL + 1) is None and held.deadlines == 1 and held.is_finished("g2")
    held.close()


async def test_an_intent_acts_only_on_a_held_game_and_adopts_the_message_a_press_names() -> None:
    held = sessions()
    async with held.acting_on(CHANNEL) as found:
        assert found == Refusal(refusals.NO_GAME)
    game = Match("g1", CHANNEL, ALICE, None, message_id=500).play(4)
    held.commit(game)
    async with held.acting_on(CHANNEL) as found:
        assert found == game
    reposting = replace(game.reposted(), retired=500)
    held.commit(reposting)
    async with held.acting_on(CHANNEL, reposting.at(600)) as found:
        assert isinstance(found, Match) and found.message_id == 600
    assert held.current(CHANNEL) == found  # kept: the press beat its repost's answer
    held.close()


async def test_a_dormant_game_resumes_with_its_own_deadline_and_an_unseen_end_is_shown_once() -> None:
    finished: list[Match] = []
    held = sessions(finished)
    stored = Match("g1", CHANNEL, ALICE, None).play(4)
    held.hold_dormant(stored, 30)
    assert held.dormant(CHANNEL) == stored and held.dormant_games == 1 and held.deadlines == 1
    assert held.current(CHANNEL) is None
    held.resume(stored.at(500))
    assert held.current(CHANNEL) == stored.at(500) and held.dormant(CHANNEL) is None and held.deadlines == 1

    other = Match("g2", CHANNEL + 1, ALICE, None)  # stored, its deadline passed while the bot was down
    held.end_dormant(other)
    assert [g.game_id for g in finished] == ["g2"] and held.is_finished("g2")
    assert held.take_unseen("g2") == other.end("abandoned") and held.take_unseen("g2") is None
    held.close()
