"""The board message, challenge and moved texts (bot.text.board)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.levels import rating_of
from bot.games.match import EngineMove, Match, initial_for
from bot.i18n.lang import lang
from bot.text.board import (
    ai_line,
    challenge_text,
    declined_text,
    expired_text,
    message_text,
    moved_text,
    played_line,
    result_line,
)
from bot.text.common import MARK_EMOJI
from bot.text.discs import DISC, DISC_NAMES
from bot.text.grid import board_grid
from engine import VARIANTS, Mark, Variant
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from engine.protocol import GameValue
from engine.tictactoe.rules import parse_board

ALICE, BOB = 10, 20
CHANNEL = 1
LINK = "https://discord.com/channels/5/1/9"


def played(*cells: int, x_id: int | None = ALICE, o_id: int | None = None, **fields: object) -> Match:
    game = Match("0a1b2c", CHANNEL, x_id, o_id, **fields)  # type: ignore[arg-type]
    for cell in cells:
        game = game.play(cell)
    return game


def test_grid_is_aligned_and_numbers_empty_cells() -> None:
    grid = board_grid(parse_board("X.O.X...."))
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


def test_ai_line_uses_thousands_separators_people_numbering_and_plurals() -> None:
    ai = EngineMove(4, 7641, None, 2.3, mark=Mark.O)
    assert ai_line(ai) == "O played 5 · alpha-beta evaluated 7,641 states in 2.3 ms"
    one = EngineMove(8, 1, None, 0.01, mark=Mark.O)
    assert ai_line(one) == "O played 9 · alpha-beta evaluated 1 state in 0.01 ms"
    slow = EngineMove(0, 549_945, None, 1500.0, algorithm="minimax", mark=Mark.X)
    assert ai_line(slow) == "X played 1 · minimax evaluated 549,945 states in 1.50 s"


def test_message_text_for_each_ending() -> None:
    won = replace(played(0, 3, 1, 4, 2), ai_states=1234)  # the bot (O) moved twice
    assert won.ai_moves == 2
    assert "❌ <@10> wins! The bot evaluated 1,234 states over 2 moves." in message_text(won)
    drawn = played(0, 1, 2, 4, 3, 5, 7, 6, 8)
    assert drawn.end_reason == "draw" and "It's a draw. The bot evaluated 0 states over 4 moves." in message_text(drawn)
    resigned = replace(played(0, 4), ai_states=7).resign(Mark.X)
    assert "<@10> resigned — ⭕ the bot wins. The bot evaluated 7 states over 1 move." in message_text(resigned)
    abandoned = played(0, 4).end("abandoned")
    assert "Game abandoned: <@10> did not move in time, which counts as a loss." in message_text(abandoned)
    gave_up = played(0).end("abandoned")  # the bot (O) to move: it could not find one (bot.games.bot_moves)
    assert "Game abandoned: the bot could not find a move. Nobody loses this game." in message_text(gave_up)
    expired = played(o_id=BOB, status="challenge", challenged_id=BOB).end("expired")
    assert result_line(expired) == "Game over."


def test_the_bots_total_is_left_out_of_games_between_people_and_before_it_moved() -> None:
    people = played(0, 3, 1, 4, 2, o_id=BOB)
    assert result_line(people) == "❌ <@10> wins!"
    early = played(4).resign(Mark.X)  # the bot (O) never moved
    assert result_line(early) == "<@10> resigned — ⭕ the bot wins."


def test_the_header_names_the_level_with_its_rating_and_unbeatable_only_where_it_is() -> None:
    for variant, level, note in (("3x3", 3, ""), ("5x5", 8, ", unbeatable"), ("ultimate", 8, "")):
        game = Match("g1", 1, 10, None, level=level, variant=variant, state=initial_for(variant))
        header = message_text(game).splitlines()[0]
        search = " · alpha-beta" if variant == "3x3" else ""  # a choice on 3x3; ultimate's MCTS: its move line
        assert header.endswith(f" · level {level} ({rating_of(variant, level)}{note}){search}"), header


def test_a_winning_move_found_without_a_search_wins_at_once() -> None:
    won = EngineMove(75, 0, GameValue("win", 1), 0.15, depth=0, expected=1.0, mark=Mark.O)
    assert played_line(won, "e9", search="MCTS") == "O played e9 and wins at once"
    assert played_line(won, "e9", lang("de"), search="MCTS") == "O spielte e9 und gewinnt sofort"
    searched = EngineMove(75, 120, GameValue("win", 1), 2.0, mark=Mark.O)
    assert played_line(searched, 9, search="alpha-beta").startswith("O played 9 · alpha-beta evaluated 120 states")
    german = message_text(Match("g1", 1, 10, None, level=5), tr=lang("de")).splitlines()[0]
    assert f"Stufe 5 ({rating_of('3x3', 5)})" in german, german


def test_after_the_players_winning_move_the_board_does_not_repeat_the_bots_earlier_move() -> None:
    bots_move = EngineMove(4, 59, None, 0.1, mark=Mark.O)  # O played 5 (cell 4); X then completes 1-2-3
    won = replace(played(0, 4, 1, 3, 2), last_ai=bots_move, ai_states=59)
    assert won.over and "played" not in message_text(won)
    lost = replace(played(0, 4, 1, 3, 8, 5), last_ai=EngineMove(5, 12, None, 0.1, mark=Mark.O), ai_states=71)
    assert lost.over and "O played 6 · alpha-beta evaluated 12 states" in message_text(lost)  # the bot's move ended it


def test_message_text_while_playing() -> None:
    game = replace(played(4, 0), last_ai=EngineMove(0, 307, None, 0.2, mark=Mark.O), ai_states=307)
    assert message_text(game).splitlines() == [
        f"**Tic-tac-toe** · ❌ <@10> vs ⭕ the bot · level 8 ({rating_of('3x3', 8)}, unbeatable) · alpha-beta",
        "O played 1 · alpha-beta evaluated 307 states in 0.20 ms",
        "❌ <@10> to move (X).",
    ]
    people = played(4, o_id=BOB)
    assert message_text(people).splitlines() == [
        "**Tic-tac-toe** · ❌ <@10> vs ⭕ <@20>",
        "⭕ <@20> to move (O).",
    ]


def test_text_mode_message_includes_the_grid_and_the_command() -> None:
    game = played(4, o_id=BOB, mode="text")
    text = message_text(game)
    assert board_grid(game.state) in text and text.endswith("Play with `/ttt move cell:<1-9>`.")
    assert "/ttt move" not in message_text(game, commands=False)
    assert "/ttt move" not in message_text(played(0, 3, 1, 4, 2, o_id=BOB, mode="text"))
    assert "⭕ them to move (O)." in message_text(game, lambda p: "you" if p == ALICE else "them")
    assert board_grid(game.state) not in message_text(replace(game, mode="buttons"))


def test_challenge_texts() -> None:
    challenge = played(x_id=BOB, o_id=ALICE, status="challenge", challenged_id=BOB)
    assert challenge_text(challenge, 60) == (
        "<@20>, <@10> challenges you to a game of **3x3** (Classic tic-tac-toe: three in a row on 3x3)! "
        "You would play ❌ X and move first. Accept within 60 s."
    )
    second = played(x_id=ALICE, o_id=BOB, status="challenge", challenged_id=BOB)
    assert challenge_text(second, 59.6) == (
        "<@20>, <@10> challenges you to a game of **3x3** (Classic tic-tac-toe: three in a row on 3x3)! "
        "You would play ⭕ O and move second. Accept within 60 s."
    )
    with pytest.raises(ValueError, match="not a challenge"):
        challenge_text(played(o_id=BOB), 60)
    assert declined_text(second.end("declined")) == "<@20> declined the challenge."
    assert expired_text(60) == "The challenge expired: no answer within 60 s."


def challenge(name: str, *, mode: str = "buttons", x_id: int = BOB, o_id: int = ALICE) -> Match:
    return Match(
        "0a1b2c", CHANNEL, x_id, o_id, status="challenge", challenged_id=BOB, variant=name, mode=mode,  # type: ignore[arg-type]
        state=initial_for(name),
    )  # fmt: skip


@pytest.mark.parametrize("locale", [None, "de", "fr", "es-ES", "pt-BR", "ja"])
def test_a_challenge_names_every_game_and_the_pieces_its_board_shows(locale: str | None) -> None:
    """The challenge is asked of the game: its title and description, and the side as its board draws it (a game played
    by column: discs by colour; otherwise ❌ X / ⭕ O)."""
    tr = lang(locale)
    for name, kind in VARIANTS.items():
        text = challenge_text(challenge(name), 60, tr)
        assert f"**{tr(kind.title)}**" in text and tr(kind.description) in text, (locale, name)
        discs = bool(kind.columns(kind.game.initial_state()))
        assert (DISC[Mark.X] in text) is discs and (MARK_EMOJI[Mark.X] in text) is not discs, (locale, name)
        as_second = challenge_text(challenge(name, x_id=ALICE, o_id=BOB), 60, tr)
        assert (f"{DISC[Mark.O]} {tr(DISC_NAMES[Mark.O])}" in as_second) is discs, (locale, name)


def test_a_challenge_to_a_game_of_discs_speaks_of_its_discs_not_of_tic_tac_toe() -> None:
    text = challenge_text(challenge(CONNECT_FOUR_VARIANT.name), 60)
    assert text == (
        "<@20>, <@10> challenges you to a game of **Connect Four** (Drop discs in 7 columns: four in a row wins)! "
        "You would play 🔴 red and move first. Accept within 60 s."
    )
    assert "tic-tac-toe" not in text and "❌" not in text
    assert "❌ X and move first" in challenge_text(challenge(CONNECT_FOUR_VARIANT.name, mode="text"), 60)  # X/O grid


def test_a_challenge_to_a_game_registered_from_outside_names_it(outside_game: Variant) -> None:
    text = challenge_text(challenge(outside_game.name), 60, lang("de"))
    assert f"**{outside_game.title}**" in text and outside_game.description in text and "❌ X" in text


def test_moved_text() -> None:
    assert moved_text(LINK) == f"This board moved: {LINK}"
    assert moved_text(None) == "This board moved further down."


def test_a_book_move_says_it_was_read_and_names_the_offline_proof_s_count_as_such() -> None:
    read = EngineMove(12, 0, GameValue("draw", 24), 1.6, "book", book_states=19_404_491, mark=Mark.O)
    assert played_line(read, "c3", search="alpha-beta") == (
        "O played c3 · read from its opening book in 1.6 ms (its proof evaluated 19,404,491 states when the book "
        "was built) (proved: draw)"
    )
    column = EngineMove(38, 0, GameValue("loss", 40), 0.2, "book", mark=Mark.O)  # a book of published scores
    assert (
        played_line(column, 4, search="alpha-beta")
        == "O played 4 · read from its opening book in 0.20 ms (proved: loss in 40 plies)"
    )
    german = played_line(column, 4, lang("de"), search="alpha-beta")
    assert "bewertete" not in german and "Eröffnungsbuch" in german


def test_a_search_cut_short_counts_its_states_and_shows_no_value() -> None:
    cut = EngineMove(38, 2_250_906, None, 30_012.0, "cut short", depth=7, mark=Mark.X)
    assert played_line(cut, 4, search="alpha-beta") == (
        "X played 4 · alpha-beta evaluated 2,250,906 states in 30.01 s (cut short at its time limit before it "
        "proved a value: the best move found, 7 plies deep)"
    )
    assert "proved:" not in played_line(cut, 4, search="alpha-beta")


@pytest.mark.parametrize(("level", "search"), [(8, "negamax"), (2, "alpha-beta")])
def test_the_bots_move_line_names_the_search_the_game_names(outside_game: Variant, level: int, search: str) -> None:
    game = Match("0a1b2c", CHANNEL, ALICE, None, variant=outside_game.name, level=level)
    game = replace(game, state=initial_for(outside_game.name)).play(5)
    game = game.with_ai(outside_game.play(game.state, level))
    assert f"O played {outside_game.cell_label(game.moves[-1])} · {search} evaluated" in message_text(game)


def test_the_built_in_games_keep_their_searches_names() -> None:
    three, ultimate = VARIANTS["3x3"], VARIANTS["ultimate"]
    assert [three.search_name(a) for a in three.algorithms] == ["alpha-beta", "minimax"]
    assert ultimate.search_name("alpha-beta") == "MCTS" and VARIANTS["4x4"].search_name("alpha-beta") == "alpha-beta"
