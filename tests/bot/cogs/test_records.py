"""/ttt stats, /ttt leaderboard and /ttt review (bot.cogs.records) over a stand-in records store: what each
answers, in the interaction's language, and the private refusals (a running game, an unknown id, another
server's game, no finished game, the database down)."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest

from bot.cogs.records import RECORDS_DOWN, REVIEW_ELSEWHERE, REVIEW_NONE, REVIEW_RUNNING, REVIEW_UNKNOWN, RecordCommands
from bot.games.ai import AI
from bot.games.answers import Posted
from bot.games.finished import finished_game
from bot.games.intents import Actor
from bot.games.match import Match
from bot.games.service import GameService
from bot.i18n.lang import lang
from bot.records import FinishedGame, Leaderboard, Rating, Record, RecordsUnavailableError, UserStats
from bot.records.puzzle_values import PuzzleRating
from bot.text.common import in_code
from bot.text.records import bot_record_text, bot_records_text, leaderboard_text, rating_text, stats_text
from bot.ui.puzzles import puzzle_line
from engine import VARIANTS
from tests.bot.ui.fakes import FakeInteraction

BOT, ALICE = 1, 10
CHANNEL, GUILD = 7, 5


def finished(game_id: str = "done1", guild_id: int | None = GUILD) -> FinishedGame:
    game = Match(game_id, CHANNEL, ALICE, None, guild_id=guild_id)
    for cell in (4, 0, 8, 2, 6, 1):
        game = game.play(cell)
    return finished_game(game)


class Store:
    """The reads the record commands make; ``down`` makes every read fail as an unreachable database does."""

    def __init__(self, games: list[FinishedGame] | None = None, *, down: bool = False) -> None:
        self.games = {g.game_id: g for g in games or []}
        self.down = down
        self.leaderboard_guild: object = "not asked"
        self.variants: list[str | None] = []

    def _check(self) -> None:
        if self.down:
            raise RecordsUnavailableError("records database unavailable: sqlite:///test")

    async def user_stats(self, user_id: int, variant: str | None = None, excluding: object = ()) -> UserStats:
        self._check()
        self.variants.append(variant)
        return UserStats(Record(wins=user_id), Record(draws=2))

    async def bot_record(
        self, variant: str | None = None, excluding: object = (), side: str | None = None
    ) -> dict[int, Record]:
        self._check()
        self.variants.append(variant)
        return {8: Record(wins=3, draws=1)}

    async def bot_records(self, excluding: object = ()) -> dict[str, dict[int, Record]]:
        self._check()
        return {"3x3": {8: Record(wins=3, draws=1)}, "5x5": {2: Record(losses=1)}}

    async def player(self, user_id: int, variant: str) -> PuzzleRating:
        self._check()
        return PuzzleRating(1620, 80, 0.06, 5, 4)

    async def ratings(self, user_id: int, variant: str) -> dict[str, Rating]:
        self._check()
        self.variants.append(variant)
        return {"bot": Rating(1600, 90, 0.06, 10 if variant != "ultimate" else 0, 3), "people": Rating()}

    async def leaderboard(self, guild_id: int | None, variant: str = "3x3") -> Leaderboard:
        self._check()
        self.leaderboard_guild = guild_id
        self.variants.append(variant)
        return Leaderboard((), ())

    async def game(self, game_id: str) -> FinishedGame | None:
        self._check()
        return self.games.get(game_id)

    async def last_game(self, channel_id: int) -> FinishedGame | None:
        self._check()
        return next((g for g in reversed(self.games.values()) if g.channel_id == channel_id), None)


class Writer:
    """The record writer, holding ``held`` (finished games not written yet)."""

    def __init__(self, held: tuple[FinishedGame, ...] = ()) -> None:
        self.held = held
        self.asked = 0

    @contextlib.asynccontextmanager
    async def unwritten(self) -> AsyncIterator[tuple[FinishedGame, ...]]:
        self.asked += 1
        yield self.held


@pytest.fixture
def service() -> GameService:
    return GameService(AI(ThreadPoolExecutor(1), rng=random.Random(1)), rng=random.Random(2))


def commands(service: GameService, store: Store, writer: Writer | None = None) -> RecordCommands:
    client = SimpleNamespace(user=SimpleNamespace(id=BOT))
    return RecordCommands(client, service, store, writer or Writer(), puzzles=store)  # type: ignore[arg-type]


def interaction(locale: str = "en-US", guild_id: int | None = GUILD) -> Any:
    return FakeInteraction(locale=locale, channel_id=CHANNEL, guild_id=guild_id)


def user(user_id: int) -> Any:
    return SimpleNamespace(id=user_id, mention=f"<@{user_id}>")


def answer(fake: FakeInteraction) -> str:
    """The text the interaction ended with."""
    return str(fake.calls[-1].kwargs["content"])


async def test_stats_of_a_player_and_of_the_bot(service: GameService) -> None:
    fake = interaction("de")
    await commands(service, Store()).stats(fake, user(ALICE))
    assert fake.calls[0].name == "defer"  # a database may take longer than Discord's 3 s
    played = Rating(1600, 90, 0.06, 10, 3)
    ratings = dict.fromkeys((v for v in VARIANTS if v != "ultimate"), played)  # every variant with a rated game
    stats = UserStats(Record(wins=ALICE), Record(draws=2))
    assert answer(fake) == stats_text(f"<@{ALICE}>", stats, lang("de"), ratings)
    fake = interaction()
    store = Store()
    await commands(service, store).stats(fake, user(BOT))
    records = await store.bot_records()
    assert answer(fake) == bot_records_text(f"<@{BOT}>", records, lang("en-US"))
    assert "5x5, level 2 (" in answer(fake) and "): beaten 1 times in 1 game" in answer(fake)


async def test_stats_and_the_leaderboard_of_one_variant(service: GameService) -> None:
    store = Store()
    fake = interaction()
    await commands(service, store).stats(fake, user(BOT), "ultimate")
    assert answer(fake) == bot_record_text(f"<@{BOT}> · ultimate", "ultimate", {8: Record(3, 1)}, lang("en-US"))
    await commands(service, store).stats(interaction(), user(ALICE), "4x4")
    fake = interaction()
    await commands(service, store).leaderboard(fake, everywhere=False, variant="5x5")
    assert store.variants == ["ultimate", "4x4", "4x4", "5x5"]  # the player's stats, then their 4x4 rating
    assert answer(fake).splitlines()[0].endswith(" · 5x5")


async def test_the_leaderboard_is_this_servers_unless_asked_or_outside_a_server(service: GameService) -> None:
    store = Store()
    fake = interaction()
    await commands(service, store).leaderboard(fake, everywhere=False)
    assert store.leaderboard_guild == GUILD
    assert answer(fake) == leaderboard_text(Leaderboard((), ()), "3x3", everywhere=False, tr=lang("en-US"))
    await commands(service, store).leaderboard(interaction(), everywhere=True)
    assert store.leaderboard_guild is None
    store.leaderboard_guild = "not asked"
    await commands(service, store).leaderboard(interaction(guild_id=None), everywhere=False)
    assert store.leaderboard_guild is None


async def test_rating_of_a_player_in_a_variant(service: GameService) -> None:
    fake = interaction("ja")
    store = Store()
    await commands(service, store).rating(fake, user(ALICE), "5x5")
    assert fake.calls[0].name == "defer" and store.variants == ["5x5"]
    expected = {"bot": Rating(1600, 90, 0.06, 10, 3), "people": Rating()}
    puzzles = puzzle_line(PuzzleRating(1620, 80, 0.06, 5, 4), lang("ja"))
    assert answer(fake) == rating_text(f"<@{ALICE}> · 5x5", "5x5", expected, lang("ja")) + "\n" + puzzles


@pytest.mark.parametrize("command", ["stats", "leaderboard", "review", "rating"])
async def test_a_database_that_is_down_gets_a_private_answer(service: GameService, command: str) -> None:
    fake = interaction("fr")
    cog = commands(service, Store(down=True))
    if command == "stats":
        await cog.stats(fake, user(ALICE))
    elif command == "leaderboard":
        await cog.leaderboard(fake, everywhere=False)
    elif command == "rating":
        await cog.rating(fake, user(ALICE), "3x3")
    else:
        await cog.review(fake, "done1")
    assert answer(fake) == lang("fr")(RECORDS_DOWN)
    assert fake.calls[-1].kwargs.get("ephemeral", True)


@pytest.mark.parametrize("typed", ["done\x00", "²", "\ud800", "x" * 100])
async def test_review_of_an_id_no_game_can_have_is_refused_without_a_query(service: GameService, typed: str) -> None:
    store = Store(down=True)  # a query would fail: none is made
    fake = interaction("de")
    await commands(service, store).review(fake, typed)
    assert answer(fake) == lang("de")(REVIEW_UNKNOWN, game_id=in_code(typed))
    assert fake.calls[-1].kwargs.get("ephemeral", True)


async def test_review_of_a_stored_game_is_private(service: GameService) -> None:
    writer = Writer()
    fake = interaction()
    await commands(service, Store([finished()]), writer).review(fake, "done1")
    assert writer.asked and fake.calls[0].kwargs == {"ephemeral": True, "thinking": True}
    text = answer(fake)
    assert "done1" in text and "`1.`" in text


async def test_a_game_not_written_yet_is_reviewed_and_counted(service: GameService) -> None:
    """The game that just ended is still with the writer: review, stats and rating include it."""
    writer = Writer((finished("held1"),))
    cog = commands(service, Store(), writer)
    fake = interaction()
    await cog.review(fake, None)
    assert "held1" in answer(fake)
    fake = interaction()
    await cog.stats(fake, user(ALICE), "3x3")
    assert "vs the bot: 10 W · 0 D · 1 L" in answer(fake), answer(fake)  # the store's 10 wins and the held loss


async def test_review_without_an_id_is_the_channels_last_finished_game(service: GameService) -> None:
    fake = interaction()
    await commands(service, Store([finished("older"), finished("newer")])).review(fake, None)
    assert "newer" in answer(fake)


async def test_review_refusals(service: GameService) -> None:
    tr = lang("en-US")
    fake = interaction()
    await commands(service, Store()).review(fake, "nope")
    assert answer(fake) == tr(REVIEW_UNKNOWN, game_id="nope")
    fake = interaction()
    await commands(service, Store()).review(fake, None)
    assert answer(fake) == tr(REVIEW_NONE)
    fake = interaction()
    await commands(service, Store([finished(guild_id=99)])).review(fake, "done1")
    assert answer(fake) == tr(REVIEW_ELSEWHERE, game_id="done1")

    running = await service.start(Actor(ALICE, CHANNEL, GUILD), game_id="live1")
    assert isinstance(running, Posted)
    service.placed(CHANNEL, "live1", 900, running.game.post)
    fake = interaction()
    await commands(service, Store()).review(fake, "live1")
    assert [call.name for call in fake.calls] == ["send_message"]  # refused at once, without a database read
    assert answer(fake) == tr(REVIEW_RUNNING)
    fake = interaction()
    await commands(service, Store()).review(fake, None)
    assert answer(fake) == tr(REVIEW_RUNNING)
