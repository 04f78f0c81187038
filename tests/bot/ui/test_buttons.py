"""The presses on the bot's components (bot.ui.buttons): every board's ids, as the views draw them, read back to the
press the bot's component handler gets; an unreadable id gets "no longer active"."""

from __future__ import annotations

import gc
import weakref
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.games.codec import BoardRef, ref_encoder
from bot.games.match import Match, initial_for
from bot.ui.buttons import DYNAMIC_ITEMS, ChallengeButton, Inactive
from bot.ui.views import board_message, board_view, hint_view, private_pad
from tests.bot.ui.fakes import FakeInteraction

ALICE = 10


class Recorder:
    """A component handler that records what it is asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    async def press_cell(self, interaction: Any, board: Match | BoardRef, cell: int) -> None:
        self.calls.append(("cell", board, cell))

    async def press_resign(self, interaction: Any, board: Match | BoardRef) -> None:
        self.calls.append(("resign", board))

    async def press_rematch(self, interaction: Any, board: Match | BoardRef) -> None:
        self.calls.append(("rematch", board))

    async def choose_board(self, interaction: Any, board: BoardRef, chosen: int | None) -> None:
        self.calls.append(("choose", board, chosen))

    async def answer_challenge(self, interaction: Any, game_id: str, challenged_id: int, *, accept: bool) -> None:
        self.calls.append(("answer", game_id, challenged_id, accept))

    async def inactive_button(self, interaction: Any) -> None:
        self.calls.append(("inactive",))

    async def explain(self, interaction: Any, board: Match | BoardRef, *, hint: bool) -> None:
        self.calls.append(("explain", board, hint))


async def press(custom_id: str, *, ephemeral: bool = False) -> tuple[Any, discord.ui.DynamicItem[Any]]:
    """Press ``custom_id`` as discord.py does: the first registered template that matches reads it; on a message only
    its user sees when ``ephemeral`` (a private pad)."""
    for item in DYNAMIC_ITEMS:
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            break
    else:
        raise AssertionError(f"no registered template matches {custom_id!r}")
    recorder = Recorder()
    interaction: Any = FakeInteraction(pressed=500, ephemeral=ephemeral)
    interaction.client = SimpleNamespace(ttt=recorder)
    pressed = await item.from_custom_id(interaction, discord.ui.Button(custom_id=custom_id), match)
    await pressed.callback(interaction)
    return recorder.calls, pressed


def ids(view: Any) -> list[str]:
    return [button["custom_id"] for row in view.to_components() for button in row["components"]]


def game(variant: str, *cells: int) -> Match:
    board = Match("0a1b2c", 1, ALICE, None, message_id=500, variant=variant, state=initial_for(variant))
    for cell in cells:
        board = board.play(cell)
    return board


@pytest.mark.parametrize("variant", ["3x3", "4x4"])
async def test_a_cell_and_resign_carry_their_whole_game(variant: str) -> None:
    board = game(variant, 0)
    *cells, resign = ids(board_view(board))
    calls, _ = await press(cells[1])
    assert calls[0][0] == "cell" and calls[0][2] == 1 and calls[0][1].moves == (0,)
    calls, _ = await press(resign)
    assert calls[0][0] == "resign" and calls[0][1].variant == variant


async def test_how_did_it_think_follows_the_bots_move_and_a_hint_where_the_game_can_explain_it() -> None:
    late_4x4 = (0, 1, 2, 3, 4, 5, 6, 7)  # 9 empty cells before the bot's move: a fresh search is drawn
    cases = (("3x3", (0, 4), True), ("4x4", (0, 4), False), ("4x4", late_4x4, True), ("ultimate", (0, 1), True))
    for variant, cells, explained in cases:
        board = game(variant, *cells)  # Alice is X, the bot (O) moved last
        view = board_view(board) if variant != "ultimate" else board_message(board, "")[0]
        thinking = [i for i in ids_of(view) if i.startswith(("ttt:w:", "ttt:u:w:"))]
        assert len(thinking) == explained, variant
        assert (hint_view(board) is not None) == explained
        if explained:
            calls, _ = await press(thinking[0])
            assert calls[0][0] == "explain" and calls[0][2] is False and calls[0][1].variant == variant
            calls, _ = await press(ids(hint_view(board)).pop())
            assert calls[0][0] == "explain" and calls[0][2] is True
    assert not [i for i in ids(board_view(game("3x3", 0))) if i.startswith("ttt:w:")]  # the bot has not moved yet


def ids_of(view: Any) -> list[str]:
    """Every button id of a view, classic rows or a Components V2 layout."""
    found, stack = [], list(view.to_components())
    while stack:
        item = stack.pop()
        if "custom_id" in item:
            found.append(item["custom_id"])
        stack.extend(item.get("components", []))
    return found


async def test_an_ultimate_pad_chooses_a_small_board_and_goes_back_without_a_move() -> None:
    board = game("ultimate")  # X's first move: a free choice
    calls, _ = await press(ids(private_pad(board, None))[3], ephemeral=True)
    assert calls == [("choose", BoardRef("ultimate", "0a1b2c", 0, 1, 5, None, pad=True), 3)]
    calls, _ = await press(ids(private_pad(board, 4))[-1], ephemeral=True)
    assert calls[0][0] == "choose" and calls[0][2] is None
    calls, _ = await press(ids(private_pad(board, 4))[0], ephemeral=True)
    assert calls[0][0] == "cell" and calls[0][2] == 30


@pytest.mark.parametrize("variant", ["ultimate", "connect-four"])
async def test_a_private_pads_id_pressed_on_a_public_message_is_a_press_on_that_message(variant: str) -> None:
    """A modified client's pad id on a board everyone sees: answered as a pad, it would overwrite that board."""
    pad = ref_encoder(game(variant), pad=True)(3)
    calls, _ = await press(pad, ephemeral=True)
    assert calls == [("cell", BoardRef(variant, "0a1b2c", 0, 1, 5, None, pad=True), 3)]
    calls, _ = await press(pad)
    assert calls == [("cell", BoardRef(variant, "0a1b2c", 0, 1, 5, 500), 3)]


async def test_an_impossible_game_gets_the_inactive_answer() -> None:
    calls, pressed = await press("ttt:4:0a1b2c:00:8ab:10:b:0")  # cell 0 twice
    assert isinstance(pressed, Inactive) and calls == [("inactive",)]


async def test_a_challenge_answer_names_the_game_and_the_challenged() -> None:
    calls, pressed = await press("ttt:d:0a1b2c:20")
    assert isinstance(pressed, ChallengeButton) and calls == [("answer", "0a1b2c", 20, False)]


@pytest.mark.parametrize("custom_id", ["board", "ttt:4:0a1b2c:00:8ab:10:b:0", "ttt:d:0a1b2c:20"])
async def test_a_handled_press_leaves_its_view_to_reference_counting(custom_id: str) -> None:
    """discord.py rebuilds the pressed message's view for a ``DynamicItem``; once the press is handled nothing
    refers to it, and it is freed without waiting for the cyclic garbage collector (issue 45: every press's view
    and buttons waited for it)."""
    if custom_id == "board":
        custom_id = ids(board_view(game("3x3", 0)))[1]
    view: discord.ui.View | None = discord.ui.View(timeout=None)
    assert view is not None
    for other in range(8):
        view.add_item(discord.ui.Button(custom_id=f"other:{other}"))
    base = discord.ui.Button[discord.ui.View](custom_id=custom_id)
    view.add_item(base)
    item = next(i for i in DYNAMIC_ITEMS if i.__discord_ui_compiled_template__.fullmatch(custom_id))
    interaction: Any = FakeInteraction(pressed=500)
    interaction.client = SimpleNamespace(ttt=Recorder())
    match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    pressed = await item.from_custom_id(interaction, base, match)
    view.remove_item(base).add_item(pressed)  # as discord.py swaps the pressed button for the dynamic item
    gone = weakref.ref(view)
    gc.collect()
    gc.disable()
    try:
        await pressed.callback(interaction)
        del view, base, pressed
        assert gone() is None
    finally:
        gc.enable()
