"""The variants' boards: 4x4 classic buttons, 5x5 a Components V2 message within Discord's limits, text boards, a
grid wider than 5 as a picture."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

from bot.games.answers import BotMoved, Chosen, Hinted, Shown
from bot.games.codec import MNK_BOARD_TEMPLATE, REF_TEMPLATE, BoardRef, decode
from bot.games.match import Match, initial_for
from bot.i18n.lang import lang
from bot.images.grid import GridPicture, draw_grid
from bot.text.board import message_text
from bot.text.hints import hint_text
from bot.ui.pictures import Picture
from bot.ui.present import PRIVATE, Background, OnMessage, OnPad, Reply, Retired, present
from bot.ui.views import LayoutComponents, board_message, is_layout, ultimate_picture
from engine import Mark, register, registry
from engine.hints import Hint, HintMove
from engine.protocol import GameValue
from tests.e2e.wide_game import SEVEN_BY_SEVEN, WideBoard

ALICE = 10
EN = lang(None)
SECONDS = 60.0


def game(variant: str, *cells: int, **fields: Any) -> Match:
    board = Match("0a1b2c", 1, ALICE, None, message_id=500, variant=variant, state=initial_for(variant), **fields)
    for cell in cells:
        board = board.play(cell)
    return board


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for component in components:
        found.append(component)
        found += walk(component.get("components") or [])
    return found


def buttons(view: Any) -> list[dict[str, Any]]:
    return [c for c in walk(view.to_components()) if c["type"] == 2]


def test_a_4x4_board_is_four_rows_of_four_buttons_and_a_control_row() -> None:
    board = game("4x4", 0, 5)  # X a1, O b2; X to move
    view, files = board_message(board, message_text(board, tr=EN), EN)
    assert view is not None and not is_layout(view) and files == ()
    rows = view.to_components()
    assert [len(row["components"]) for row in rows] == [4, 4, 4, 4, 1]
    cells = [b for row in rows[:4] for b in row["components"]]
    assert [b.get("label") for b in cells[2:5]] == ["c1", "d1", "a2"]
    assert cells[0]["emoji"] == {"name": "\N{CROSS MARK}"} and cells[0]["disabled"] and cells[5]["disabled"]
    assert all(re.fullmatch(MNK_BOARD_TEMPLATE, b["custom_id"]) and len(b["custom_id"]) <= 100 for b in cells)
    assert rows[4]["components"][0]["label"] == "Resign"


def test_a_5x5_board_is_a_components_v2_message_within_every_limit() -> None:
    board = game("5x5", 12, 6, 0)
    reply = present(BotMoved(board), EN, challenge_seconds=SECONDS)
    assert reply.content == "" and isinstance(reply.view, LayoutComponents) and reply.view.has_components_v2()
    assert reply.target == Background(board)
    top = reply.view.to_components()
    assert top[0] == {"type": 10, "content": message_text(board, tr=EN)}
    assert [len(row["components"]) for row in top[1:]] == [5, 5, 5, 5, 5, 1]
    everything = walk(top)
    assert len(everything) == 33 <= 40
    assert sum(len(c.get("content", "")) for c in everything if c["type"] == 10) <= 4000
    ids = [b["custom_id"] for b in buttons(reply.view)]
    assert len(set(ids)) == len(ids) and max(map(len, ids)) <= 100


def test_a_variant_board_says_the_bot_is_thinking_and_takes_no_press_meanwhile() -> None:
    board = game("4x4", 5)  # the bot (O) to move
    assert board.thinking
    view, _ = board_message(board, "", EN)
    cells = buttons(view)[:16]
    assert all(b.get("disabled") for b in cells)
    assert "thinking" in message_text(board, tr=EN)


def test_a_text_board_has_coordinates_and_fits_a_message() -> None:
    board = game("5x5", 0, 24, mode="text")
    text = message_text(board, tr=EN)
    assert "   a b c d e" in text and " 1 X · · · ·" in text and " 5 · · · · O" in text
    assert "/ttt move cell:<a1-e5>" in text and len(text) <= 2000
    view, files = board_message(board, text, EN)
    assert files == ()
    assert view is not None and not is_layout(view) and [len(r["components"]) for r in view.to_components()] == [1]


def test_a_retired_5x5_board_stays_a_components_v2_message() -> None:
    board = game("5x5", 12)
    reply = present(Retired(board, 499, "https://discord.com/channels/5/1/9"), EN, challenge_seconds=SECONDS)
    assert reply.content == "" and is_layout(reply.view)
    assert reply.view is not None and "https://discord.com/channels/5/1/9" in reply.view.to_components()[0]["content"]


def test_a_finished_board_offers_a_rematch_and_disables_its_cells() -> None:
    board = game("4x4", 0, 4, 1, 5, 2, 6, 3)  # X: a1 b1 c1 d1
    assert board.over and board.winner is not None
    view, _ = board_message(board, "", EN)
    assert all(b.get("disabled") for b in buttons(view)[:16])
    assert buttons(view)[-1]["label"] == "Rematch"


def test_an_exact_hint_names_cells_by_coordinate_and_stars_the_best() -> None:
    board = game("4x4", 0, 5)
    values = ((2, GameValue("draw", 14), 0.5), (3, GameValue("win", 7), 1.0), (4, GameValue("loss", 6), 0.0))
    hint = Hint(Mark.X, tuple(HintMove(*v) for v in values), True, 1234, 5.0)
    reply = present(Hinted(board, hint), EN, challenge_seconds=SECONDS)
    assert reply == Reply(hint_text(board, hint, EN), PRIVATE)
    lines = reply.content.splitlines()
    assert lines[1].startswith("`c1` draw") and lines[2] == "`d1` win in 7 plies ★" and "★" not in lines[3]
    assert "1,234" in lines[-1]


def test_a_press_reply_goes_on_the_pressed_message() -> None:
    board = game("5x5", 12, 6)
    assert present(Shown(board), EN, challenge_seconds=SECONDS).target == OnMessage(board)


def test_an_ultimate_board_has_the_picture_and_the_pad_of_the_forced_small_board() -> None:
    board = game("ultimate", 40, 30)  # X e5, O d4 (cell 0 of the centre board): X must play in a1-c3
    reply = present(Shown(board), EN, challenge_seconds=SECONDS)
    assert reply.content == "" and is_layout(reply.view) and [f.filename for f in reply.files] == ["ultimate.png"]
    assert reply.view is not None
    top = reply.view.to_components()
    assert [c["type"] for c in top] == [10, 12, 1, 1, 1, 1]
    assert top[1]["items"] == [{"media": {"url": "attachment://ultimate.png"}}]
    pad = [b for row in top[2:5] for b in row["components"]]
    assert [b.get("label") for b in pad] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    assert "a1-c3" in top[0]["content"] and len(walk(top)) <= 40


def test_a_free_choice_shows_the_open_boards_on_the_board_and_the_chosen_cells_on_the_private_pad() -> None:
    board = game("ultimate")
    view, _ = board_message(board, "", EN)
    pad = buttons(view)
    assert [b["label"] for b in pad[:3]] == ["a1-c3", "d1-f3", "g1-i3"]
    assert [b["custom_id"].split(":")[2] for b in pad[:9]] == [f"p{b}" for b in range(9)]
    assert [b.get("label") for b in pad[9:]] == ["Resign"], "the board has no Back: a choice is private"
    chosen = present(Chosen(board, 4, on_pad=False), EN, challenge_seconds=SECONDS)
    assert chosen.target == OnPad(update=False) and chosen.ephemeral and chosen.view is not None
    assert "d4-f6" in chosen.content and "Only you" in chosen.content and not chosen.files
    cells = buttons(chosen.view)
    assert [b.get("label") for b in cells[:3]] == ["d4", "e4", "f4"]
    assert [b.get("label") for b in cells[9:]] == ["Back"]
    assert cells[0]["custom_id"] == "ttt:up:30:0a1b2c:0" and cells[9]["custom_id"] == "ttt:up:k:0a1b2c:0"
    assert all(re.fullmatch(REF_TEMPLATE, b["custom_id"]) and len(b["custom_id"]) <= 100 for b in cells)
    back = present(Chosen(board, None, on_pad=True), EN, challenge_seconds=SECONDS)
    assert back.target == OnPad(update=True) and back.view is not None
    assert [b["custom_id"] for b in buttons(back.view)] == [f"ttt:up:p{b}:0a1b2c:0" for b in range(9)]


def test_a_move_made_on_the_private_pad_is_confirmed_there_and_shown_on_the_board() -> None:
    played = game("ultimate", 40)
    reply = present(Shown(played, pad=True), EN, challenge_seconds=SECONDS)
    assert reply.target == OnPad(update=True, board=played) and reply.view is None and not reply.files
    assert "e5" in reply.content


def test_the_private_pad_shows_taken_cells_disabled_with_their_marks() -> None:
    board = game("ultimate", 40, 30, 0)  # X e5, O d4, X a1: the pad draws the centre board's cells as it stands
    pad = present(Chosen(board, 4, on_pad=True), EN, challenge_seconds=SECONDS)
    cells = buttons(pad.view)
    assert cells[0]["disabled"] and cells[0]["emoji"] == {"name": "\N{HEAVY LARGE CIRCLE}"}  # d4 is O's
    assert cells[4]["disabled"] and cells[4]["emoji"] == {"name": "\N{CROSS MARK}"}  # e5 is X's
    assert not cells[1].get("disabled") and cells[1]["label"] == "e4"


def test_an_ultimate_board_while_the_bot_thinks_takes_no_press() -> None:
    board = game("ultimate", 40)
    assert board.thinking
    view, files = board_message(board, message_text(board, tr=EN), EN)
    assert files and all(b.get("disabled") for b in buttons(view)[:9])
    picture = ultimate_picture(board)
    assert picture.last == 40 and picture.cells[40] is not None and picture.targets == frozenset({4})


GO_BOARD = WideBoard(19, "g")


@pytest.fixture
def seven_by_seven() -> Iterator[None]:
    """The outside 7 x 7 and 19 x 19 games (tests/e2e/wide_game.py) registered for one test."""
    register(SEVEN_BY_SEVEN)
    register(GO_BOARD)
    yield
    registry._REGISTRY.pop(SEVEN_BY_SEVEN.name)
    registry._REGISTRY.pop(GO_BOARD.name)


@pytest.mark.usefixtures("seven_by_seven")
def test_a_grid_wider_than_5_is_a_picture_with_typed_moves_not_ultimates_pad() -> None:
    board = game("7x7", 24, 0)  # X d4, O a1
    reply = present(Shown(board), EN, challenge_seconds=SECONDS)
    assert reply.content == "" and isinstance(reply.view, LayoutComponents)
    top = reply.view.to_components()
    assert [c["type"] for c in top] == [10, 12, 1]  # the text, the picture, the control row: no pad
    assert "Play with `/ttt move cell:<a1-g7>`." in top[0]["content"]
    assert top[1]["items"] == [{"media": {"url": "attachment://board.png"}}]
    (resign,) = buttons(reply.view)
    assert resign["label"] == "Resign" and re.fullmatch(REF_TEMPLATE, resign["custom_id"])
    (picture,) = reply.files
    assert isinstance(picture, Picture) and picture.filename == "board.png"
    assert picture.shows == GridPicture(7, 7, tuple(SEVEN_BY_SEVEN.mark(board.state, c) for c in range(49)), last=0)
    assert present(Shown(replace(board, mode="text")), EN, challenge_seconds=SECONDS).files == ()


@pytest.mark.usefixtures("seven_by_seven")
def test_a_won_picture_board_shows_the_line_and_a_rematch() -> None:
    board = game("7x7", 0, 7, 1, 8, 2, 9, 3)  # X a1-d1
    reply = present(Shown(board), EN, challenge_seconds=SECONDS)
    (picture,) = reply.files
    assert isinstance(picture, Picture) and isinstance(picture.shows, GridPicture)
    assert picture.shows.won == frozenset({0, 1, 2, 3}) and picture.shows.last == 3
    assert [b["label"] for b in buttons(reply.view)] == ["Rematch"]
    assert "/ttt move" not in message_text(board, tr=EN)
    assert picture.shows.width == 7 and len(draw_grid(picture.shows)) > 0


@pytest.mark.usefixtures("seven_by_seven")
def test_a_19_by_19_board_after_150_moves_is_a_picture_named_by_reference() -> None:
    rng, rules = random.Random(19), GO_BOARD.game
    state, moves = rules.initial_state(), []
    while len(moves) < 150:  # random moves that end nothing
        cell = rng.choice(rules.actions(state))
        if not rules.terminal(after := rules.result(state, cell)):
            state, moves = after, [*moves, cell]
    board = game("19x19", *moves)
    view, files = board_message(board, message_text(board, tr=EN), EN)
    assert isinstance(view, LayoutComponents) and "/ttt move cell:<a1-s19>" in view.to_components()[0]["content"]
    (resign,) = buttons(view)
    assert resign["custom_id"] == "ttt:g:r:0a1b2c:150" and re.fullmatch(REF_TEMPLATE, resign["custom_id"])
    ref, kind = decode(resign["custom_id"], channel_id=1)
    assert isinstance(ref, BoardRef) and (ref.variant, ref.version, kind) == ("19x19", 150, "r")
    (picture,) = files
    assert isinstance(picture, Picture) and isinstance(picture.shows, GridPicture)
    image = Image.open(io.BytesIO(draw_grid(picture.shows)))
    assert image.format == "PNG" and max(image.size) <= 1000
