"""custom_id encoding of a game: round trips, the 100-character limit, the templates and rejection of foreign ids;
4x4 and 5x5 carry the whole game, ultimate a reference (game id and version); boards posted before the one codec
still decode."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import codec
from bot.games.codec import (
    ANSWER_TEMPLATE,
    BOARD_TEMPLATE,
    CELL_TEMPLATE,
    MAX_CUSTOM_ID,
    REF_TEMPLATE,
    REMATCH_TEMPLATE,
    RESIGN_TEMPLATE,
    CodecError,
    encoder,
    ref_encoder,
)
from bot.games.codec import decode as decode_variant
from bot.games.match import BoardRef, Match, initial_for, new_game_id
from bot.ui.views import board_view
from engine.registry import VARIANTS
from engine.tictactoe.rules import actions, initial_state, result, terminal

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
def games(draw: st.DrawFn) -> Match:
    """Any game a board can show: people or the bot on either side, any options, any state count."""
    sides = draw(st.sampled_from(["bot plays X", "bot plays O", "people"]))
    x_id = None if sides == "bot plays X" else draw(snowflakes)
    o_id = None if sides == "bot plays O" else draw(snowflakes.filter(lambda o: o != x_id))
    game = Match(
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


def _read(custom_id: str, game: Match) -> tuple[Match | BoardRef, codec.Kind]:
    return codec.decode(custom_id, channel_id=game.channel_id, guild_id=game.guild_id, message_id=game.message_id)


@given(games(), kinds)
def test_every_game_round_trips_within_the_limit(game: Match, kind: codec.Kind) -> None:
    custom_id = codec.encode(game, kind)
    assert len(custom_id) <= MAX_CUSTOM_ID
    assert _read(custom_id, game) == (game, kind)
    assert codec.is_ours(custom_id)


@given(games(), kinds)
def test_each_button_kind_matches_only_its_template(game: Match, kind: codec.Kind) -> None:
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
    game = Match(new_game_id(BIGGEST_SNOWFLAKE), 1, BIGGEST_SNOWFLAKE, BIGGEST_SNOWFLAKE - 1, 2, "minimax", "text")
    for cell in A_DRAW:
        game = game.play(cell)
    game = replace(game, ai_states=BIGGEST_STATES)
    assert {len(codec.encode(game, kind)) for kind in KINDS} == {worst}
    with pytest.raises(codec.CodecError, match="cannot encode game"):
        codec.encode(replace(game, ai_states=BIGGEST_STATES + 1), 0)


async def test_every_component_of_a_worst_case_board_fits() -> None:
    game = Match(
        new_game_id(BIGGEST_SNOWFLAKE), 1, BIGGEST_SNOWFLAKE, BIGGEST_SNOWFLAKE - 1, guild_id=BIGGEST_SNOWFLAKE
    )
    view = board_view(game)
    assert view is not None
    custom_ids = [button["custom_id"] for row in view.to_components() for button in row["components"]]
    assert len(custom_ids) == 10  # nine cells and Resign
    assert all(len(custom_id) <= MAX_CUSTOM_ID for custom_id in custom_ids)
    assert len(set(custom_ids)) == 10


def test_the_format_is_readable() -> None:
    game = Match("0a1b2c", 1, 123, None).play(4)
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
        codec.encode(Match("0a1b2c", 1, 123, None), kind)  # type: ignore[arg-type]


def test_one_player_on_both_sides_cannot_be_encoded() -> None:
    with pytest.raises(codec.CodecError, match="the same player on both sides"):
        codec.encode(Match("0a1b2c", 1, 123, 123), 0)


@pytest.mark.parametrize("game_id", ["", "0A1B2C", "0123456789abcd", "a:b"])
def test_game_ids_outside_the_format_cannot_be_encoded(game_id: str) -> None:
    with pytest.raises(codec.CodecError, match="cannot encode game"):
        codec.encode(Match(game_id, 1, 123, None), 0)


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
        codec.encode(Match("g1", 1, 5, None, level=9), 0)


LONGEST_USER = 2**63 - 1


def played(variant: str, moves: tuple[int, ...], **fields: object) -> Match:
    game = Match("zzzzzzzzzzzzz", 1, 10, None, variant=variant, state=initial_for(variant), **fields)  # type: ignore[arg-type]
    for cell in moves:
        game = game.play(cell)
    return game


def full_game(variant: str, seed: int) -> tuple[int, ...]:
    """A random game of ``variant`` played to its end."""
    rules, rng = VARIANTS[variant], random.Random(seed)
    state, moves = rules.game.initial_state(), []
    while not rules.game.terminal(state):
        cell = rng.choice(tuple(rules.game.actions(state)))
        moves.append(cell)
        state = rules.game.result(state, cell)
    return tuple(moves)


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
def test_a_mnk_board_round_trips_with_every_field(variant: str) -> None:
    moves = full_game(variant, 3)[:7]
    game = played(variant, moves, level=5, mode="text", ai_states=123_456_789)
    make = encoder(game)
    for kind in (0, game.cells - 1, "r", "n"):
        back, read = decode_variant(make(kind), channel_id=1, message_id=9)
        assert read == kind
        assert isinstance(back, Match)
        assert (back.variant, back.moves, back.state, back.ai_states) == (variant, moves, game.state, 123_456_789)
        assert (back.level, back.mode, back.x_id, back.o_id, back.message_id) == (
            5,
            "text",
            10,
            None,
            9,
        )
        assert codec.is_ours(make(kind))


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
def test_the_longest_mnk_ids_fit_in_100_characters(variant: str) -> None:
    cells = VARIANTS[variant].width * VARIANTS[variant].height
    every_cell = tuple(range(cells))  # as if the board filled up (the encoder checks the format, not the rules)
    people = Match("zzzzzzzzzzzzz", 1, LONGEST_USER, LONGEST_USER - 1, variant=variant, moves=every_cell)
    people_id = encoder(people)(cells - 1)
    bot = replace(people, o_id=None, ai_states=2**63 - 1)
    bot_id = encoder(bot)(cells - 1)
    assert len(people_id) == (93 if variant == "5x5" else 84) <= MAX_CUSTOM_ID
    assert len(bot_id) == (87 if variant == "5x5" else 78) <= MAX_CUSTOM_ID


@pytest.mark.parametrize(
    "custom_id",
    [
        "ttt:3:g1:00:4uab:10:b:0",  # a cell twice
        "ttt:16:g1::4uab:10:b:0",  # a cell off the 4x4 board
        "ttt:3:g1:g:4uab:10:b:0",  # a move off the 4x4 board
        "ttt:3:g1::4uab:b:b:0",  # nobody plays
        "ttt:3:g1::4uab:10:10:0",  # one player on both sides
    ],
)
def test_an_impossible_mnk_board_is_refused(custom_id: str) -> None:
    with pytest.raises(CodecError):
        decode_variant(custom_id)


def test_a_mnk_board_that_goes_on_after_a_win_is_refused() -> None:
    won = played("4x4", (0, 4, 1, 5, 2, 6, 3))  # X: a1-d1
    assert won.over and won.winner is not None
    custom_id = encoder(won)("n")
    back, _ = decode_variant(custom_id)
    assert isinstance(back, Match) and back.over and back.end_reason == "win"
    with pytest.raises(CodecError):
        decode_variant(custom_id.replace(":0415263:", ":04152637:"))


def test_an_ultimate_board_names_its_game_by_id_and_version() -> None:
    game = (
        Match("abc", 1, 10, None, variant="ultimate", state=initial_for("ultimate")) if "ultimate" in VARIANTS else None
    )
    if game is None:
        ref = BoardRef("ultimate", "abc", 0)
        assert ref.ply == 0
        return
    make = ref_encoder(game.play(40))
    for kind in (40, "r", "n", "k", "p4"):
        custom_id = make(kind)
        assert len(custom_id) <= 26 and re.fullmatch(REF_TEMPLATE, custom_id) is not None and codec.is_ours(custom_id)
        ref, read = decode_variant(custom_id, channel_id=1, message_id=7)
        assert read == kind and ref == BoardRef("ultimate", "abc", 1, 1, None, 7, over=kind == "n")


def test_a_private_pads_ids_are_their_own_kind_and_name_no_message() -> None:
    game = Match("abcdefghijklm", 1, 10, None, variant="ultimate", state=initial_for("ultimate")).play(40)
    make = ref_encoder(game, pad=True)
    for kind in (80, "k", "p8"):
        custom_id = make(kind)
        assert custom_id.startswith("ttt:up:") and len(custom_id) <= 27 and codec.is_ours(custom_id)
        ref, read = decode_variant(custom_id, channel_id=1, message_id=7)  # 7: the ephemeral pad's own message
        assert read == kind and ref == BoardRef("ultimate", game.game_id, 1, 1, None, None, pad=True)
        assert ref.at(9).pad and ref_encoder(game)(kind) != custom_id
    for kind in ("r", "n"):
        with pytest.raises(CodecError):
            make(kind)
        with pytest.raises(CodecError):
            decode_variant(f"ttt:up:{kind}:abc:1")


def test_an_ultimate_reference_off_the_board_is_refused() -> None:
    for custom_id in ("ttt:u:81:abc:3", "ttt:u:4:abc:82"):
        with pytest.raises(CodecError):
            decode_variant(custom_id)
    assert decode_variant("ttt:u:80:abc:81")[0] == BoardRef("ultimate", "abc", 81)


def test_encoder_for_dispatches_on_the_variant_and_keeps_3x3_ids() -> None:
    three = Match("abc", 1, 10, None).play(4)
    assert encoder(three)(0) == codec.encode(three, 0)
    with pytest.raises(CodecError):
        encoder(three)("k")
    four = played("4x4", (5,))
    assert encoder(four)(15) == encoder(four)(15)
    with pytest.raises(CodecError):
        encoder(four)(16)
    assert encoder(three)(4) == "ttt:4:abc:4:8ab:10:b:0"  # 3x3 keeps its format, without a code
    with pytest.raises(CodecError):
        ref_encoder(four)


@pytest.mark.parametrize(("code", "level"), [("e", 2), ("m", 5), ("u", 8), ("1", 1), ("7", 7)])
def test_a_mnk_board_posted_with_a_difficulty_still_decodes_at_its_level(code: str, level: int) -> None:
    back, kind = decode_variant(f"ttt:3:0a1b2c:5c:4{code}ab:123:b:7", channel_id=1)
    assert isinstance(back, Match) and kind == 3
    assert (back.variant, back.moves, back.level, back.x_id, back.ai_states) == ("4x4", (5, 12), level, 123, 7)
    assert encoder(back)(3) == f"ttt:3:0a1b2c:5c:4{level}ab:123:b:7"  # written back with the level


POSTED_BEFORE_THE_ONE_CODEC = {  # written by the codecs of variant-api (bot/games/codec.py and variant_codec.py)
    "ttt:1:0a1b2c:408:3mb:123:b:5w9": ("3x3", (4, 0, 8), 1, 3, "minimax", None),
    "ttt:r:0a1b2c:408:3mb:123:b:5w9": ("3x3", (4, 0, 8), "r", 3, "minimax", None),
    "ttt:n:0a1b2c:408:3mb:123:b:5w9": ("3x3", (4, 0, 8), "n", 3, "minimax", None),
    "ttt:10:zz9:50f:46at:10:20:0": ("4x4", (5, 0, 15), 10, 6, "alpha-beta", 20),
    "ttt:r:zz9:50f:46at:10:20:0": ("4x4", (5, 0, 15), "r", 6, "alpha-beta", 20),
    "ttt:23:zz9:co06:58ab:10:b:100000000": ("5x5", (12, 24, 0, 6), 23, 8, "alpha-beta", None),
    "ttt:n:zz9:co06:58ab:10:b:100000000": ("5x5", (12, 24, 0, 6), "n", 8, "alpha-beta", None),
}


@pytest.mark.parametrize("custom_id", list(POSTED_BEFORE_THE_ONE_CODEC))
def test_a_board_posted_before_the_one_codec_still_decodes_and_is_written_back_the_same(custom_id: str) -> None:
    variant, moves, kind, level, algorithm, o_id = POSTED_BEFORE_THE_ONE_CODEC[custom_id]
    game, read = codec.decode(custom_id, channel_id=1, message_id=2)
    assert isinstance(game, Match) and read == kind and codec.is_ours(custom_id)
    assert (game.variant, game.moves, game.level, game.algorithm, game.x_id, game.o_id) == (
        variant,
        moves,
        level,
        algorithm,
        10 if variant != "3x3" else 123,
        o_id,
    )
    assert re.fullmatch(BOARD_TEMPLATE, custom_id) and codec.encode(game, kind) == custom_id


@pytest.mark.parametrize(
    "custom_id",
    ["ttt:u:50:zz9:2", "ttt:u:r:zz9:2", "ttt:u:n:zz9:2", "ttt:u:k:zz9:2", "ttt:u:p4:zz9:2", "ttt:up:50:zz9:2"],
)
def test_an_ultimate_board_posted_before_the_one_codec_still_names_its_game(custom_id: str) -> None:
    ref, kind = codec.decode(custom_id, channel_id=1, message_id=2)
    assert isinstance(ref, BoardRef) and (ref.variant, ref.game_id, ref.version) == ("ultimate", "zz9", 2)
    assert ref.pad == custom_id.startswith("ttt:up:") and str(kind) == custom_id.split(":")[2]
    game = Match("zz9", 1, 10, 20, variant="ultimate", state=initial_for("ultimate")).play(40).play(41)
    assert ref_encoder(game, pad=ref.pad)(kind) == custom_id and re.fullmatch(REF_TEMPLATE, custom_id)


def test_one_template_matches_every_carried_board_and_each_variant_has_one_code() -> None:
    for name in ("3x3", "4x4", "5x5"):
        game = Match("g1", 1, 10, None, variant=name, state=initial_for(name)).play(0)
        assert re.fullmatch(BOARD_TEMPLATE, encoder(game)("r")) and not re.fullmatch(REF_TEMPLATE, encoder(game)("r"))
    assert len({v.code for v in VARIANTS.values()}) == len(VARIANTS)


def test_a_reference_names_a_version_up_to_a_19_by_19_board() -> None:
    """A picture board of up to 361 cells is named by reference: its version (moves played) takes 3 digits."""
    assert re.fullmatch(REF_TEMPLATE, "ttt:q:r:0a1b2c:361") is not None and codec.is_ours("ttt:q:n:0a1b2c:120")
    assert re.fullmatch(REF_TEMPLATE, "ttt:q:r:0a1b2c:3610") is None
