"""The variants' custom_ids: 4x4 and 5x5 carry the whole game, ultimate a reference (game id and version)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.games import codec
from bot.games.codec import MAX_CUSTOM_ID, CodecError
from bot.games.game import Game, initial_for
from bot.games.variant_codec import (
    BoardRef,
    decode_variant,
    encoder_for,
    is_variant_id,
    mnk_encoder,
    ref_encoder,
)
from engine.variants import VARIANTS

LONGEST_USER = 2**63 - 1


def played(variant: str, moves: tuple[int, ...], **fields: object) -> Game:
    game = Game("zzzzzzzzzzzzz", 1, 10, None, variant=variant, state=initial_for(variant), **fields)  # type: ignore[arg-type]
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
    make = mnk_encoder(game)
    for kind in (0, game.cells - 1, "r", "n"):
        back, read = decode_variant(make(kind), channel_id=1, message_id=9)
        assert read == kind
        assert isinstance(back, Game)
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
    people = Game("zzzzzzzzzzzzz", 1, LONGEST_USER, LONGEST_USER - 1, variant=variant, moves=every_cell)
    people_id = mnk_encoder(people)(cells - 1)
    bot = replace(people, o_id=None, ai_states=2**63 - 1)
    bot_id = mnk_encoder(bot)(cells - 1)
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
    custom_id = mnk_encoder(won)("n")
    back, _ = decode_variant(custom_id)
    assert isinstance(back, Game) and back.over and back.end_reason == "win"
    with pytest.raises(CodecError):
        decode_variant(custom_id.replace(":0415263:", ":04152637:"))


def test_an_ultimate_board_names_its_game_by_id_and_version() -> None:
    game = (
        Game("abc", 1, 10, None, variant="ultimate", state=initial_for("ultimate")) if "ultimate" in VARIANTS else None
    )
    if game is None:
        ref = BoardRef("ultimate", "abc", 0)
        assert ref.ply == 0
        return
    make = ref_encoder(game.play(40))
    for kind in (40, "r", "n", "k", "p4"):
        custom_id = make(kind)
        assert len(custom_id) <= 26 and is_variant_id(custom_id) and codec.is_ours(custom_id)
        ref, read = decode_variant(custom_id, channel_id=1, message_id=7)
        assert read == kind and ref == BoardRef("ultimate", "abc", 1, 1, None, 7, over=kind == "n")


def test_a_private_pads_ids_are_their_own_kind_and_name_no_message() -> None:
    game = Game("abcdefghijklm", 1, 10, None, variant="ultimate", state=initial_for("ultimate")).play(40)
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
    three = Game("abc", 1, 10, None).play(4)
    assert encoder_for(three)(0) == codec.encode(three, 0)
    with pytest.raises(CodecError):
        encoder_for(three)("k")
    four = played("4x4", (5,))
    assert encoder_for(four)(15) == mnk_encoder(four)(15)
    with pytest.raises(CodecError):
        encoder_for(four)(16)
    with pytest.raises(CodecError):
        mnk_encoder(three)
    with pytest.raises(CodecError):
        ref_encoder(four)


@pytest.mark.parametrize(("code", "level"), [("e", 2), ("m", 5), ("u", 8), ("1", 1), ("7", 7)])
def test_a_mnk_board_posted_with_a_difficulty_still_decodes_at_its_level(code: str, level: int) -> None:
    back, kind = decode_variant(f"ttt:3:0a1b2c:5c:4{code}ab:123:b:7", channel_id=1)
    assert isinstance(back, Game) and kind == 3
    assert (back.variant, back.moves, back.level, back.x_id, back.ai_states) == ("4x4", (5, 12), level, 123, 7)
    assert mnk_encoder(back)(3) == f"ttt:3:0a1b2c:5c:4{level}ab:123:b:7"  # written back with the level
