"""Refusals and hints in words (bot.text.hints)."""

from __future__ import annotations

import string

from bot.games import refusals
from bot.games.match import Match
from bot.games.service import Player
from bot.text.hints import hint_text, refusal_text
from engine import GameValue, Mark
from engine.hints import Hint, HintMove

ALICE, BOB = 10, 20
CHANNEL = 1
LINK = "https://discord.com/channels/5/1/9"


def played(*cells: int, x_id: int | None = ALICE, o_id: int | None = None, **fields: object) -> Match:
    game = Match("0a1b2c", CHANNEL, x_id, o_id, **fields)  # type: ignore[arg-type]
    for cell in cells:
        game = game.play(cell)
    return game


def test_hint_text_lists_moves_and_counts() -> None:
    moves = ((0, GameValue("win", 1), 1.0), (5, GameValue("draw", 4), 0.5), (8, GameValue("loss", 2), 0.0))
    analysis = Hint(
        to_move=Mark.X,
        moves=tuple(HintMove(*move) for move in moves),
        exact=True,
        states=99,
        elapsed_ms=10.0,
        alpha_beta_states=1234,
        minimax_states=56789,
    )
    assert hint_text(played(), analysis).splitlines() == [
        "**Hint for ❌ X** (best play from both sides):",
        "`1` win in 1 ply ★",
        "`6` draw in 4 plies",
        "`9` loss in 2 plies",
        "From here alpha-beta evaluates 1,234 states; plain minimax evaluates 56,789.",
    ]


def test_refusal_text_names_players_and_falls_back_for_a_missing_link() -> None:
    values = {"user": Player(BOB)}
    assert refusal_text(refusals.NOT_CHALLENGED, values) == (
        "Only <@20> can answer this challenge — start your own game with /ttt start."
    )
    assert refusal_text(refusals.NOT_CHALLENGED, values, who=lambda p: f"user {p}").startswith("Only user 20 ")
    assert refusal_text(refusals.NOT_CHALLENGED, {"user": Player(None)}).startswith("Only the bot can answer")
    assert refusal_text(refusals.BUSY_GAME, {"link": None}) == (
        "A game is already running in this channel: see above — one game per channel."
    )
    assert refusal_text(refusals.STALE_BOARD, {"link": LINK}) == (
        f"This board is out of date — use the latest one: {LINK}"
    )
    assert refusal_text(refusals.NOT_YOUR_TURN, {}) == "Not your turn."


TYPED = {"typed": "*z", "named": "1-9", "other": "a1-c3"}
"""A typed move's values: what was typed is escaped (``*`` would start italics)."""


def test_every_refusal_renders_with_the_values_the_service_gives() -> None:
    keys = [v for name, v in vars(refusals).items() if name.isupper() and isinstance(v, str)]
    assert refusals.STALE_BOARD in keys and refusals.NO_HISTORY in keys
    for key in keys:
        fields = {name for _, name, _, _ in string.Formatter().parse(key) if name}
        assert fields <= {"link", "user", "variant", "states", "first", "last", "board", "marks", *TYPED}, key
        values = {"link": None, "user": Player(BOB), "variant": "5x5", "states": 1234567, "first": "a1", "last": "d4"}
        text = refusal_text(key, {**values, "board": "d4-f6", "marks": 4, **TYPED})
        shown = {**values, "link": "see above", "user": "<@20>", "states": "1,234,567", "board": "d4-f6", "marks": 4}
        assert "{" not in text and text == key.format(**shown, **{**TYPED, "typed": "\\*z"})


def test_a_hint_read_from_the_opening_book_says_so_instead_of_counting_states() -> None:
    moves = ((0, GameValue("loss", 8), 0.0), (4, GameValue("win", 5), 1.0))
    read = Hint(to_move=Mark.X, moves=tuple(HintMove(*m) for m in moves), exact=True, states=0, elapsed_ms=0.3)
    game = played()  # the text reads only the hint's own counts
    last = hint_text(game, read).splitlines()[-1]
    assert last == "Every value was read from the opening book in 0.30 ms: nothing searched."
    searched = Hint(to_move=Mark.X, moves=read.moves, exact=True, states=1_234, elapsed_ms=12.0)
    assert hint_text(game, searched).splitlines()[-1] == "The solver evaluated 1,234 states in 12.0 ms."
