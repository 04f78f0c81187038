"""The rules the service applies on every variant: why a cell is refused, and the position a reference names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.match import BoardRef, Match, initial_for
from bot.games.refusals import cell_refusal, typed_cell
from bot.games.resuming.refs import ref_view, truncated, unresolved
from bot.i18n import LOCALES
from bot.i18n.lang import lang
from bot.text.hints import refusal_text
from engine import VARIANTS
from engine.games.connect_four import CONNECT_FOUR_VARIANT


def game(variant: str, *moves: int) -> Match:
    played = Match("g", 1, 10, None, variant=variant, state=initial_for(variant), message_id=5)
    for cell in moves:
        played = played.play(cell)
    return played


def test_every_refused_cell_says_why() -> None:
    four = game("4x4", 5)
    assert cell_refusal(four, 6) is None
    assert cell_refusal(four, 5) == Refusal(refusals.CELL_TAKEN)
    assert cell_refusal(four, 16) == Refusal(refusals.NO_SUCH_CELL, {"first": "a1", "last": "d4"})
    ultimate = game("ultimate", 40)  # e5 sends O to the centre board (4)
    assert cell_refusal(ultimate, 30) is None
    assert cell_refusal(ultimate, 0) == Refusal(refusals.WRONG_BOARD, {"board": "d4-f6"})
    assert cell_refusal(ultimate, 81) == Refusal(refusals.NO_SUCH_CELL, {"first": "a1", "last": "i9"})


def test_a_full_column_and_a_column_off_the_board_say_so() -> None:
    full = game(CONNECT_FOUR_VARIANT.name, 38, 31, 24, 17, 10, 3)  # column 4, bottom to top
    assert cell_refusal(full, 39) is None
    assert cell_refusal(full, 3) == Refusal(refusals.COLUMN_FULL)
    assert cell_refusal(full, 42) == Refusal(refusals.NO_SUCH_COLUMN, {"first": "1", "last": "7"})


def test_a_reference_names_only_positions_of_the_game() -> None:
    played = game("ultimate", 40, 30, 10)
    assert ref_view(BoardRef("ultimate", "g", 3, 1, None, 9), played) == played.at(9)
    earlier = ref_view(BoardRef("ultimate", "g", 1, 1, None, 9), played)
    assert isinstance(earlier, Match) and earlier.moves == (40,) and earlier.state == game("ultimate", 40).state
    assert earlier == truncated(played, 1).at(9)
    assert ref_view(BoardRef("ultimate", "g", 4, 1, None, 9), played) == Refusal(refusals.BOARD_MISMATCH)
    assert ref_view(BoardRef("4x4", "g", 3, 1, None, 9), played) == Refusal(refusals.BOARD_MISMATCH)
    shown_over = ref_view(BoardRef("ultimate", "g", 3, 1, None, 9, over=True), played)
    assert isinstance(shown_over, Match) and shown_over.over


def test_an_unresolved_reference_is_an_ended_board_that_resumes_nothing() -> None:
    board = unresolved(BoardRef("ultimate", "g", 7, 1, 2, 9))
    assert board.over and board.message_id == 9 and board.x_id is None and board.o_id is None


REFUSALS = {name: message for name, message in vars(refusals).items() if name.isupper() and isinstance(message, str)}


@pytest.mark.parametrize("locale", [None, "de", "fr", "es-ES", "pt-BR", "ja"])
def test_no_refusal_lists_games_by_name(locale: str | None) -> None:
    """A refusal names what is possible without a list of games that a game registered later (or a game that can do
    more than the list says: 4x4's search is drawn near the end) would make wrong; a game it is about comes as a
    value."""
    tr = lang(locale)
    names = {word.casefold() for kind in VARIANTS.values() for word in (kind.name, tr(kind.short_title()))}
    named = {key: sorted(n for n in names if n in tr(message).casefold()) for key, message in REFUSALS.items()}
    assert {key: found for key, found in named.items() if found} == {}


@pytest.mark.parametrize("locale", [None, "de", "fr", "es-ES", "pt-BR", "ja"])
def test_a_hint_too_early_is_counted_in_moves_which_every_game_has(locale: str | None) -> None:
    """Not in marks: on a game played by column the board holds discs (its hints start after 11 outside the book)."""
    english = lang(None)(refusals.HINT_TOO_EARLY, marks=11)
    assert "11 moves" in english and "mark" not in english
    assert "11" in lang(locale)(refusals.HINT_TOO_EARLY, marks=11)


@pytest.mark.parametrize("name", list(VARIANTS))
def test_a_typed_move_that_names_nothing_is_refused_naming_what_may_be_typed(name: str) -> None:
    played = game(name)
    named, other = played.kind.typed_ranges()
    for text in ("²", "①", "b²", "1" * 5000, "zz", ""):
        assert typed_cell(played, text) == Refusal(refusals.NOT_A_MOVE, {"typed": text, "named": named, "other": other})
    shown = refusal_text(refusals.NOT_A_MOVE, {"typed": "²", "named": "1-9", "other": "a1-c3"}, lang(None))
    assert shown == "² is not a move on this board: choose 1-9, or a1-c3."


def test_what_is_typed_is_quoted_escaped_and_shortened() -> None:
    shown = refusal_text(refusals.NOT_A_MOVE, {"typed": "@everyone *" + "9" * 5000, "named": "1", "other": "a"})
    assert "@everyone" not in shown and "\\*" in shown and len(shown) < 200, shown


TYPED = (
    st.text()
    | st.from_regex(r"\s*[a-zA-Z]?[0-9]{1,3}\s*", fullmatch=True)
    | st.sampled_from(["²", "①", "\uff42\uff13"])
)
"""Any text at all, and texts near a name (letters, digits) so that legal moves are drawn too."""


@given(name=st.sampled_from(list(VARIANTS)), text=TYPED, plies=st.integers(0, 3))
def test_any_typed_move_is_a_legal_move_or_a_refusal_with_a_message(name: str, text: str, plies: int) -> None:
    """/ttt move's ``cell`` on every game: no exception, and either a move the game held takes or a private refusal
    that reads in every locale. ``plies`` legal moves are played first, so refusals of taken cells come too."""
    played = game(name)
    for _ in range(plies):
        played = played.play(min(played.kind.game.actions(played.state)))
    read = typed_cell(played, text)
    if isinstance(read, int):
        move = played.kind.move_at(played.state, read)
        refused = cell_refusal(played, move)
        if refused is None:
            assert move in played.kind.game.actions(played.state)
            return
        read = refused
    for locale in LOCALES:
        shown = refusal_text(read.key, read.values, lang(locale))
        assert shown.strip(), read  # str.format raised had a value been missing
