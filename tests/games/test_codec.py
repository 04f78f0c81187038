"""custom_id encoding of a game: round trips, the 100-character limit, the templates and rejection of foreign ids."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import codec
from bot.games.codec import ANSWER_TEMPLATE, CELL_TEMPLATE, MAX_CUSTOM_ID, REMATCH_TEMPLATE, RESIGN_TEMPLATE
from bot.games.game import Game, new_game_id
from bot.ui.views import board_view
from engine import actions, initial_state, result, terminal

BIGGEST_SNOWFLAKE = 2**64 - 1  # 20 digits: the widest user id
BIGGEST_STATES = 36**6 - 1  # "zzzzzz": the widest state count the format holds
A_DRAW = (0, 1, 2, 4, 3, 5, 7, 6, 8)  # nine moves, nobody wins
KINDS: tuple[codec.Kind, ...] = (*range(9), "r", "n")
TEMPLATES = {"cell": CELL_TEMPLATE, "resign": RESIGN_TEMPLATE, "rematch": REMATCH_TEMPLATE, "answer": ANSWER_TEMPLATE}

snowflakes = st.integers(0, BIGGEST_SNOWFLAKE)
kinds = st.sampled_from(KINDS)


@st.composite
def move_orders(draw: st.DrawFn) -> tuple[int, ...]:
    """A legal game so far: random moves until the draw stops or the game ends."""
    state, moves = initial_state(), []
    for _ in range(draw(st.integers(0, 9))):
        if terminal(state):
            break
        cell = draw(st.sampled_from(actions(state)))
        moves.append(cell)
        state = result(state, cell)
    return tuple(moves)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """Any game a board can show: people or the bot on either side, any options, any state count."""
    sides = draw(st.sampled_from(["bot plays X", "bot plays O", "people"]))
    x_id = None if sides == "bot plays X" else draw(snowflakes)
    o_id = None if sides == "bot plays O" else draw(snowflakes.filter(lambda o: o != x_id))
    game = Game(
        game_id=new_game_id(draw(snowflakes)),
        channel_id=draw(snowflakes),
        x_id=x_id,
        o_id=o_id,
        level=draw(st.integers(1, 8)),
        algorithm=draw(st.sampled_from(["alpha-beta", "minimax"])),
        mode=draw(st.sampled_from(["buttons", "text"])),
        guild_id=draw(st.none() | snowflakes),
        message_id=draw(st.none() | snowflakes),
        ai_states=draw(st.integers(0, BIGGEST_STATES)),
    )
    for cell in draw(move_orders()):
        game = game.play(cell)
    return game


def _read(custom_id: str, game: Game) -> tuple[Game, codec.Kind]:
    return codec.decode(custom_id, channel_id=game.channel_id, guild_id=game.guild_id, message_id=game.message_id)


@given(games(), kinds)
def test_every_game_round_trips_within_the_limit(game: Game, kind: codec.Kind) -> None:
    custom_id = codec.encode(game, kind)
    assert len(custom_id) <= MAX_CUSTOM_ID
    assert _read(custom_id, game) == (game, kind)
    assert codec.is_ours(custom_id)


@given(games(), kinds)
def test_each_button_kind_matches_only_its_template(game: Game, kind: codec.Kind) -> None:
    custom_id = codec.encode(game, kind)
    owner = "resign" if kind == "r" else "rematch" if kind == "n" else "cell"
    assert [name for name, template in TEMPLATES.items() if re.fullmatch(template, custom_id)] == [owner]


def test_challenge_answers_match_only_the_answer_template() -> None:
    for custom_id in (f"ttt:a:{new_game_id(BIGGEST_SNOWFLAKE)}:{BIGGEST_SNOWFLAKE}", "ttt:d:0a1b2c:102"):
        assert [name for name, template in TEMPLATES.items() if re.fullmatch(template, custom_id)] == ["answer"]
        assert codec.is_ours(custom_id)
        with pytest.raises(codec.CodecError):
            codec.decode(custom_id)


def test_the_worst_case_length_is_82() -> None:
    # ttt:<kind>:<game id>:<moves>:<options>:<X>:<O>:<states>, each field at its widest.
    widest = {
        "prefix": len("ttt:"),
        "kind": 1,
        "game id": len(new_game_id(BIGGEST_SNOWFLAKE)),
        "moves": 9,
        "options": 3,
        "X": len(str(BIGGEST_SNOWFLAKE)),
        "O": len(str(BIGGEST_SNOWFLAKE)),
        "states": len("zzzzzz"),
    }
    worst = sum(widest.values()) + 6  # the separators after the prefix's own
    assert widest["game id"] == 13 and worst == 82 <= MAX_CUSTOM_ID
    game = Game(new_game_id(BIGGEST_SNOWFLAKE), 1, BIGGEST_SNOWFLAKE, BIGGEST_SNOWFLAKE - 1, 2, "minimax", "text")
    for cell in A_DRAW:
        game = game.play(cell)
    game = replace(game, ai_states=BIGGEST_STATES)
    assert {len(codec.encode(game, kind)) for kind in KINDS} == {worst}
    with pytest.raises(codec.CodecError, match="cannot encode game"):
        codec.encode(replace(game, ai_states=BIGGEST_STATES + 1), 0)


async def test_every_component_of_a_worst_case_board_fits() -> None:
    game = Game(new_game_id(BIGGEST_SNOWFLAKE), 1, BIGGEST_SNOWFLAKE, BIGGEST_SNOWFLAKE - 1, guild_id=BIGGEST_SNOWFLAKE)
    view = board_view(game)
    assert view is not None
    custom_ids = [button["custom_id"] for row in view.to_components() for button in row["components"]]
    assert len(custom_ids) == 10  # nine cells and Resign
    assert all(len(custom_id) <= MAX_CUSTOM_ID for custom_id in custom_ids)
    assert len(set(custom_ids)) == 10


def test_the_format_is_readable() -> None:
    game = Game("0a1b2c", 1, 123, None).play(4)
    assert codec.encode(game, 3) == "ttt:3:0a1b2c:4:8ab:123:b:0"
    assert codec.encode(game, "r") == "ttt:r:0a1b2c:4:8ab:123:b:0"
    played = replace(game, ai_states=7641, algorithm="minimax", mode="text", level=3)
    assert codec.encode(played, "n") == "ttt:n:0a1b2c:4:3mt:123:b:5w9"  # 7641 in base 36


def test_decoding_places_the_game_and_ends_finished_positions() -> None:
    game, kind = codec.decode("ttt:r:0a1b2c:0314:uab:123:b:9", channel_id=7, guild_id=8, message_id=9)
    assert kind == "r" and (game.channel_id, game.guild_id, game.message_id) == (7, 8, 9)
    assert game.moves == (0, 3, 1, 4) and game.status == "playing" and game.ai_states == 9
    won, _ = codec.decode("ttt:0:0a1b2c:03142:uab:123:b:0")
    assert won.over and won.end_reason == "win" and won.winner is not None and won.winner.value == "X"
    drawn, _ = codec.decode("ttt:n:0a1b2c:" + "".join(map(str, A_DRAW)) + ":uab:1:2:0")
    assert drawn.over and drawn.end_reason == "draw" and drawn.winner is None


VALID = "ttt:3:0a1b2c:4:uab:123:b:0"


@pytest.mark.parametrize(
    ("custom_id", "why"),
    [
        ("", "empty"),
        ("other:3:0a1b2c:4:uab:123:b:0", "another bot's prefix"),
        ("ttt:9:0a1b2c:4:uab:123:b:0", "no cell 9"),
        ("ttt:x:0a1b2c:4:uab:123:b:0", "no such kind"),
        ("ttt:3:0A1B2C:4:uab:123:b:0", "upper-case game id"),
        ("ttt:3:0123456789abcd:4:uab:123:b:0", "a 14-character game id"),
        ("ttt:3:0a1b2c:9:uab:123:b:0", "no cell 9 in the moves"),
        ("ttt:3:0a1b2c:0123456780:uab:123:b:0", "ten moves"),
        ("ttt:3:0a1b2c:44:uab:123:b:0", "a repeated cell"),
        ("ttt:3:0a1b2c:031425:uab:123:b:0", "a move after X won"),
        ("ttt:3:0a1b2c:4:xab:123:b:0", "unknown difficulty"),
        ("ttt:3:0a1b2c:4:9ab:123:b:0", "no level 9"),
        ("ttt:3:0a1b2c:4:0ab:123:b:0", "no level 0"),
        ("ttt:3:0a1b2c:4:uxb:123:b:0", "unknown algorithm"),
        ("ttt:3:0a1b2c:4:uaz:123:b:0", "unknown board mode"),
        ("ttt:3:0a1b2c:4:ua:123:b:0", "missing option"),
        ("ttt:3:0a1b2c:4:uab:b:b:0", "both players the bot"),
        ("ttt:3:0a1b2c:4:uab:123:123:0", "one person on both sides"),
        ("ttt:3:0a1b2c:4:uab:123456789012345678901:b:0", "a 21-digit user id"),
        ("ttt:3:0a1b2c:4:uab:-1:b:0", "a negative user id"),
        ("ttt:3:0a1b2c:4:uab:123:b:1234567", "a seven-character state count"),
        ("ttt:3:0a1b2c:4:uab:123:b:", "no state count"),
        ("ttt:3:0a1b2c:4:uab:123:b:0:", "a trailing separator"),
        ("ttt:3:0a1b2c:4:uab:123:b", "the old format without a state count"),
        ("ttt:3:0a1b2c:....X....:uab:123:b", "the old grid format"),
        ("ttt:a:0a1b2c:102", "a challenge answer is not a board"),
    ],
)
def test_foreign_or_impossible_ids_are_rejected(custom_id: str, why: str) -> None:
    assert codec.decode(VALID)[0].moves == (4,)  # the id every case bends is itself valid
    with pytest.raises(codec.CodecError):
        codec.decode(custom_id)


def test_is_ours_checks_the_shape_only() -> None:
    assert codec.is_ours(VALID)
    assert codec.is_ours("ttt:3:0a1b2c:44:uab:123:b:0")  # an impossible game still has our shape
    for foreign in ("", "ttt", "other:3:0a1b2c:4:uab:123:b:0", "ttt:a:0a1b2c:bob", VALID + ":", " " + VALID):
        assert not codec.is_ours(foreign)


@pytest.mark.parametrize("kind", [9, -1, "x", "rn"])
def test_unknown_kinds_cannot_be_encoded(kind: object) -> None:
    with pytest.raises(codec.CodecError, match="cannot encode kind"):
        codec.encode(Game("0a1b2c", 1, 123, None), kind)  # type: ignore[arg-type]


def test_one_player_on_both_sides_cannot_be_encoded() -> None:
    with pytest.raises(codec.CodecError, match="the same player on both sides"):
        codec.encode(Game("0a1b2c", 1, 123, 123), 0)


@pytest.mark.parametrize("game_id", ["", "0A1B2C", "0123456789abcd", "a:b"])
def test_game_ids_outside_the_format_cannot_be_encoded(game_id: str) -> None:
    with pytest.raises(codec.CodecError, match="cannot encode game"):
        codec.encode(Game(game_id, 1, 123, None), 0)


@pytest.mark.parametrize(("code", "level"), [("e", 2), ("m", 5), ("u", 8)])
def test_a_board_posted_with_a_difficulty_still_decodes_at_its_level(code: str, level: int) -> None:
    old = f"ttt:3:0a1b2c:40:{code}ab:123:b:1z"  # a cell button of a board posted before the levels
    game, kind = codec.decode(old, channel_id=7, message_id=9)
    assert (kind, game.moves, game.level, game.algorithm, game.mode) == (3, (4, 0), level, "alpha-beta", "buttons")
    assert (game.x_id, game.o_id, game.ai_states, game.channel_id) == (123, None, 71, 7)
    assert codec.is_ours(old)
    assert codec.encode(game, 3) == f"ttt:3:0a1b2c:40:{level}ab:123:b:1z"  # the next board carries the level


def test_a_level_outside_1_to_8_cannot_be_encoded() -> None:
    with pytest.raises(codec.CodecError, match="level"):
        codec.encode(Game("g1", 1, 5, None, level=9), 0)
