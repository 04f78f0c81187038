"""Players' ratings: Glicko-2's direction, rating farming, the people pool, what counts as a loss, and the ratings
written with the game in one transaction on a real SQLite file and on PostgreSQL."""

from __future__ import annotations

import asyncio
import itertools
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.records import FinishedGame, Rating, Record, RecordsStore, database_url, open_store
from bot.records.migrate import alembic_config
from bot.records.ratings import LEVEL_DEVIATION, STARTING, Score, level_rating, rated, scores
from bot.records.schema import ratings
from engine.levels import ladder
from tests.bot.records.conftest import Backend
from tests.bot.records.test_stats import GAMES_AT_0002, old_row

T0 = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)
ANA, BEA = 501, 502
X_WINS, O_WINS, DRAWN = (0, 3, 1, 4, 2), (0, 3, 1, 4, 8, 5), (4, 0, 8, 2, 1, 7, 6, 3, 5)


def vs_bot(
    game_id: str,
    moves: tuple[int, ...],
    result: str | None,
    reason: str = "win",
    *,
    level: int = 1,
    bot_side: str = "O",
    variant: str = "3x3",
    user: int = ANA,
) -> FinishedGame:
    """A game of ``user`` against the bot at ``level``; the bot plays ``bot_side``."""
    return FinishedGame(
        game_id=game_id,
        channel_id=11,
        guild_id=1,
        x_user_id=None if bot_side == "X" else user,
        o_user_id=user if bot_side == "X" else None,
        bot_side=bot_side,  # type: ignore[arg-type]
        level=level,
        algorithm="alpha-beta",
        moves=moves,
        result=result,  # type: ignore[arg-type]
        end_reason=reason,  # type: ignore[arg-type]
        states_evaluated=100,
        started_at=T0,
        ended_at=T0 + timedelta(minutes=1),
        variant=variant,
    )


def between(game_id: str, moves: tuple[int, ...], result: str | None, reason: str = "win") -> FinishedGame:
    """A game of ANA (X) against BEA (O)."""
    return FinishedGame(
        game_id=game_id,
        channel_id=11,
        guild_id=1,
        x_user_id=ANA,
        o_user_id=BEA,
        bot_side=None,
        level=None,
        algorithm=None,
        moves=moves,
        result=result,  # type: ignore[arg-type]
        end_reason=reason,  # type: ignore[arg-type]
        states_evaluated=0,
        started_at=T0,
        ended_at=T0 + timedelta(minutes=1),
    )


# --- Glicko-2 through the library ----------------------------------------------------------------------------


def test_a_win_raises_a_loss_lowers_and_a_draw_moves_towards_the_opponent() -> None:
    win, draw, loss = (rated(STARTING, 1500.0, LEVEL_DEVIATION, score, 5) for score in (1.0, 0.5, 0.0))
    assert loss.rating < STARTING.rating == round(draw.rating) < win.rating
    assert rated(STARTING, 1800.0, LEVEL_DEVIATION, 0.5, 8).rating > STARTING.rating
    assert rated(STARTING, 1200.0, LEVEL_DEVIATION, 0.5, 2).rating < STARTING.rating
    assert all(r.deviation < STARTING.deviation and r.games == 1 for r in (win, draw, loss))
    assert (win.best_level, draw.best_level, loss.best_level) == (5, None, None)


def test_glickmans_example_player_after_one_win() -> None:
    # Glickman's example player (1500 ± 200) beats an opponent rated 1400 ± 30: the first term of his example
    after = rated(Rating(1500.0, 200.0), 1400.0, 30.0, 1.0, None)
    assert 1560 < after.rating < 1570 and 170 < after.deviation < 180


def test_repeated_wins_against_a_low_level_gain_less_and_less() -> None:
    low = 900.0
    player, gains = STARTING, []
    for _ in range(40):
        after = rated(player, low, LEVEL_DEVIATION, 1.0, 1)
        gains.append(after.rating - player.rating)
        player = after
    assert all(gain > 0 for gain in gains)
    assert all(later < earlier for earlier, later in itertools.pairwise(gains))
    assert gains[-1] < gains[0] / 8
    beating_a_peer = rated(player, player.rating, LEVEL_DEVIATION, 1.0, 8).rating - player.rating
    assert beating_a_peer > 5 * gains[-1]  # a win that says something still counts


# --- what a finished game means for each player ------------------------------------------------------------


def test_the_person_against_the_bot_wins_draws_or_loses() -> None:
    assert scores(vs_bot("w", X_WINS, "X")) == (Score(ANA, "bot", 1.0, level=1),)
    assert scores(vs_bot("l", O_WINS, "O")) == (Score(ANA, "bot", 0.0, level=1),)
    assert scores(vs_bot("d", DRAWN, "draw", "draw", level=8)) == (Score(ANA, "bot", 0.5, level=8),)
    assert scores(vs_bot("x", X_WINS, "X", bot_side="X")) == (Score(ANA, "bot", 0.0, level=1),)


def test_a_resignation_and_a_time_out_are_losses_and_a_bot_that_gave_up_is_not_rated() -> None:
    assert scores(vs_bot("r", (4, 0), "O", "resigned")) == (Score(ANA, "bot", 0.0, level=1),)
    assert scores(vs_bot("t", (4, 0), None, "abandoned")) == (Score(ANA, "bot", 0.0, level=1),)  # X's turn: ANA's
    assert scores(vs_bot("g", (4,), None, "abandoned")) == ()  # the bot's turn: its search failed
    assert scores(vs_bot("gx", (), None, "abandoned", bot_side="X")) == ()


def test_games_between_people_rate_both_in_their_own_pool() -> None:
    assert scores(between("p", X_WINS, "X")) == (
        Score(ANA, "people", 1.0, opponent=BEA),
        Score(BEA, "people", 0.0, opponent=ANA),
    )
    assert scores(between("t", (4, 0, 8), None, "abandoned")) == (  # O's time ran out
        Score(ANA, "people", 1.0, opponent=BEA),
        Score(BEA, "people", 0.0, opponent=ANA),
    )
    assert scores(between("d", (), None, "declined")) == ()
    assert scores(between("e", (), None, "expired")) == ()


def test_every_level_of_every_game_has_a_rating() -> None:
    for variant in ("3x3", "4x4", "5x5", "ultimate"):
        found = [level_rating(variant, level) for level in range(1, 9)]
        assert found == [float(step.rating) for step in ladder(variant)]
    with pytest.raises((KeyError, ValueError)):
        level_rating("3x3", 9)


# --- stored with the game, on SQLite and PostgreSQL ----------------------------------------------------------


async def rows(store: RecordsStore) -> dict[tuple[int, str, str], tuple[float, float, int, int | None]]:
    async with store.engine.connect() as connection:
        found = (await connection.execute(select(ratings))).mappings().all()
    return {
        (r["user_id"], r["variant"], r["pool"]): (r["rating"], r["deviation"], r["games"], r["best_level"])
        for r in found
    }


async def test_a_stored_game_rates_its_players_once(store: RecordsStore) -> None:
    assert await store.ratings(ANA, "3x3") == {"bot": STARTING, "people": STARTING}
    won = vs_bot("g1", X_WINS, "X", level=3)
    assert await store.save(won)
    assert not await store.save(won)  # saved again: neither counted nor rated twice
    mine = await store.ratings(ANA, "3x3")
    expected = rated(STARTING, level_rating("3x3", 3), LEVEL_DEVIATION, 1.0, 3)
    assert mine["bot"].rating == pytest.approx(expected.rating)
    assert (mine["bot"].games, mine["bot"].best_level, mine["people"]) == (1, 3, STARTING)
    assert str(mine["bot"]) == f"{round(expected.rating)} ± {round(expected.deviation)}"


async def test_a_batch_rates_in_order_and_keeps_pools_and_variants_apart(store: RecordsStore) -> None:
    batch = [
        vs_bot("b1", X_WINS, "X", level=2),
        vs_bot("b2", (4, 0), "O", "resigned", level=6),
        between("b3", X_WINS, "X"),
        vs_bot("b4", O_WINS, "O", level=8, variant="4x4"),
        vs_bot("b5", (4,), None, "abandoned", level=8),  # the bot gave up: not rated
    ]
    assert await store.save_many(batch) == 5
    assert await store.save_many(batch) == 0
    expected = rated(STARTING, level_rating("3x3", 2), LEVEL_DEVIATION, 1.0, 2)
    expected = rated(expected, level_rating("3x3", 6), LEVEL_DEVIATION, 0.0, 6)
    found = await rows(store)
    assert set(found) == {(ANA, "3x3", "bot"), (ANA, "3x3", "people"), (BEA, "3x3", "people"), (ANA, "4x4", "bot")}
    rating, deviation, played, best = found[(ANA, "3x3", "bot")]
    assert (rating, deviation, played, best) == pytest.approx((expected.rating, expected.deviation, 2, 2))
    assert found[(ANA, "3x3", "people")][0] > 1500 > found[(BEA, "3x3", "people")][0]
    assert found[(ANA, "4x4", "bot")][0] < 1500


async def test_a_batch_costs_the_same_statements_whatever_its_size(store: RecordsStore) -> None:
    """The record writer's transaction holds SQLite's one write lock, and each statement is a round trip through a
    busy event loop: they must not grow with the batch, or finished games queue up faster than they are written."""
    statements: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        statements.append(statement.split()[0])

    event.listen(store.engine.sync_engine, "before_cursor_execute", count)
    try:
        assert await store.save_many([vs_bot("s1", X_WINS, "X", level=2)]) == 1
        one, statements[:] = list(statements), []
        batch = [vs_bot(f"s{i}", X_WINS, "X", level=1 + i % 8, user=600 + i % 30) for i in range(2, 102)]
        assert await store.save_many([*batch, between("s102", DRAWN, "draw", "draw")]) == 101
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", count)
    assert statements == one
    assert (await store.ratings(601, "3x3"))["bot"].games == 3  # games s31, s61 and s91
    assert (await store.ratings(BEA, "3x3"))["people"].games == 1


async def test_a_game_and_its_rating_are_written_together_or_not_at_all(store: RecordsStore) -> None:
    broken = vs_bot("z1", X_WINS, "X", level=3, variant="3x3")
    object.__setattr__(broken, "level", 9)  # past FinishedGame's check: the database refuses the rating's level
    with pytest.raises(Exception):  # noqa: B017 - the database's own error, which differs per backend
        await store.save(broken)
    assert await store.game("z1") is None
    assert await rows(store) == {}


async def test_the_leaderboard_needs_games_and_a_settled_rating(store: RecordsStore) -> None:
    games = [vs_bot(f"f{i}", X_WINS, "X", level=8, user=ANA) for i in range(4)]
    assert await store.save_many(games) == 4
    assert (await store.leaderboard(None)).vs_bot == ()  # 4 games: not yet listed
    assert await store.save(vs_bot("f4", X_WINS, "X", level=8, user=ANA))
    board = await store.leaderboard(None)
    assert [row.user_id for row in board.vs_bot] == [ANA] and board.vs_people == ()
    assert (await store.leaderboard(2)).vs_bot == ()  # ANA played in guild 1 only
    assert (await store.leaderboard(None, variant="4x4")).vs_bot == ()


async def test_0004_gives_older_games_the_level_of_their_difficulty(backend: Backend) -> None:
    engine = create_async_engine(database_url(backend.url))
    async with engine.begin() as connection:
        await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0003"))
        await connection.execute(
            sa.insert(GAMES_AT_0002),
            [
                old_row("old-e", "40826", "O", "resigned") | {"difficulty": "easy"},
                old_row("old-m", "40826", "O", "resigned") | {"difficulty": "medium"},
                old_row("old-u", "4", None, "abandoned"),
            ],
        )
    await engine.dispose()
    store = await open_store(backend.url)
    try:
        assert [(await store.game(g)).level for g in ("old-e", "old-m", "old-u")] == [2, 5, 8]  # type: ignore[union-attr]
        assert await store.bot_record() == dict.fromkeys(range(1, 9), Record()) | {
            2: Record(1, 0, 0),
            5: Record(1, 0, 0),
        }
        assert await store.ratings(101, "3x3") == {"bot": STARTING, "people": STARTING}  # older games are not rated
    finally:
        await store.close()


async def test_games_of_one_player_stored_at_once_by_two_processes_both_count(backend: Backend) -> None:
    """Two stores (two bot processes) finish one new player's games at the same moment: neither rating is lost."""
    first, second = await open_store(backend.url, timeout=10.0), await open_store(backend.url, timeout=10.0)
    try:
        for round_ in range(5):
            await asyncio.gather(
                first.save(vs_bot(f"a{round_}", X_WINS, "X", level=2, user=ANA + round_)),
                second.save(vs_bot(f"b{round_}", O_WINS, "O", level=7, user=ANA + round_)),
            )
            mine = (await first.ratings(ANA + round_, "3x3"))["bot"]
            assert (mine.games, mine.best_level) == (2, 2), round_
    finally:
        await first.close()
        await second.close()
