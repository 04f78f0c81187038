"""The pure text and button-face functions, from a game to what people see."""

from __future__ import annotations

import string
from dataclasses import replace

import pytest
from discord import ButtonStyle

from bot.games import refusals
from bot.games.game import AIMove, Game
from bot.games.service import Player
from bot.records import Record, UserStats
from bot.text import render
from engine import Analysis, Mark, MoveAnalysis, parse_board

ALICE, BOB = 10, 20
CHANNEL = 1
LINK = "https://discord.com/channels/5/1/9"


def played(*cells: int, x_id: int | None = ALICE, o_id: int | None = None, **fields: object) -> Game:
    game = Game("0a1b2c", CHANNEL, x_id, o_id, **fields)  # type: ignore[arg-type]
    for cell in cells:
        game = game.play(cell)
    return game


def test_grid_is_aligned_and_numbers_empty_cells() -> None:
    grid = render.board_grid(parse_board("X.O.X...."))
    assert grid.splitlines() == [
        "```",
        " X │ 2 │ O ",
        "───┼───┼───",
        " 4 │ X │ 6 ",
        "───┼───┼───",
        " 7 │ 8 │ 9 ",
        "```",
    ]
    assert len({len(line) for line in grid.splitlines()[1:-1]}) == 1


def test_cell_faces() -> None:
    state = parse_board("XXXOO....")
    faces = render.cell_faces(state, True)
    assert [f.style for f in faces[:3]] == [ButtonStyle.success] * 3
    assert faces[3] == render.ButtonFace(None, "⭕", ButtonStyle.primary, True)
    assert faces[5] == render.ButtonFace("6", None, ButtonStyle.secondary, True)
    running = render.cell_faces(parse_board("X........"), False)[0]
    assert running == render.ButtonFace(None, "❌", ButtonStyle.danger, True)
    assert render.cell_faces(parse_board("X........"), False)[1] == render.ButtonFace(
        "2", None, ButtonStyle.secondary, False
    )


def test_ai_line_uses_thousands_separators_people_numbering_and_plurals() -> None:
    ai = AIMove(Mark.O, 4, 7641, 0.0023, "alpha-beta", False)
    assert render.ai_line(ai) == "O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"
    one = AIMove(Mark.O, 8, 1, 0.00001, "alpha-beta", False)
    assert render.ai_line(one) == "O played 9 · alpha-beta evaluated 1 state in 0.01 ms"
    slow = AIMove(Mark.X, 0, 549_945, 1.5, "minimax", True)
    assert render.ai_line(slow) == (
        "X played 1 · minimax evaluated 549,945 states in 1.50 s (then played a random move, as its difficulty allows)"
    )


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.00004, "0.04 ms"), (0.0023, "2.3 ms"), (0.9994, "999.4 ms"), (1.5, "1.50 s")]
)
def test_format_elapsed(seconds: float, text: str) -> None:
    assert render.format_elapsed(seconds) == text


def test_message_text_for_each_ending() -> None:
    won = replace(played(0, 3, 1, 4, 2), ai_states=1234)  # the bot (O) moved twice
    assert won.ai_moves == 2
    assert "❌ <@10> wins! The bot evaluated 1,234 states over 2 moves." in render.message_text(won)
    drawn = played(0, 1, 2, 4, 3, 5, 7, 6, 8)
    assert (
        drawn.end_reason == "draw"
        and "It's a draw. The bot evaluated 0 states over 4 moves." in render.message_text(drawn)
    )
    resigned = replace(played(0, 4), ai_states=7).resign(Mark.X)
    assert "<@10> resigned — ⭕ the bot wins. The bot evaluated 7 states over 1 move." in render.message_text(resigned)
    abandoned = played(0, 4).end("abandoned")
    assert "Game abandoned: nobody moved in time." in render.message_text(abandoned)
    expired = played(o_id=BOB, status="challenge", challenged_id=BOB).end("expired")
    assert render.result_line(expired) == "Game over."


def test_the_bots_total_is_left_out_of_games_between_people_and_before_it_moved() -> None:
    people = played(0, 3, 1, 4, 2, o_id=BOB)
    assert render.result_line(people) == "❌ <@10> wins!"
    early = played(4).resign(Mark.X)  # the bot (O) never moved
    assert render.result_line(early) == "<@10> resigned — ⭕ the bot wins."


def test_message_text_while_playing() -> None:
    game = replace(played(4, 0), last_ai=AIMove(Mark.O, 0, 307, 0.0002, "alpha-beta", False), ai_states=307)
    assert render.message_text(game).splitlines() == [
        "**Tic-tac-toe** · ❌ <@10> vs ⭕ the bot · unbeatable · alpha-beta",
        "O played 1 · alpha-beta evaluated 307 states in 0.20 ms",
        "❌ <@10> to move (X).",
    ]
    people = played(4, o_id=BOB)
    assert render.message_text(people).splitlines() == [
        "**Tic-tac-toe** · ❌ <@10> vs ⭕ <@20>",
        "⭕ <@20> to move (O).",
    ]


def test_text_mode_message_includes_the_grid_and_the_command() -> None:
    game = played(4, o_id=BOB, mode="text")
    text = render.message_text(game)
    assert render.board_grid(game.state) in text and text.endswith("Play with `/ttt move cell:<1-9>`.")
    assert "/ttt move" not in render.message_text(game, commands=False)
    assert "/ttt move" not in render.message_text(played(0, 3, 1, 4, 2, o_id=BOB, mode="text"))
    assert "⭕ them to move (O)." in render.message_text(game, lambda p: "you" if p == ALICE else "them")
    assert render.board_grid(game.state) not in render.message_text(replace(game, mode="buttons"))


def test_hint_text_lists_moves_and_counts() -> None:
    analysis = Analysis(
        to_move=Mark.X,
        moves=(MoveAnalysis(0, "win", 1), MoveAnalysis(5, "draw", 4), MoveAnalysis(8, "loss", 2)),
        states=99,
        alpha_beta_states=1234,
        minimax_states=56789,
        elapsed=0.01,
    )
    assert render.hint_text(analysis).splitlines() == [
        "**Hint for ❌ X** (best play from both sides):",
        "`1` win in 1 ply ★",
        "`6` draw in 4 plies",
        "`9` loss in 2 plies",
        "From here alpha-beta evaluates 1,234 states; plain minimax evaluates 56,789.",
    ]


def test_refusal_text_names_players_and_falls_back_for_a_missing_link() -> None:
    values = {"user": Player(BOB)}
    assert render.refusal_text(refusals.NOT_CHALLENGED, values) == (
        "Only <@20> can answer this challenge — start your own game with /ttt start."
    )
    assert render.refusal_text(refusals.NOT_CHALLENGED, values, who=lambda p: f"user {p}").startswith("Only user 20 ")
    assert render.refusal_text(refusals.NOT_CHALLENGED, {"user": Player(None)}).startswith("Only the bot can answer")
    assert render.refusal_text(refusals.BUSY_GAME, {"link": None}) == (
        "A game is already running in this channel: see above — one game per channel."
    )
    assert render.refusal_text(refusals.STALE_BOARD, {"link": LINK}) == (
        f"This board is out of date — use the latest one: {LINK}"
    )
    assert render.refusal_text(refusals.NOT_YOUR_TURN, {}) == "Not your turn."


def test_every_refusal_renders_with_the_values_the_service_gives() -> None:
    keys = [v for name, v in vars(refusals).items() if name.isupper() and isinstance(v, str)]
    assert refusals.STALE_BOARD in keys and refusals.NO_HISTORY in keys
    for key in keys:
        fields = {name for _, name, _, _ in string.Formatter().parse(key) if name}
        assert fields <= {"link", "user"}, key
        text = render.refusal_text(key, {"link": None, "user": Player(BOB)})
        assert "{" not in text and text == key.format(link="see above", user="<@20>")


def test_challenge_texts() -> None:
    challenge = played(x_id=BOB, o_id=ALICE, status="challenge", challenged_id=BOB)
    assert render.challenge_text(challenge, 60) == (
        "<@20>, <@10> challenges you to tic-tac-toe! You would play ❌ X first. Accept within 60 s."
    )
    second = played(x_id=ALICE, o_id=BOB, status="challenge", challenged_id=BOB)
    assert render.challenge_text(second, 59.6) == (
        "<@20>, <@10> challenges you to tic-tac-toe! You would play ⭕ O second. Accept within 60 s."
    )
    with pytest.raises(ValueError, match="not a challenge"):
        render.challenge_text(played(o_id=BOB), 60)
    assert render.declined_text(second.end("declined")) == "<@20> declined the challenge."
    assert render.expired_text(60) == "The challenge expired: no answer within 60 s."


def test_moved_text() -> None:
    assert render.moved_text(LINK) == f"This board moved: {LINK}"
    assert render.moved_text(None) == "This board moved further down."


def test_stats_text() -> None:
    stats = UserStats(vs_bot=Record(0, 3, 7), vs_people=Record(1, 0, 2))
    assert render.stats_text("A", stats) == "**A**\nvs the bot: 0 W · 3 D · 7 L\nvs people: 1 W · 0 D · 2 L"


def test_stats_text_groups_the_digits_of_large_records_by_locale() -> None:
    stats = UserStats(vs_bot=Record(0, 1234, 56789), vs_people=Record(1000, 0, 2))
    assert "vs the bot: 0 W · 1,234 D · 56,789 L" in render.stats_text("A", stats)
    assert "1.234" in render.stats_text("A", stats, render.lang("de"))


def test_help_text_explains_the_numbering_and_the_state_counts() -> None:
    text = render.help_text()
    assert render.board_grid(parse_board(".........")) in text
    for phrase in ("three in a row", "Minimax", "Alpha-beta", "prunes", "549,945", "/ttt hint"):
        assert phrase in text


def test_plain_drops_discord_markdown() -> None:
    text = "**Hint for X**\n`1` draw\n```\n 1 │ 2 │ 3 \n```"
    assert render.plain(text) == "Hint for X\n1 draw\n 1 │ 2 │ 3 "


def test_lang_and_names() -> None:
    tr = render.lang(None)
    assert render.lang(None) is tr and tr.number(1234567) == "1,234,567"
    assert (
        tr.plural("{n} move", "{n} moves", 1, n=1) == "1 move"
        and tr.plural("{n} move", "{n} moves", 2, n=2) == "2 moves"
    )
    assert render.discord_who(None) == "the bot" and render.discord_who(BOB) == "<@20>"
