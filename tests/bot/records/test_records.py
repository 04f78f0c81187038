"""The records store against real databases: every backend test runs on a SQLite file and on PostgreSQL.

PostgreSQL is the session's test server (``postgres_server`` in tests/conftest.py), one fresh database per
test. An outage is real on both: PostgreSQL is stopped and started again; SQLite is locked by another
connection holding a write transaction (as a backup or a ``sqlite3`` shell would), so the store's writes
fail after its busy timeout. (Changing the folder's permissions would not stop root, and a renamed file
stays open in pooled connections.)
"""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from subprocess import PIPE, STDOUT

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from bot.records import (
    DEFAULT_SQLITE_PATH,
    FinishedGame,
    Leaderboard,
    Record,
    RecordsStore,
    RecordsUnavailableError,
    RecordWriter,
    UserStats,
    database_url,
    open_store,
)
from bot.records.games import MAX_SNOWFLAKE
from bot.records.migrate import head_revision
from bot.records.schema import metadata
from tests.bot.records.conftest import Backend
from tests.pg_server import PostgresServer

ROOT = Path(__file__).resolve().parents[3]

# --- a small hand-built history -----------------------------------------------------------------------------

A, B, C, D = 101, 102, 103, 104
G1, G2 = 1, 2
CH1, CH2, CH3, DM = 11, 12, 21, 31
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
X_WINS, O_WINS, DRAWN = (0, 3, 1, 4, 2), (0, 3, 1, 4, 8, 5), (4, 0, 8, 2, 1, 7, 6, 3, 5)


def make(
    game_id: str,
    minute: int,
    channel: int,
    guild: int | None,
    *,
    x: int | None,
    o: int | None,
    result: str | None,
    reason: str,
    level: int | None = None,
    moves: tuple[int, ...] = (),
    tz: timezone = UTC,
) -> FinishedGame:
    """A game that started at T0 + ``minute`` minutes and lasted 30 s; the bot plays the side whose id is None."""
    bot_side = "X" if x is None else "O" if o is None else None
    start = (T0 + timedelta(minutes=minute)).astimezone(tz)
    return FinishedGame(
        game_id=game_id,
        channel_id=channel,
        guild_id=guild,
        x_user_id=x,
        o_user_id=o,
        bot_side=bot_side,  # type: ignore[arg-type]
        level=level if bot_side else None,
        algorithm="alpha-beta" if bot_side else None,
        moves=moves,
        result=result,  # type: ignore[arg-type]
        end_reason=reason,  # type: ignore[arg-type]
        states_evaluated=3_000 * len(moves) if bot_side else 0,
        started_at=start,
        ended_at=start + timedelta(seconds=30),
    )


HISTORY = [
    make("g01", 1, CH1, G1, x=A, o=None, result="draw", reason="draw", level=8, moves=DRAWN),
    make("g02", 2, CH1, G1, x=None, o=A, result="X", reason="win", level=8, moves=X_WINS),
    make("g03", 3, CH2, G1, x=B, o=None, result="draw", reason="draw", level=8, moves=DRAWN),
    make("g04", 4, CH2, G1, x=B, o=None, result="X", reason="win", level=2, moves=X_WINS),
    # C resigns as X, so O (the bot) wins; kept in UTC+2 to check the times come back in UTC
    make(
        "g05",
        5,
        CH3,
        G2,
        x=C,
        o=None,
        result="O",
        reason="resigned",
        level=5,
        moves=(4, 0),
        tz=timezone(timedelta(hours=2)),
    ),
    make("g06", 6, DM, None, x=A, o=None, result="X", reason="win", level=2, moves=X_WINS),
    make("g07", 7, CH1, G1, x=A, o=B, result="X", reason="win", moves=X_WINS),
    make("g08", 8, CH1, G1, x=B, o=A, result="X", reason="resigned", moves=(4, 0, 8)),  # A resigns as O
    make("g09", 9, CH2, G1, x=A, o=C, result="draw", reason="draw", moves=DRAWN),
    make("g10", 10, CH3, G2, x=C, o=D, result="O", reason="win", moves=O_WINS),
    make("g11", 11, CH1, G1, x=A, o=None, result=None, reason="abandoned", level=8, moves=(4,)),
    make("g12", 12, CH1, G1, x=A, o=B, result=None, reason="declined"),
    make("g13", 13, CH3, G2, x=C, o=D, result=None, reason="expired"),
    make("g14", 14, CH1, G1, x=None, o=D, result="draw", reason="draw", level=8, moves=DRAWN),
]
BY_ID = {game.game_id: game for game in HISTORY}


def assert_one_line_without(message: str, secret: str | None) -> None:
    assert "\n" not in message and message.strip() == message, message
    if secret:
        assert secret not in message


async def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.01)


# --- migrations ---------------------------------------------------------------------------------------------


async def test_migrations_build_the_schema_once(backend: Backend, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="alembic")  # Alembic's progress lines are DEBUG
    store = await open_store(backend.url)
    try:
        async with store.engine.connect() as connection:
            versions = (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
            schema = await connection.run_sync(_schema)
            drift = await connection.run_sync(lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
        assert versions == [head_revision()] == ["0007"]
        assert schema["tables"] == [
            "alembic_version",
            "daily_tries",
            "games",
            "puzzle_attempts",
            "puzzle_players",
            "puzzle_ratings",
            "ratings",
            "running_games",
            "running_puzzles",
        ]
        assert schema["indexes"] == {
            "ix_games_channel_id_ended_at": ["channel_id", "ended_at"],
            "ix_games_guild_id": ["guild_id"],
            "ix_games_o_user_id": ["o_user_id"],
            "ix_games_variant": ["variant"],
            "ix_games_variant_level": ["variant", "level"],
            "ix_games_x_user_id": ["x_user_id"],
        }
        assert schema["primary_key"] == ["game_id"]
        assert drift == [], "the migrations and bot/records/schema.py disagree"
        assert len([r for r in caplog.records if r.getMessage().startswith("Running upgrade")]) == 7  # 0001-0007
        assert await store.save(HISTORY[0])
    finally:
        await store.close()

    caplog.clear()
    again = await open_store(backend.url)
    try:
        assert not [r for r in caplog.records if r.getMessage().startswith("Running upgrade")]
        async with again.engine.connect() as connection:
            versions = (await connection.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
        assert versions == ["0007"]
        assert await again.game("g01") == HISTORY[0]
    finally:
        await again.close()


async def test_opening_says_the_revision_in_one_info_line_and_alembics_progress_at_debug(
    backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    head = head_revision()
    for upgraded in (" (upgraded from an empty database)", ""):
        caplog.clear()
        store = await open_store(backend.url)
        await store.close()
        assert not [r for r in caplog.records if r.name.startswith("alembic")]  # "Running upgrade", "Context impl"
        (said,) = [r for r in caplog.records if "revision" in r.getMessage()]
        assert said.levelno == logging.INFO and said.name == "bot.records.store"
        assert said.getMessage().endswith(f" at revision {head}{upgraded}"), said.getMessage()
    caplog.clear()
    caplog.set_level(logging.DEBUG, logger="alembic")
    store = await open_store(backend.url)
    await store.close()
    progress = [r for r in caplog.records if r.name.startswith("alembic")]
    assert progress and {r.levelname for r in progress} == {"DEBUG"}  # "Context impl ...", still there at DEBUG


_OPEN_ONCE = """
import asyncio, logging, sys
from bot.records import open_store
logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(message)s")
logging.getLogger("alembic").setLevel(logging.DEBUG)  # its "Running upgrade" lines are DEBUG
print("ready", flush=True)  # imports done; wait for the parent's go, so the processes start together
sys.stdin.readline()
async def main():
    store = await open_store(sys.argv[1], timeout=10.0)
    await store.close()
asyncio.run(main())
"""


async def test_processes_starting_together_migrate_once(backend: Backend) -> None:
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-c", _OPEN_ONCE, backend.url, cwd=ROOT, stdin=PIPE, stdout=PIPE, stderr=STDOUT
        )
        for _ in range(3)
    ]
    for process in processes:  # a barrier: every process has imported everything before any opens the store
        assert process.stdout is not None and await process.stdout.readline() == b"ready\n"
    outputs = [(await p.communicate(b"go\n"))[0].decode() for p in processes]
    assert [p.returncode for p in processes] == [0, 0, 0], outputs
    assert sum(out.count("Running upgrade") for out in outputs) == 7, outputs  # 0001-0007, by one process


def _schema(connection: Connection) -> dict[str, object]:
    inspector = inspect(connection)
    return {
        "tables": sorted(inspector.get_table_names()),
        "indexes": {ix["name"]: ix["column_names"] for ix in inspector.get_indexes("games")},
        "primary_key": inspector.get_pk_constraint("games")["constrained_columns"],
    }


async def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    store = await open_store(f"sqlite:///{path}", timeout=2.5)
    try:
        async with store.engine.connect() as connection:
            mode = (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar()
            busy = (await connection.exec_driver_sql("PRAGMA busy_timeout")).scalar()
        assert (mode, busy) == ("wal", 2500)
        outside = sqlite3.connect(path)
        try:
            assert outside.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # WAL is kept in the file
        finally:
            outside.close()
    finally:
        await store.close()


# --- saving and queries -------------------------------------------------------------------------------------


async def test_saving_a_game_twice_counts_it_once(store: RecordsStore) -> None:
    first = HISTORY[0]
    assert await store.save(first) is True
    assert await store.save(first) is False
    assert await store.save(replace(first, result="X", end_reason="win")) is False  # the first save stands
    assert await store.game("g01") == first
    assert await store.user_stats(A) == UserStats(vs_bot=Record(draws=1), vs_people=Record())
    assert (await store.bot_record())[8] == Record(draws=1)


async def test_queries_on_a_small_history(store: RecordsStore) -> None:
    for game in reversed(HISTORY):  # stored out of order: queries order by time, not by insertion
        assert await store.save(game)

    assert await store.user_stats(A) == UserStats(vs_bot=Record(1, 1, 1), vs_people=Record(1, 1, 1))
    assert await store.user_stats(A, G1) == UserStats(vs_bot=Record(0, 1, 1), vs_people=Record(1, 1, 1))
    assert await store.user_stats(A, G2) == UserStats(vs_bot=Record(), vs_people=Record())
    assert await store.user_stats(B) == UserStats(vs_bot=Record(1, 1, 0), vs_people=Record(1, 0, 1))
    assert await store.user_stats(C) == UserStats(vs_bot=Record(0, 0, 1), vs_people=Record(0, 1, 1))
    assert await store.user_stats(D) == UserStats(vs_bot=Record(0, 1, 0), vs_people=Record(1, 0, 0))
    assert await store.user_stats(999) == UserStats(vs_bot=Record(), vs_people=Record())

    unplayed = dict.fromkeys(range(1, 9), Record())
    assert await store.bot_record() == unplayed | {2: Record(0, 0, 2), 5: Record(1, 0, 0), 8: Record(1, 3, 0)}
    assert await store.bot_record(G1) == unplayed | {2: Record(0, 0, 1), 8: Record(1, 3, 0)}
    assert (await store.bot_record(G1))[8].games == 4
    assert (await store.bot_records())["3x3"][8] == Record(1, 3, 0)
    assert (await store.bot_records())["ultimate"] == unplayed

    # every counted game rated its players (stored out of order here, so rated in that order); g11 was abandoned
    # on the bot's turn, g12 declined, g13 expired: not rated
    mine = await store.ratings(A, "3x3")
    assert (mine["bot"].games, mine["people"].games, mine["bot"].best_level) == (3, 3, 2)
    assert (await store.ratings(D, "3x3"))["people"].games == 1
    assert (await store.leaderboard(None)) == Leaderboard((), ())  # nobody has 5 rated games yet

    resigned = await store.game("g05")
    assert resigned == BY_ID["g05"]
    assert resigned is not None and resigned.started_at.tzinfo is UTC
    assert resigned.started_at == T0 + timedelta(minutes=5)
    assert await store.game("g12") == BY_ID["g12"]  # stored, though not counted
    assert await store.game("nope") is None

    assert [g.game_id for g in await store.recent_games(CH1)] == ["g14", "g12", "g11", "g08", "g07", "g02", "g01"]
    assert await store.recent_games(CH1, limit=3) == (BY_ID["g14"], BY_ID["g12"], BY_ID["g11"])
    assert await store.last_game(CH3) == BY_ID["g13"]
    assert await store.recent_games(999) == ()
    assert await store.last_game(999) is None


async def test_snowflakes_fill_a_signed_64_bit_column(store: RecordsStore) -> None:
    discord_epoch_ms = 1_420_070_400_000
    last_day = datetime.fromtimestamp(((MAX_SNOWFLAKE >> 22) + discord_epoch_ms) / 1000, UTC)
    assert last_day.year == 2084  # snowflakes keep their top bit clear until then
    game_id = _base36(MAX_SNOWFLAKE)
    assert len(game_id) == 13
    big = replace(
        HISTORY[0], game_id=game_id, channel_id=MAX_SNOWFLAKE, guild_id=MAX_SNOWFLAKE, x_user_id=MAX_SNOWFLAKE
    )
    assert await store.save(big)
    assert await store.game(game_id) == big
    assert (await store.user_stats(MAX_SNOWFLAKE, MAX_SNOWFLAKE)).vs_bot == Record(draws=1)
    with pytest.raises(ValueError, match="x_user_id"):
        replace(big, x_user_id=MAX_SNOWFLAKE + 1)


def _base36(number: int) -> str:
    digits = ""
    while number:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
    return digits or "0"


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ({"moves": (4, 4)}, "distinct"),
        ({"moves": (9,)}, "cells 0-8"),
        ({"result": None}, "needs result"),
        ({"end_reason": "abandoned"}, "needs result"),
        ({"bot_side": "X"}, "the bot plays X"),
        ({"level": 9}, "level"),
        ({"level": None}, "needs its level"),
        ({"started_at": datetime(2026, 1, 1)}, "timezone-aware"),
        ({"ended_at": T0 - timedelta(days=1)}, "before started_at"),
        ({"game_id": ""}, "game_id"),
    ],
)
def test_a_finished_game_checks_its_fields(change: dict[str, object], complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        replace(HISTORY[0], **change)  # type: ignore[arg-type]


# --- outages ------------------------------------------------------------------------------------------------

_NEXT_TRY = re.compile(r"next try in ([0-9.]+) s")


async def test_games_finished_during_an_outage_are_written_once_it_ends(
    backend: Backend, store: RecordsStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    writer = RecordWriter(store, max_pending=50, retry_initial=0.05, retry_max=0.2)
    writer.start()
    assert writer.submit(BY_ID["g01"])
    assert await writer.flush(5)

    during = [BY_ID[i] for i in ("g02", "g07", "g08", "g14")]
    async with backend.outage():
        with pytest.raises(RecordsUnavailableError) as refused:
            await store.save(BY_ID["g13"])  # on SQLite, reads go on during a write lock (WAL)
        assert_one_line_without(str(refused.value), backend.password)
        for game in [*during, BY_ID["g01"], BY_ID["g02"]]:  # g01 is stored already; g02 ends twice
            assert writer.submit(game)  # returns at once
        await wait_until(lambda: len(_NEXT_TRY.findall(caplog.text)) >= 4)
        assert writer.pending == 6
        assert await writer.flush(0.1) is False

    assert await writer.flush(10)
    assert writer.pending == 0
    delays = [float(d) for d in _NEXT_TRY.findall(caplog.text)]
    assert delays[:4] == [0.05, 0.1, 0.2, 0.2]  # doubling, capped at retry_max
    assert await store.user_stats(A) == UserStats(vs_bot=Record(0, 1, 1), vs_people=Record(1, 0, 1))
    assert await store.recent_games(CH1) == (BY_ID["g14"], BY_ID["g08"], BY_ID["g07"], BY_ID["g02"], BY_ID["g01"])
    assert (await store.bot_record())[8] == Record(1, 2, 0)
    assert await writer.close() == 0
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING and r.name.startswith("bot.records")]
    assert warnings and all("\n" not in r.getMessage() for r in warnings)
    if backend.password:
        assert backend.password not in caplog.text
        assert "***" in caplog.text


async def test_closing_while_the_database_is_away_reports_what_was_not_written(
    backend: Backend, store: RecordsStore, caplog: pytest.LogCaptureFixture
) -> None:
    writer = RecordWriter(store, retry_initial=0.05, retry_max=0.1)
    writer.start()
    async with backend.outage():
        assert writer.submit(BY_ID["g01"])
        assert writer.submit(BY_ID["g02"])
        assert await writer.close(timeout=0.3) == 2
        assert writer.submit(BY_ID["g03"]) is False  # closed
    assert "2 finished games could not be written: g01, g02" in caplog.text
    assert await store.save(BY_ID["g03"])  # the store itself works again


async def test_a_game_the_database_refuses_is_dropped_without_blocking_the_rest(
    store: RecordsStore, caplog: pytest.LogCaptureFixture
) -> None:
    refused = replace(BY_ID["g01"], game_id="bad")
    object.__setattr__(refused, "algorithm", "impossible")  # past the dataclass's checks, to the CHECK constraint
    writer = RecordWriter(store, retry_initial=0.05)
    writer.start()
    assert writer.submit(refused) and writer.submit(BY_ID["g02"])
    assert await writer.flush(5)
    assert "game bad was refused by the database and is dropped" in caplog.text
    assert await store.game("bad") is None
    assert await store.game("g02") == BY_ID["g02"]
    assert await writer.close() == 0


async def test_the_queue_is_bounded(store: RecordsStore, caplog: pytest.LogCaptureFixture) -> None:
    writer = RecordWriter(store, max_pending=2)
    assert [writer.submit(BY_ID[i]) for i in ("g01", "g02", "g03")] == [True, True, False]
    assert "game g03 is dropped" in caplog.text
    assert writer.pending == 2
    writer.start()
    assert await writer.flush(5)
    assert [await store.game(i) is not None for i in ("g01", "g02", "g03")] == [True, True, False]
    assert await writer.close() == 0


# --- opening ------------------------------------------------------------------------------------------------


async def test_an_unreachable_postgresql_raises_one_line_without_the_password(
    postgres_server: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    closed_port = postgres_server.url_for("postgres").replace(f":{postgres_server.port}/", ":1/")
    wrong_password = postgres_server.url.replace(postgres_server.password, "not-the-password")
    for url, reason in [(closed_port, "ConnectionRefusedError"), (wrong_password, "password authentication failed")]:
        with pytest.raises(RecordsUnavailableError) as refused:
            await open_store(url, timeout=5)
        message = str(refused.value)
        assert_one_line_without(message, postgres_server.password)
        assert_one_line_without(message, "not-the-password")
        assert message.startswith("cannot open the game records database postgresql+asyncpg://ttt:***@127.0.0.1:")
        assert reason in message
    assert postgres_server.password not in caplog.text
    assert "not-the-password" not in caplog.text


async def test_an_unusable_sqlite_path_raises_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(RecordsUnavailableError) as refused:
        await open_store(f"sqlite:///{blocker}/records.sqlite3")
    assert_one_line_without(str(refused.value), None)
    assert "a-file" in str(refused.value)


@pytest.mark.parametrize(
    ("raw", "driver", "rest"),
    [
        (None, "sqlite+aiosqlite", "/work/data/ttt.sqlite3"),
        ("  ", "sqlite+aiosqlite", "/work/data/ttt.sqlite3"),
        ("sqlite:///games/ttt.db", "sqlite+aiosqlite", "/work/games/ttt.db"),
        ("sqlite:////var/lib/ttt/ttt.db", "sqlite+aiosqlite", "/var/lib/ttt/ttt.db"),
        ("postgresql://bot:s3cret@db.example:5433/ttt", "postgresql+asyncpg", "bot:***@db.example:5433/ttt"),
        ("postgres://bot:s3cret@ec2-1-2-3-4.compute-1.amazonaws.com:5432/d8x", "postgresql+asyncpg",
         "bot:***@ec2-1-2-3-4.compute-1.amazonaws.com:5432/d8x"),
        ("postgres://bot:s3cret@db/ttt?sslmode=require", "postgresql+asyncpg", "bot:***@db/ttt?ssl=require"),
    ],
)  # fmt: skip
def test_database_url_forms(raw: str | None, driver: str, rest: str) -> None:
    url = database_url(raw, cwd=Path("/work"))
    assert url.drivername == driver
    shown = url.render_as_string(hide_password=True)
    assert shown.split("://", 1)[1].lstrip("/") == rest.lstrip("/")
    if raw and "s3cret" in raw:
        assert url.password == "s3cret"


@pytest.mark.parametrize("raw", ["mysql://root:s3cret@db/ttt", "sqlite://", "sqlite:///:memory:", "not a url"])
def test_unsupported_database_urls_are_refused_without_the_password(raw: str) -> None:
    with pytest.raises(RecordsUnavailableError) as refused:
        database_url(raw)
    assert_one_line_without(str(refused.value), "s3cret")
    assert "DATABASE_URL" in str(refused.value)


async def test_the_default_database_is_created_with_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert not (tmp_path / "data").exists()
    store = await open_store(None)
    try:
        assert await store.save(HISTORY[0])
    finally:
        await store.close()
    assert (tmp_path / "data" / "ttt.sqlite3").is_file()
    assert (tmp_path / DEFAULT_SQLITE_PATH).is_file()


async def test_a_batch_is_stored_in_one_go_and_each_game_once(store: RecordsStore) -> None:
    assert await store.save(HISTORY[0])
    batch = [*HISTORY[:5], HISTORY[3]]  # one stored already, one twice in the batch
    assert await store.save_many(batch) == 4
    assert await store.save_many(batch) == 0
    assert await store.save_many([]) == 0
    assert [await store.game(game.game_id) for game in HISTORY[:5]] == HISTORY[:5]
    assert (await store.user_stats(B)).vs_bot.games == 2
