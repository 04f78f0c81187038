"""New games (bot.games.openings): plain minimax is refused where it cannot finish in a reply, with its estimate of
the states, however many digits the estimate has."""

from __future__ import annotations

import random

import pytest

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Refusal
from bot.games.intents import Actor
from bot.games.openings import MINIMAX_REPLY_STATES, minimax_estimate
from bot.games.service import GameService
from bot.i18n import LOCALES
from bot.i18n.lang import lang
from bot.text.hints import refusal_text

SHOWN = {"4x4": "35", "5x5": "× 10²⁴", "connect-four": "× 10²⁹", "ultimate": "× 10⁵⁴"}
"""How each estimate shows: 4x4's 14 digits grouped, the others (25, 30, 55 digits) in scientific notation."""


@pytest.mark.parametrize("name", list(SHOWN))
async def test_minimax_too_slow_says_its_estimate_in_every_locale(ai: AI, name: str) -> None:
    games = GameService(ai, rng=random.Random(1))
    outcome = await games.start(Actor(1, 2), game_id="g", variant=name, algorithm="minimax")
    assert isinstance(outcome, Refusal) and outcome.key == refusals.MINIMAX_TOO_SLOW, outcome
    assert outcome.values["states"] == minimax_estimate(name) > MINIMAX_REPLY_STATES
    for locale in LOCALES:
        tr = lang(locale)
        text = refusal_text(outcome.key, outcome.values, tr)
        assert name in text and tr.number(minimax_estimate(name)) in text and SHOWN[name] in text, text
    games.close()
