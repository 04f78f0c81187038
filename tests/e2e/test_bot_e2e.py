"""End to end: the real bot (``python -m bot``, a subprocess) against the fake Discord on 127.0.0.1.

One bot process serves the whole module (start-up spawns the search workers, so it is the slow part); every
scenario uses a channel of its own. The restart scenario kills that process and starts a new one, so it runs
near the end; the last test checks what every interaction of every scenario got (first callback in < 3 s, no
Discord rule broken, no unknown route).

Discord clients can't press a disabled button or a button that is no longer on a message. A client showing an
out-of-date message can still send a press carrying old ``custom_id``s, so "stale" presses are simulated by
putting a copy of an earlier (or re-enabled) board into the channel with :meth:`FakeDiscord.create_message` and
pressing on the copy.
"""

from __future__ import annotations

import asyncio
import copy
import random
import re
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio

from bot.games.levels import rating_of
from testing.boards import finished, free_cells, to_move, winner
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import message_text

from .conftest import BotProcess

pytestmark = pytest.mark.asyncio(loop_scope="module")

TOKEN = "e2e-dummy-token"
CHALLENGE_TIMEOUT = 3.0
RESTART_TURN_TIMEOUT = 20.0
"""The turn time-out after the restart, seconds. A game's deadline runs from its last write, across the restart
(issue 27), so it must outlast the downtime (up to about 10 s to IDENTIFY on a loaded machine) for the running
boards to resume; games of the module's earlier tests, idle longer, end as abandoned at start-up."""

CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
EPHEMERAL = 64
OPTION_SUBCOMMAND, OPTION_STRING, OPTION_INTEGER, OPTION_USER = 1, 3, 4, 6

EMOJI = {"X": "\N{CROSS MARK}", "O": "\N{HEAVY LARGE CIRCLE}"}
AI_LINE = re.compile(
    r"(?P<mark>[XO]) played (?P<cell>[1-9]) · (?P<algorithm>alpha-beta|minimax) evaluated (?P<states>[\d,]+) states?"
)
TOTAL_LINE = re.compile(r"The bot evaluated (?P<states>[\d,]+) states over (?P<moves>\d+) moves?\.")
GRID_ROW = re.compile(r"^ (\S) │ (\S) │ (\S) $")

# Exact sizes of the game tree (positions below the root), counted by ``subtree_size`` below.
EMPTY_BOARD_TREE = 549_945


# ---------------------------------------------------------------------------------------------- the board


def subtree_size(board: str) -> int:
    """Every position reachable below ``board`` (what plain minimax evaluates), counted independently of engine/."""
    if finished(board):
        return 0
    mark = to_move(board)
    return sum(1 + subtree_size(board[:i] + mark + board[i + 1 :]) for i in free_cells(board))


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [child for row in message.get("components") or [] for child in row.get("components") or []]


def ttt_ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("ttt:")]


def board_of(message: dict[str, Any]) -> str:
    """The board encoded in the message's buttons (``ttt:<kind>:<game>:<moves>:...``), e.g. ``"X...O...."``."""
    histories = {custom_id.split(":")[3] for custom_id in ttt_ids(message)}
    assert len(histories) == 1, f"expected one board in {message['components']}"
    board = ["."] * 9
    for ply, cell in enumerate(histories.pop()):
        board[int(cell)] = "XO"[ply % 2]
    return "".join(board)


def game_id_of(message: dict[str, Any]) -> str:
    return ttt_ids(message)[0].split(":")[2]


def cell_buttons(message: dict[str, Any]) -> dict[int, dict[str, Any]]:
    cells = {}
    for comp in components(message):
        kind = comp.get("custom_id", "").split(":")[1:2]
        if kind and kind[0].isdigit():
            cells[int(kind[0])] = comp
    return cells


def button(message: dict[str, Any], *, kind: str | None = None, label: str | None = None) -> dict[str, Any]:
    for comp in components(message):
        if kind is not None and comp.get("custom_id", "").startswith(f"ttt:{kind}:"):
            return comp
        if label is not None and comp.get("label") == label:
            return comp
    raise AssertionError(f"no button {kind or label!r} in {message['components']}")


def grid_of(content: str) -> str:
    """The board drawn in a text-mode message's code block."""
    rows = [m.groups() for line in content.splitlines() if (m := GRID_ROW.match(line))]
    assert len(rows) == 3, f"no grid in {content!r}"
    return "".join(c if c in "XO" else "." for row in rows for c in row)


def check_buttons_match(message: dict[str, Any], board: str, *, over: bool) -> None:
    """Button mode: nine cells in three rows; marks and (when over) every cell disabled, free cells enabled."""
    cells = cell_buttons(message)
    assert sorted(cells) == list(range(9))
    for i, comp in cells.items():
        if board[i] == ".":
            assert comp.get("label") == str(i + 1)
            assert bool(comp.get("disabled")) is over, f"cell {i + 1} of {board}: {comp}"
        else:
            assert (comp.get("emoji") or {}).get("name") == EMOJI[board[i]]
            assert comp.get("disabled") is True, f"taken cell {i + 1} of {board}: {comp}"


def snapshot(fake: FakeDiscord, channel: str, message_id: str) -> dict[str, Any]:
    message = fake.message(channel, message_id)
    assert message is not None
    return copy.deepcopy(message)


def stale_copy(fake: FakeDiscord, channel: str, old: dict[str, Any], *, enable: bool = False) -> dict[str, Any]:
    """A copy of an earlier board message in the channel (see the module docstring), optionally re-enabled."""
    rows = copy.deepcopy(old["components"])
    if enable:
        for row in rows:
            for comp in row["components"]:
                comp["disabled"] = False
    return fake.create_message(channel, old["content"], components=rows)


# ---------------------------------------------------------------------------------------------- opponents


def random_player(board: str, mark: str, rng: random.Random) -> int:
    return rng.choice(free_cells(board))


def greedy_player(board: str, mark: str, rng: random.Random) -> int:
    """Win if it can, else block, else take the centre, a corner or anything (ties broken at random)."""
    for target in (mark, "O" if mark == "X" else "X"):
        for cell in free_cells(board):
            if winner(board[:cell] + target + board[cell + 1 :]) == target:
                return cell
    for group in ((4,), (0, 2, 6, 8), tuple(range(9))):
        options = [c for c in group if board[c] == "."]
        if options:
            return rng.choice(options)
    raise AssertionError(f"no move on a full board {board}")


Opponent = Callable[[str, str, random.Random], int]


# ---------------------------------------------------------------------------------------------- interactions


async def answered(rec: InteractionRecord, timeout: float = 10.0) -> InteractionRecord:
    """Wait for the first callback (and, after a defer, the edit that completes it); it must have been accepted."""
    await rec.wait(timeout)
    assert rec.error is None, f"callback refused: {rec.error}"
    if rec.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE):
        await rec.wait_for_event(lambda e: e.kind == "edit_original", timeout)
    return rec


async def refused_privately(rec: InteractionRecord, *texts: str) -> str:
    """The interaction got an ephemeral message (flags 64) as its first callback; returns its text."""
    await rec.wait(10)
    assert rec.error is None, f"callback refused: {rec.error}"
    assert rec.callback_type == CB_MESSAGE and rec.flags & EPHEMERAL, (rec.callback_type, rec.flags, rec.content)
    content = rec.content or ""
    assert any(text in content for text in texts), f"{content!r} says none of {texts}"
    return content


def check_ai_line(content: str, before: str, after: str, ai_mark: str, algorithm: str = "alpha-beta") -> int:
    """The message reports the bot's move (the one new ``ai_mark`` on the board) and how many states it evaluated."""
    new = [i for i in range(9) if before[i] == "." and after[i] == ai_mark]
    assert len(new) == 1, f"expected one new {ai_mark} from {before} to {after}"
    match = AI_LINE.search(content)
    assert match is not None, f"no 'evaluated N states' in {content!r}"
    assert match["mark"] == ai_mark and int(match["cell"]) - 1 == new[0] and match["algorithm"] == algorithm
    states = int(match["states"].replace(",", ""))
    assert states > 0
    return states


@dataclass
class Users:
    alice: dict[str, Any]
    bob: dict[str, Any]
    carol: dict[str, Any]


@dataclass
class VsBot:
    """A game against the bot driven from the test: the current board message and what has been checked."""

    fake: FakeDiscord
    channel: str
    user: dict[str, Any]
    mode: str
    algorithm: str = "alpha-beta"
    message_id: str = ""
    board: str = "........."
    human: str = "X"
    states: list[int] = field(default_factory=list)

    @property
    def ai(self) -> str:
        return "O" if self.human == "X" else "X"

    @property
    def message(self) -> dict[str, Any]:
        message = self.fake.message(self.channel, self.message_id)
        assert message is not None
        return message

    async def start(self, **options: Any) -> InteractionRecord:
        options.setdefault("board", self.mode)
        rec = await answered(
            await self.fake.slash_command(None, self.channel, self.user, subcommand="start", options=options)
        )
        assert rec.callback_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and not rec.ephemeral
        assert rec.message_id is not None
        self.message_id = rec.message_id
        self.board = self.read()
        self.human = "O" if self.board.count("X") == 1 else "X"
        if self.human == "O":
            self.states.append(check_ai_line(self.message["content"], ".........", self.board, "X", self.algorithm))
        else:
            assert self.board == "........." and AI_LINE.search(self.message["content"]) is None
        return rec

    def read(self) -> str:
        """The board as the message shows it, checked against the grid (text mode) or the cell buttons."""
        message = self.message
        board = board_of(message)
        if self.mode == "text":
            assert grid_of(message["content"]) == board
            assert cell_buttons(message) == {}
        else:
            check_buttons_match(message, board, over=finished(board) or "resigned" in message["content"])
        return board

    async def press(self, cell: int) -> InteractionRecord:
        """Play ``cell`` (0-8) by pressing its button or with ``/ttt move``; checks the bot's reply."""
        before = self.board
        assert before[cell] == "." and to_move(before) == self.human
        if self.mode == "buttons":
            comp = cell_buttons(self.message)[cell]
            assert not comp.get("disabled")
            rec = await self.fake.press_button(None, self.channel, self.user, self.message_id, comp["custom_id"])
            await answered(rec)
            assert rec.callback_type in (CB_UPDATE, CB_DEFERRED_UPDATE) and not rec.ephemeral
        else:
            old = self.message_id
            rec = await self.fake.slash_command(
                None, self.channel, self.user, subcommand="move", options={"cell": str(cell + 1)}
            )
            await answered(rec)
            assert rec.callback_type in (CB_MESSAGE, CB_DEFERRED_MESSAGE) and not rec.ephemeral
            assert rec.message_id is not None and rec.message_id != old
            self.message_id = rec.message_id
            moved = await self.fake.wait_for_message(
                lambda m: m["id"] == old and m["content"].startswith("This board moved"), 10, channel_id=self.channel
            )
            assert self.message_id in moved["content"] and not ttt_ids(moved)
        after = self.read()
        assert after[cell] == self.human and sum(a != b for a, b in zip(before, after, strict=True)) in (1, 2)
        if finished(before[:cell] + self.human + before[cell + 1 :]):
            assert after == before[:cell] + self.human + before[cell + 1 :]
        else:
            self.states.append(check_ai_line(self.message["content"], before, after, self.ai, self.algorithm))
        self.board = after
        return rec

    async def play_out(self, opponent: Opponent, rng: random.Random) -> str:
        """Play until the game ends; returns the winner's mark or ``""`` for a draw, after checking the result."""
        while not finished(self.board):
            await self.press(opponent(self.board, self.human, rng))
        content = self.message["content"]
        won = winner(self.board)
        if won is None:
            assert "It's a draw." in content
        else:
            who = "the bot" if won == self.ai else f"<@{self.user['id']}>"
            assert f"{EMOJI[won]} {who} wins!" in content
        total = TOTAL_LINE.search(content)
        assert total is not None and int(total["moves"]) == len(self.states)
        assert int(total["states"].replace(",", "")) == sum(self.states)
        assert "ttt:r:" not in " ".join(ttt_ids(self.message)) and not button(self.message, kind="n").get("disabled")
        if self.mode == "buttons":
            assert all(c.get("disabled") for c in cell_buttons(self.message).values())
        return won or ""


# ---------------------------------------------------------------------------------------------- fixtures


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN, channels=1) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def bot(fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    log_path: Path = tmp_path_factory.mktemp("bot") / "bot.log"
    process = BotProcess(fake, log_path, {"TTT_CHALLENGE_TIMEOUT": str(CHALLENGE_TIMEOUT)})
    try:
        seconds = await process.start()
        print(f"bot start-up (to IDENTIFY): {seconds:.2f} s")
        await fake.wait_for(lambda: bool(fake.commands()), 10)
        yield process
    finally:
        await process.kill()
        process.close()


@pytest.fixture
def channel(fake: FakeDiscord, bot: BotProcess) -> str:
    """A fresh text channel (announced to the running bot) for one scenario."""
    return fake.add_channel()


@pytest.fixture(scope="module")
def users(fake: FakeDiscord) -> Users:
    guild = fake.default_guild_id
    made = [fake.make_user(100_000_000_000_000_000 + i, name) for i, name in enumerate(("alice", "bob", "carol"), 1)]
    for user in made:
        fake.add_member(guild, user)
    return Users(*made)


@pytest.fixture(autouse=True)
def clean_protocol(fake: FakeDiscord) -> Iterator[None]:
    """After every scenario: no Discord rule broken and no route the fake doesn't know."""
    yield
    assert [str(v) for v in fake.violations] == []
    assert fake.unknown_routes == []


async def challenge(fake: FakeDiscord, channel: str, users: Users) -> InteractionRecord:
    """Alice challenges Bob (``/ttt start opponent:@bob``); the prompt shows Accept and Decline."""
    rec = await answered(
        await fake.slash_command(None, channel, users.alice, subcommand="start", options={"opponent": users.bob})
    )
    assert rec.callback_type == CB_MESSAGE and not rec.ephemeral and rec.message_id is not None
    assert f"<@{users.bob['id']}>" in (rec.content or "") and "challenges you" in (rec.content or "")
    labels = {c.get("label") for c in components(fake.message(channel, rec.message_id) or {})}
    assert labels == {"Accept", "Decline"}
    return rec


async def accept(fake: FakeDiscord, channel: str, users: Users, prompt_id: str) -> str:
    """Bob accepts: the prompt becomes the board (Alice plays X); returns its message id."""
    prompt = fake.message(channel, prompt_id) or {}
    rec = await answered(
        await fake.press_button(None, channel, users.bob, prompt_id, button(prompt, label="Accept")["custom_id"])
    )
    assert rec.callback_type == CB_UPDATE
    board = fake.message(channel, prompt_id) or {}
    assert board_of(board) == "........." and f"<@{users.alice['id']}> to move (X)" in board["content"]
    check_buttons_match(board, ".........", over=False)
    return prompt_id


async def accepted_challenge(fake: FakeDiscord, channel: str, users: Users) -> str:
    """Alice (X) challenges Bob (O), who accepts; returns the board message id."""
    return await accept(fake, channel, users, (await challenge(fake, channel, users)).message_id or "")


# ---------------------------------------------------------------------------------------------- 1. start-up, games


async def test_asks_only_for_the_guilds_intent(fake: FakeDiscord, bot: BotProcess) -> None:
    """Commands and presses come as interactions; no message intent means Discord sends none of the chat."""
    assert {identify["intents"] for identify in fake.identifies} == {discord.Intents(guilds=True).value}


async def test_syncs_the_ttt_command_tree(fake: FakeDiscord, bot: BotProcess) -> None:
    tree = fake.commands()
    assert [c["name"] for c in tree] == ["ttt"]
    ttt = tree[0]
    assert ttt["type"] == 1 and ttt["description"]
    subs = {o["name"]: o for o in ttt["options"]}
    assert set(subs) == {
        "start",
        "move",
        "hint",
        "resign",
        "board",
        "stats",
        "leaderboard",
        "rating",
        "review",
        "puzzle",
        "help",
    }
    assert all(o["type"] == OPTION_SUBCOMMAND and o["description"] for o in subs.values())
    start = {o["name"]: o for o in subs["start"]["options"]}
    assert set(start) == {"opponent", "play_as", "level", "algorithm", "board", "variant"}
    assert start["opponent"]["type"] == OPTION_USER
    choices = {
        "play_as": {"X", "O", "random"},
        "algorithm": {"alpha-beta", "minimax"},
        "board": {"buttons", "text"},
    }
    for name, values in choices.items():
        assert start[name]["type"] == OPTION_STRING
        assert {c["value"] for c in start[name]["choices"]} == values
    assert start["level"]["type"] == OPTION_INTEGER
    assert [c["value"] for c in start["level"]["choices"]] == list(range(1, 9))
    assert all(c["name"].startswith(f"Level {c['value']} · ") for c in start["level"]["choices"])
    assert not any(o.get("required") for o in start.values())
    (cell,) = subs["move"]["options"]
    assert (cell["name"], cell["type"], cell["required"], cell["min_length"], cell["max_length"]) == (
        "cell",
        OPTION_STRING,
        True,
        1,
        3,
    )
    user, variant = subs["stats"]["options"]
    assert variant["name"] == "variant" and [c["value"] for c in variant["choices"]] == [
        "3x3",
        "4x4",
        "5x5",
        "ultimate",
        "connect-four",
    ]
    assert user["type"] == OPTION_USER and not user.get("required")


GAMES = [
    ("X", "buttons", random_player, 1, "alpha-beta"),
    ("O", "buttons", random_player, 2, "alpha-beta"),
    ("X", "buttons", greedy_player, 3, "alpha-beta"),
    ("O", "buttons", greedy_player, 4, "alpha-beta"),
    ("X", "text", greedy_player, 5, "alpha-beta"),
    ("O", "text", random_player, 6, "alpha-beta"),
    ("X", "text", random_player, 7, "alpha-beta"),
    ("O", "buttons", greedy_player, 8, "minimax"),  # the opening search is slow enough to defer first
    ("X", "text", greedy_player, 9, "minimax"),
]


@pytest.mark.parametrize(
    ("play_as", "mode", "opponent", "seed", "algorithm"), GAMES, ids=lambda v: getattr(v, "__name__", v)
)
async def test_plays_whole_games_and_never_loses(
    fake: FakeDiscord,
    channel: str,
    users: Users,
    play_as: str,
    mode: str,
    opponent: Opponent,
    seed: int,
    algorithm: str,
) -> None:
    game = VsBot(fake, channel, users.alice, mode, algorithm=algorithm)
    await game.start(play_as=play_as, algorithm=algorithm)
    assert game.human == play_as
    won = await game.play_out(opponent, random.Random(seed))
    assert won in ("", game.ai), f"the bot lost: {game.board}"


@pytest.mark.parametrize("level", [1, 4, 7])
async def test_weaker_levels_play_to_the_end(fake: FakeDiscord, channel: str, users: Users, level: int) -> None:
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start(level=level, play_as="random")
    assert f"· level {level} ({rating_of('3x3', level)}) ·" in game.message["content"]
    await game.play_out(greedy_player, random.Random(level))


@pytest.mark.parametrize("algorithm", ["minimax", "alpha-beta"])
async def test_reply_to_a_centre_opening_reports_the_search(
    fake: FakeDiscord, channel: str, users: Users, algorithm: str
) -> None:
    game = VsBot(fake, channel, users.alice, "buttons", algorithm=algorithm)
    await game.start(algorithm=algorithm)
    await game.press(4)
    centre = subtree_size("....X....")
    assert centre == 55_504
    if algorithm == "minimax":
        assert game.states == [centre]  # plain minimax visits every position below the root
    else:
        assert 0 < game.states[0] < centre // 10  # alpha-beta prunes most of them


async def test_bot_opening_as_x_reports_a_plausible_count(fake: FakeDiscord, channel: str, users: Users) -> None:
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start(play_as="O")
    assert len(game.states) == 1 and 0 < game.states[0] < EMPTY_BOARD_TREE


async def test_hint_board_resign_help_and_stats(fake: FakeDiscord, channel: str, users: Users) -> None:
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start()
    await game.press(0)

    hint = await fake.slash_command(None, channel, users.alice, subcommand="hint")
    await answered(hint)
    text = hint.content or next(e.payload.get("content", "") for e in hint.followups if e.kind == "edit_original")
    assert hint.ephemeral and "Hint for" in text and "plain minimax evaluates" in text

    old = game.message_id
    again = await answered(await fake.slash_command(None, channel, users.alice, subcommand="board"))
    assert again.callback_type == CB_MESSAGE and not again.ephemeral and again.message_id != old
    game.message_id = again.message_id or ""
    assert game.read() == game.board
    await fake.wait_for_message(lambda m: m["id"] == old and "moved" in m["content"], 10, channel_id=channel)
    assert all(c.get("disabled") for c in cell_buttons(fake.message(channel, old) or {}).values())

    resign = await answered(await fake.slash_command(None, channel, users.alice, subcommand="resign"))
    assert resign.callback_type == CB_MESSAGE and "resigned" in (resign.content or "")
    assert f"{EMOJI[game.ai]} the bot wins" in (resign.content or "")

    help_ = await answered(await fake.slash_command(None, channel, users.bob, subcommand="help"))
    assert help_.ephemeral and "States evaluated" in message_text(help_.payload)
    stats = await answered(
        await fake.slash_command(None, channel, users.bob, subcommand="stats", options={"user": users.alice})
    )
    text = (fake.message(channel, stats.message_id or "") or {}).get("content", "")
    assert not stats.ephemeral and "vs the bot:" in text
    assert re.search(r"vs the bot: \d+ W · \d+ D · [1-9]\d* L", text)


# ---------------------------------------------------------------------------------------------- 2. refusals


async def test_refusals_are_private_and_leave_the_board_alone(fake: FakeDiscord, channel: str, users: Users) -> None:
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start()
    early = snapshot(fake, channel, game.message_id)
    await game.press(0)
    board = snapshot(fake, channel, game.message_id)
    free = free_cells(game.board)[0]

    # someone else presses a free cell
    rec = await fake.press_button(None, channel, users.carol, game.message_id, cell_buttons(board)[free]["custom_id"])
    await refused_privately(rec, "isn't your game")
    assert fake.message(channel, game.message_id) == board

    # a second /ttt start in the same channel, by a player and by someone else
    for user in (users.alice, users.carol):
        rec = await fake.slash_command(None, channel, user, subcommand="start")
        await refused_privately(rec, "already running in this channel")
        assert fake.message(channel, game.message_id) == board

    # a stale copy of the board from before the move: its cell 1 is now taken
    stale = stale_copy(fake, channel, early)
    rec = await fake.press_button(None, channel, users.alice, stale["id"], cell_buttons(early)[0]["custom_id"])
    await refused_privately(rec, "out of date", "changed", "taken")
    assert fake.message(channel, game.message_id) == board

    # the game ends (Resign); a press carrying the running board's ids then gets "game over"
    resign = await answered(
        await fake.press_button(None, channel, users.alice, game.message_id, button(board, kind="r")["custom_id"])
    )
    assert resign.callback_type == CB_UPDATE and "resigned" in (resign.content or "")
    ended = snapshot(fake, channel, game.message_id)
    assert all(c.get("disabled") for c in cell_buttons(ended).values())
    stale = stale_copy(fake, channel, board)
    rec = await fake.press_button(None, channel, users.alice, stale["id"], cell_buttons(board)[free]["custom_id"])
    await refused_privately(rec, "game is over")
    assert fake.message(channel, game.message_id) == ended


async def test_text_move_on_a_taken_cell_is_refused(fake: FakeDiscord, channel: str, users: Users) -> None:
    game = VsBot(fake, channel, users.alice, "text")
    await game.start()
    await game.press(4)
    board = snapshot(fake, channel, game.message_id)
    taken = [i for i, c in enumerate(game.board) if c != "."]
    for cell in taken:
        rec = await fake.slash_command(None, channel, users.alice, subcommand="move", options={"cell": str(cell + 1)})
        await refused_privately(rec, "taken")
    rec = await fake.slash_command(
        None, channel, users.carol, subcommand="move", options={"cell": str(free_cells(game.board)[0] + 1)}
    )
    await refused_privately(rec, "isn't your game")
    assert fake.message(channel, game.message_id) == board
    assert [m["id"] for m in fake.messages(channel, include_ephemeral=False)][-1] == game.message_id


async def test_move_without_a_game_is_refused(fake: FakeDiscord, channel: str, users: Users) -> None:
    rec = await fake.slash_command(None, channel, users.alice, subcommand="move", options={"cell": "5"})
    await refused_privately(rec, "No game is running")


# ---------------------------------------------------------------------------------------------- 3. races


async def test_simultaneous_presses_apply_exactly_one_move(fake: FakeDiscord, channel: str, users: Users) -> None:
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start()
    for _ in range(2):
        before = game.board
        cells = cell_buttons(game.message)
        first, second = free_cells(before)[:2]
        recs = await asyncio.gather(
            fake.press_button(None, channel, users.alice, game.message_id, cells[first]["custom_id"]),
            fake.press_button(None, channel, users.alice, game.message_id, cells[second]["custom_id"]),
        )
        await asyncio.gather(*(rec.wait(10) for rec in recs))
        updates = [r for r in recs if r.callback_type in (CB_UPDATE, CB_DEFERRED_UPDATE)]
        private = [r for r in recs if r.callback_type == CB_MESSAGE and r.ephemeral]
        assert len(updates) == 1 and len(private) == 1, [(r.callback_type, r.flags, r.content) for r in recs]
        await answered(updates[0])
        assert "The board changed before your move arrived" in (private[0].content or "")
        after = game.read()
        new_x = [i for i in range(9) if before[i] == "." and after[i] == "X"]
        new_o = [i for i in range(9) if before[i] == "." and after[i] == "O"]
        assert len(new_x) == 1 and new_x[0] in (first, second) and len(new_o) == 1, (before, after)
        assert sum(a != b for a, b in zip(before, after, strict=True)) == 2
        check_ai_line(game.message["content"], before, after, "O")
        game.board = after


async def test_both_players_press_at_once(fake: FakeDiscord, channel: str, users: Users) -> None:
    board_id = await accepted_challenge(fake, channel, users)
    board = snapshot(fake, channel, board_id)
    cells = cell_buttons(board)
    recs = await asyncio.gather(
        fake.press_button(None, channel, users.bob, board_id, cells[1]["custom_id"]),
        fake.press_button(None, channel, users.alice, board_id, cells[0]["custom_id"]),
    )
    await asyncio.gather(*(answered(rec) for rec in recs))
    assert recs[0].callback_type == CB_MESSAGE and recs[0].ephemeral and "Not your turn" in (recs[0].content or "")
    assert recs[1].callback_type == CB_UPDATE and not recs[1].ephemeral
    assert board_of(fake.message(channel, board_id) or {}) == "X........"


# ---------------------------------------------------------------------------------------------- 4. challenges


async def test_challenge_accepted_and_played_to_the_end(fake: FakeDiscord, channel: str, users: Users) -> None:
    rec = await challenge(fake, channel, users)
    assert rec.message_id is not None
    prompt = snapshot(fake, channel, rec.message_id)
    accept_id = button(prompt, label="Accept")["custom_id"]
    for user in (users.alice, users.carol):  # only the challenged member may answer
        await refused_privately(await fake.press_button(None, channel, user, rec.message_id, accept_id), "Only <@")
        assert fake.message(channel, rec.message_id) == prompt
    rec = await fake.slash_command(None, channel, users.carol, subcommand="start")
    await refused_privately(rec, "challenge is waiting")

    board_id = await accept(fake, channel, users, prompt["id"])
    board = snapshot(fake, channel, board_id)
    rec = await fake.press_button(None, channel, users.bob, board_id, cell_buttons(board)[4]["custom_id"])
    await refused_privately(rec, "Not your turn")
    rec = await fake.press_button(None, channel, users.carol, board_id, cell_buttons(board)[4]["custom_id"])
    await refused_privately(rec, "isn't your game")
    assert fake.message(channel, board_id) == board

    # X: 1, 2, 3 wins the top row; O: 5, 9
    players = {"X": users.alice, "O": users.bob}
    for cell in (0, 4, 1, 8, 2):
        state = board_of(fake.message(channel, board_id) or {})
        comp = cell_buttons(fake.message(channel, board_id) or {})[cell]
        mark = to_move(state)
        await answered(await fake.press_button(None, channel, players[mark], board_id, comp["custom_id"]))
        assert board_of(fake.message(channel, board_id) or {})[cell] == mark
    final = fake.message(channel, board_id) or {}
    assert board_of(final) == "XXX.O...O"
    assert f"{EMOJI['X']} <@{users.alice['id']}> wins!" in final["content"] and "evaluated" not in final["content"]
    check_buttons_match(final, "XXX.O...O", over=True)
    winning = [i for i, c in cell_buttons(final).items() if c["style"] == 3]
    assert winning == [0, 1, 2]

    # Rematch: only the players may press it; the new game swaps the sides (Bob plays X)
    rematch_id = button(final, kind="n")["custom_id"]
    await refused_privately(
        await fake.press_button(None, channel, users.carol, board_id, rematch_id), "isn't your game"
    )
    rematch = await answered(await fake.press_button(None, channel, users.alice, board_id, rematch_id))
    assert rematch.callback_type == CB_MESSAGE and rematch.message_id != board_id
    assert f"<@{users.bob['id']}> to move (X)" in (rematch.content or "")
    assert fake.message(channel, board_id) == final


async def test_challenge_declined_frees_the_channel(fake: FakeDiscord, channel: str, users: Users) -> None:
    rec = await challenge(fake, channel, users)
    assert rec.message_id is not None
    prompt = snapshot(fake, channel, rec.message_id)
    decline = await answered(
        await fake.press_button(None, channel, users.bob, rec.message_id, button(prompt, label="Decline")["custom_id"])
    )
    assert decline.callback_type == CB_UPDATE and "declined" in (decline.content or "")
    assert components(fake.message(channel, rec.message_id) or {}) == []
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start()


async def test_challenge_expires_and_frees_the_channel(fake: FakeDiscord, channel: str, users: Users) -> None:
    rec = await challenge(fake, channel, users)
    assert rec.message_id is not None
    expired = await fake.wait_for_message(
        lambda m: m["id"] == rec.message_id and "expired" in m["content"], CHALLENGE_TIMEOUT + 5, channel_id=channel
    )
    assert components(expired) == []
    game = VsBot(fake, channel, users.alice, "buttons")
    await game.start()


# ---------------------------------------------------------------------------------------------- 5. restart


async def test_restart_resumes_boards_and_abandons_idle_games(fake: FakeDiscord, bot: BotProcess, users: Users) -> None:
    running_channel, finished_channel = fake.add_channel(), fake.add_channel()
    running = VsBot(fake, running_channel, users.alice, "buttons")
    await running.start()
    await running.press(4)
    text_channel = fake.add_channel()
    text_game = VsBot(fake, text_channel, users.alice, "text")
    await text_game.start()
    await text_game.press(4)
    done = VsBot(fake, finished_channel, users.bob, "buttons")
    await done.start(play_as="O")
    await done.play_out(greedy_player, random.Random(11))
    final = snapshot(fake, finished_channel, done.message_id)
    challenge_channel = fake.add_channel()
    prompt_id = (await challenge(fake, challenge_channel, users)).message_id or ""
    prompt = snapshot(fake, challenge_channel, prompt_id)

    await bot.kill()
    await fake.wait_for_disconnect(10)
    bot.env["TTT_TURN_TIMEOUT"] = str(RESTART_TURN_TIMEOUT)
    seconds = await bot.start()
    print(f"bot restart (to IDENTIFY): {seconds:.2f} s")

    # the running board still works: the new process rebuilds the game from the pressed button
    await running.press(free_cells(running.board)[0])
    assert "game resumed" in bot.log_text()

    # a text board has no cells to press: /ttt move finds the game in the channel's latest board
    await text_game.press(free_cells(text_game.board)[0])
    assert bot.log_text().count("game resumed") >= 2

    # a press that still carries the finished board's ids (its cells re-enabled, as on a stale client)
    stale = stale_copy(fake, finished_channel, final, enable=True)
    cell = cell_buttons(final)[free_cells(done.board)[0] if free_cells(done.board) else 0]
    rec = await fake.press_button(None, finished_channel, users.bob, stale["id"], cell["custom_id"])
    await refused_privately(rec, "game is over")
    assert fake.message(finished_channel, done.message_id) == final

    # Rematch on the finished board starts a new game with the sides swapped (Bob now plays X)
    rematch = await answered(
        await fake.press_button(
            None, finished_channel, users.bob, done.message_id, button(final, kind="n")["custom_id"]
        )
    )
    assert rematch.callback_type == CB_MESSAGE and not rematch.ephemeral
    new_board = fake.message(finished_channel, rematch.message_id or "") or {}
    assert board_of(new_board) == "........." and game_id_of(new_board) != game_id_of(final)

    # the challenge died with the old process: answering it says so (and the channel is free)
    for label in ("Accept", "Decline"):
        rec = await fake.press_button(
            None, challenge_channel, users.bob, prompt_id, button(prompt, label=label)["custom_id"]
        )
        await refused_privately(rec, "no longer open")
    assert fake.message(challenge_channel, prompt_id) == prompt
    await VsBot(fake, challenge_channel, users.bob, "text").start()

    # nobody moves in the resumed game: it is abandoned after TTT_TURN_TIMEOUT and its board disabled
    abandoned = await fake.wait_for_message(
        lambda m: m["id"] == running.message_id and "abandoned" in m["content"],
        RESTART_TURN_TIMEOUT + 5,
        channel_id=running_channel,
    )
    assert all(c.get("disabled") for c in cell_buttons(abandoned).values())


# ---------------------------------------------------------------------------------------------- 6. across everything


async def test_every_interaction_was_answered_in_time(fake: FakeDiscord, bot: BotProcess) -> None:
    assert fake.records, "no interactions ran"
    unanswered = [r for r in fake.records if r.latency is None]
    assert unanswered == []
    # replies, deferred replies (slow minimax openings), board updates and deferred board updates all ran
    kinds = {r.callback_type for r in fake.records}
    assert {CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE} <= kinds, kinds
    worst = fake.max_first_callback_latency
    print(f"{len(fake.records)} interactions; max first-callback latency {worst * 1000:.1f} ms")
    assert worst < 3.0
    assert [str(v) for v in fake.violations] == []
    assert fake.unknown_routes == []
    log = bot.log_text()
    assert "Traceback" not in log and " ERROR " not in log, log[-5000:]
