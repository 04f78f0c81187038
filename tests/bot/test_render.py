"""The pure text and button-face functions."""

from __future__ import annotations

from dataclasses import replace

from discord import ButtonStyle

from bot import render
from bot.sessions import AIMove, Session
from bot.stats import Stats
from engine import Analysis, Mark, MoveAnalysis, parse_board


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
    faces = [render.cell_face(state, c, finished=True) for c in range(9)]
    assert [f.style for f in faces[:3]] == [ButtonStyle.success] * 3
    assert faces[3] == render.ButtonFace(None, "⭕", ButtonStyle.primary, True)
    assert faces[5] == render.ButtonFace("6", None, ButtonStyle.secondary, True)
    running = render.cell_face(parse_board("X........"), 0, finished=False)
    assert running == render.ButtonFace(None, "❌", ButtonStyle.danger, True)
    assert not render.cell_face(parse_board("X........"), 1, finished=False).disabled


def test_ai_line_uses_thousands_separators_and_people_numbering() -> None:
    ai = AIMove(Mark.O, 4, 7641, 0.0023, "alpha-beta", False)
    assert render.ai_line(ai) == "O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"
    slow = AIMove(Mark.X, 0, 549_945, 1.5, "minimax", True)
    assert render.ai_line(slow).startswith("X played 1 · minimax evaluated 549,945 states in 1.50 s (then played")
    assert render.format_elapsed(0.00004) == "0.04 ms"


def test_message_text_for_each_ending() -> None:
    base = Session("0a1b2c", 1, 10, None, state=parse_board("XXXOO...."), status="over", end_reason="win")
    base = replace(base, ai_states=1234, ai_moves=2)
    assert "❌ <@10> wins! The bot evaluated 1,234 states over 2 moves." in render.message_text(base)
    draw = replace(base, state=parse_board("XOXXOOOXX"), end_reason="draw")
    assert "It's a draw." in render.message_text(draw)
    resigned = replace(base, state=parse_board("X...O...."), end_reason="resigned", resigned=Mark.X)
    assert "<@10> resigned — ⭕ the bot wins." in render.message_text(resigned)
    assert resigned.winner is Mark.O
    abandoned = replace(base, state=parse_board("X...O...."), end_reason="abandoned")
    assert "Game abandoned" in render.message_text(abandoned) and abandoned.winner is None


def test_text_mode_message_includes_the_grid_and_the_command() -> None:
    session = Session("0a1b2c", 1, 10, 20, mode="text")
    text = render.message_text(session)
    assert render.board_grid(session.state) in text and "/ttt move" in text
    assert "/ttt move" not in render.message_text(session, commands=False)
    assert "you" in render.message_text(session, lambda p: "you" if p == 10 else "them")


def test_hint_text_lists_moves_and_counts() -> None:
    analysis = Analysis(
        to_move=Mark.X,
        moves=(MoveAnalysis(0, "win", 1), MoveAnalysis(5, "draw", 4), MoveAnalysis(8, "loss", 2)),
        states=99,
        alphabeta_states=1234,
        minimax_states=56789,
        elapsed=0.01,
    )
    lines = render.hint_text(analysis).splitlines()
    assert lines[1:4] == ["`1` win in 1 ply ★", "`6` draw in 4 plies", "`9` loss in 2 plies"]
    assert lines[4] == "From here alpha-beta evaluates 1,234 states; plain minimax evaluates 56,789."


def test_stats_text() -> None:
    stats = Stats()
    won = Session("0a1b2c", 1, 10, 20, state=parse_board("XXXOO...."), status="over", end_reason="win")
    assert stats.record(won)
    assert not stats.record(replace(won, end_reason="abandoned"))
    assert render.stats_text("A", stats.get(10)) == "**A**\nvs the bot: 0 W · 0 D · 0 L\nvs people: 1 W · 0 D · 0 L"
    assert stats.get(20).vs_people.losses == 1


def test_plain_drops_discord_markdown() -> None:
    text = "**Hint for X**\n`1` draw\n```\n 1 │ 2 │ 3 \n```"
    assert render.plain(text) == "Hint for X\n1 draw\n 1 │ 2 │ 3 "
