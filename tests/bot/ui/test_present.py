"""present(): every answer becomes one reply, with its text, components, privacy and destination."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest

from bot.games import refusals
from bot.games.answers import BotMoved, Challenged, Chosen, Declined, Hinted, Posted, Refusal, Shown, Thinking
from bot.games.match import Match, initial_for
from bot.games.service import Player
from bot.games.thinking import think
from bot.i18n.lang import lang
from bot.text.board import challenge_text, declined_text, expired_text, message_text, moved_text
from bot.text.hints import hint_text, refusal_text
from bot.text.thinking import thinking_text
from bot.text.thinking_words import thinking_words
from bot.ui.present import (
    PRIVATE,
    Background,
    NewMessage,
    OldBoard,
    OnMessage,
    OnPad,
    Presentable,
    Reply,
    Retired,
    present,
)
from bot.ui.views import board_view
from engine import Mark
from engine.hints import Hint, HintMove, tictactoe_hint
from engine.protocol import GameValue
from engine.tictactoe.rules import parse_board

ALICE, BOB = 10, 20
CHANNEL = 1
SECONDS = 60.0
EN, DE = lang(None), lang("de")


def game(*cells: int, **fields: object) -> Match:
    board = Match("0a1b2c", CHANNEL, ALICE, None, message_id=500, **fields)  # type: ignore[arg-type]
    for cell in cells:
        board = board.play(cell)
    return board


def challenge(**fields: object) -> Match:
    return Match("c0ffee", CHANNEL, ALICE, BOB, status="challenge", challenged_id=BOB, **fields)  # type: ignore[arg-type]


def components(reply: Reply) -> list[dict[str, object]]:
    assert reply.view is not None
    return reply.view.to_components()


def labels(reply: Reply) -> list[str]:
    return [str(button.get("label")) for row in components(reply) for button in row["components"]]  # type: ignore[attr-defined]


def test_a_refusal_is_private_text_in_the_askers_language() -> None:
    answer = Refusal(refusals.NOT_YOUR_TURN, {"player": Player(BOB)})
    reply = present(answer, DE, challenge_seconds=SECONDS)
    assert reply == Reply(refusal_text(answer.key, answer.values, DE), PRIVATE)
    assert reply.ephemeral and reply.view is None and reply.files == ()
    assert reply.content != present(answer, EN, challenge_seconds=SECONDS).content


def test_a_hint_is_private() -> None:
    board = game(4)
    analysis = tictactoe_hint(board.state)
    reply = present(Hinted(board, analysis), EN, challenge_seconds=SECONDS)
    assert (reply.content, reply.target, reply.files) == (
        hint_text(board, analysis, EN),
        PRIVATE,
        (),
    ) and reply.ephemeral
    assert labels(reply) == ["How did it think?"]  # the search in the hint's position, on the games it can replay


def test_how_did_it_think_is_private_with_the_picture_and_the_sentences() -> None:
    board = game(4, 0)
    thought = think("3x3", (4,), 0, "alpha-beta", None)
    reply = present(Thinking(board, thought, 0, (4,)), EN, challenge_seconds=SECONDS)
    assert reply.ephemeral and [f.filename for f in reply.files] == ["search.png"]
    (step,) = reply.view.to_components()[0]["components"]  # type: ignore[union-attr]
    assert step["label"] == "Step through" and step["custom_id"] == "tsx:0a1b2c:40:w:s:0"  # the board's moves 5, 1
    assert reply.content == thinking_text(thought.summary, EN, lambda cell: str(cell + 1), played=0)


def test_how_did_it_think_without_graphviz_is_private_in_words(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    board = game(4, 0)
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot: no picture
    thought = think("3x3", (4,), 0, "alpha-beta", "de")
    reply = present(Thinking(board, thought, 0), DE, challenge_seconds=SECONDS)
    assert reply.ephemeral and reply.view is None and reply.files == ()
    assert reply.content == thinking_words(thought, DE, lambda cell: str(cell + 1), played=0)
    assert "Die Zugfolge beider Seiten: O 1 → " in reply.content


def test_a_shown_game_goes_on_the_pressed_message_with_its_buttons() -> None:
    board = game(4, 0)
    reply = present(Shown(board), EN, challenge_seconds=SECONDS)
    assert reply.target == OnMessage(board) and not reply.ephemeral
    assert reply.content == message_text(board, tr=EN)
    assert components(reply) == board_view(board, EN).to_components()  # type: ignore[union-attr]
    assert "Resign" in labels(reply)


def test_an_expired_challenge_says_so_without_buttons() -> None:
    expired = challenge().end("expired")
    reply = present(Shown(expired), EN, challenge_seconds=SECONDS)
    assert reply == Reply(expired_text(SECONDS, EN), OnMessage(expired))
    assert "60 s" in reply.content


def test_a_posted_game_is_a_new_message_that_retires_the_old_board() -> None:
    board = game(4)
    reply = present(Posted(board, retired=499), EN, challenge_seconds=SECONDS)
    assert reply.target == NewMessage(board, 499) and not reply.ephemeral
    assert reply.content == message_text(board, tr=EN)
    assert components(reply) == board_view(board, EN).to_components()  # type: ignore[union-attr]


def test_a_finished_posted_game_offers_a_rematch() -> None:
    won = game(0, 3, 1, 4, 2)
    assert won.over
    reply = present(Posted(won), DE, challenge_seconds=SECONDS)
    assert reply.target == NewMessage(won, None)
    assert labels(reply)[-1] == DE("Rematch") != "Rematch"


def test_a_challenge_is_a_new_message_with_accept_and_decline() -> None:
    prompt = challenge()
    reply = present(Challenged(prompt), EN, challenge_seconds=SECONDS)
    assert reply.target == NewMessage(prompt) and not reply.ephemeral
    assert reply.content == challenge_text(prompt, SECONDS, EN)
    assert labels(reply) == ["Accept", "Decline"]


def test_a_declined_challenge_replaces_the_prompt_without_buttons() -> None:
    declined = challenge().end("declined")
    reply = present(Declined(declined), EN, challenge_seconds=SECONDS)
    assert reply == Reply(declined_text(declined, EN), OnMessage(declined))


def test_a_retired_board_points_at_the_new_one_without_buttons() -> None:
    board = game(4)
    link = "https://discord.com/channels/5/1/9"
    reply = present(Retired(board, 499, link), EN, challenge_seconds=SECONDS)
    assert reply == Reply(moved_text(link, EN), OldBoard(board, 499))
    assert link in reply.content
    assert present(Retired(board, 499, None), EN, challenge_seconds=SECONDS).content == moved_text(None, EN)


def test_the_bots_later_move_is_shown_on_its_board_like_a_shown_game() -> None:
    board = game(4, 0)
    reply = present(BotMoved(board), EN, challenge_seconds=SECONDS)
    shown = present(Shown(board), EN, challenge_seconds=SECONDS)
    assert reply.target == Background(board) and shown.target == OnMessage(board)
    assert reply.content == shown.content
    assert components(reply) == components(shown)


def test_a_variant_hint_is_private_and_names_cells_by_coordinates() -> None:
    board = Match("0a1b2c", CHANNEL, ALICE, None, variant="4x4", state=initial_for("4x4"))
    draw = GameValue("draw", 16)
    exact = Hint(Mark.X, (HintMove(0, draw, 0.5), HintMove(15, draw, 0.5)), True, states=12, elapsed_ms=1.0)
    reply = present(Hinted(board, exact), EN, challenge_seconds=SECONDS)
    assert reply.ephemeral and "a1" in reply.content and "d4" in reply.content
    estimated = Hint(Mark.X, (HintMove(5, None, 0.3),), False, 900, 990.0, depth=7, budget_ms=1000.0)
    reply = present(Hinted(board, estimated), EN, challenge_seconds=SECONDS)
    assert reply.ephemeral and "b2" in reply.content and "900" in reply.content and "30%" in reply.content


def test_a_free_choice_goes_to_the_private_pad_never_to_the_board() -> None:
    board = Match("0a1b2c", CHANNEL, ALICE, None, message_id=500, variant="ultimate", state=initial_for("ultimate"))
    first = present(Chosen(board, 8, on_pad=False), DE, challenge_seconds=SECONDS)
    again = present(Chosen(board, 8, on_pad=True), EN, challenge_seconds=SECONDS)
    assert first.target == OnPad(update=False) and again.target == OnPad(update=True)
    assert "g7-i9" in first.content and first.content != again.content  # in the chooser's language
    assert labels(first) == ["g7", "h7", "i7", "g8", "h8", "i8", "g9", "h9", "i9", "Zurück"]
    assert not first.files and not is_board(first)


def is_board(reply: Reply) -> bool:
    return isinstance(reply.target, OnMessage | NewMessage | Background | OldBoard)


@pytest.mark.parametrize("kind", get_args(Presentable))
def test_every_presentable_answer_has_a_test_here(kind: type) -> None:
    """A new answer type fails here until a test above presents it (mypy already fails without an arm)."""
    tested = {Refusal, Hinted, Shown, Chosen, Posted, Challenged, Declined, Retired, BotMoved, Thinking}
    assert kind in tested


def test_present_rejects_what_is_not_an_answer() -> None:
    with pytest.raises(AssertionError):
        present(parse_board("........."), EN, challenge_seconds=SECONDS)  # type: ignore[arg-type]
