"""Running games in the records database, on SQLite and PostgreSQL: rows written and read back, a newer version
never overwritten by an older one, rows of ended games deleted, and the background writer coalescing, riding out
an outage, and losing only what was still waiting when the process died."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from sqlalchemy import delete, event, text

from bot.records import RecordsStore, RecordWriter, RunningGame, RunningStore, RunningWriter, Stored, open_store
from bot.records.schema import running_games
from tests.bot.records.conftest import Backend
from tests.bot.records.test_records import HISTORY, X_WINS, make

T = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


def running(game_id: str = "g1", *moves: int, channel: int = 11, states: int = 0, **changes: object) -> RunningGame:
    game = RunningGame(
        game_id=game_id,
        channel_id=channel,
        guild_id=1,
        x_user_id=101,
        o_user_id=None,
        bot_side="O",
        level=8,
        algorithm="alpha-beta",
        mode="buttons",
        moves=moves,
        states_evaluated=states,
        verified=True,
        updated_at=T,
    )
    return replace(game, **changes)  # type: ignore[arg-type]


@pytest.fixture
async def runs(store: RecordsStore) -> RunningStore:
    return RunningStore(store)


async def test_a_running_game_is_written_read_back_and_deleted(runs: RunningStore) -> None:
    game = running("g1", 4, 0, states=302)
    await runs.apply([game])
    assert await runs.stored("g1") == Stored(game, finished=False)
    assert (await runs.stored("g1")).running.version == 2  # type: ignore[union-attr]
    assert await runs.in_channel(11) == game
    await runs.apply([], ["g1"])
    assert await runs.stored("g1") == Stored(None, False)
    assert await runs.in_channel(11) is None


async def test_an_older_version_never_overwrites_a_newer_one(runs: RunningStore) -> None:
    newer = running("g1", 4, 0, 8, 2, states=400)
    await runs.apply([newer])
    await runs.apply([running("g1", 4, 0, states=300)])
    assert (await runs.stored("g1")).running == newer


async def test_moves_beyond_cell_9_and_the_variant_are_kept(runs: RunningStore, store: RecordsStore) -> None:
    big = running("u1", 80, 40, 10, 9, variant="ultimate")
    await runs.apply([big])
    assert (await runs.stored("u1")).running == big
    async with store.engine.connect() as connection:
        row = (await connection.execute(text("SELECT moves, version, variant FROM running_games"))).one()
    assert tuple(row) == ("80,40,10,9", 4, "ultimate")
    async with store.engine.begin() as connection:  # a row written without a variant is tic-tac-toe
        await connection.execute(
            text(
                "INSERT INTO running_games (game_id, channel_id, mode, moves, version, states_evaluated, verified, "
                "updated_at, x_user_id, o_user_id) VALUES ('p1', 12, 'text', '', 0, 0, true, :t, 1, 2)"
            ),
            {"t": T},
        )
    assert (await runs.stored("p1")).running.variant == "3x3"  # type: ignore[union-attr]


async def test_the_channels_newest_unfinished_game_is_found(runs: RunningStore, store: RecordsStore) -> None:
    finished = HISTORY[0]  # "g01" in channel 11, recorded as finished
    await store.save(finished)
    await runs.apply([running("g01", 4, channel=11), running("zz", 4, channel=11), running("100", 0, channel=11)])
    assert (await runs.in_channel(11)).game_id == "100"  # type: ignore[union-attr]  # base 36: "zz" < "100" < "g01"
    assert await runs.stored("g01") == Stored(running("g01", 4, channel=11), finished=True)
    assert await runs.in_channel(99) is None


def test_a_running_game_checks_its_fields() -> None:
    with pytest.raises(ValueError, match="both sides"):
        running(x_user_id=5, o_user_id=5, bot_side=None)
    with pytest.raises(ValueError, match="distinct"):
        running("g", 1, 1)
    with pytest.raises(ValueError, match="bot_side"):
        running(bot_side=None)
    with pytest.raises(ValueError, match="states_evaluated"):
        running(states=-1)


@pytest.fixture
async def writer(runs: RunningStore) -> AsyncIterator[RunningWriter]:
    writer = RunningWriter(runs, retry_initial=0.05, retry_max=0.2)
    writer.start()
    yield writer
    await writer.close(timeout=5)


async def test_the_writer_keeps_the_newest_state_and_drops_ended_games(
    writer: RunningWriter, runs: RunningStore
) -> None:
    for ply in range(1, 5):
        writer.put(running("g1", *(4, 0, 8, 2)[:ply], states=100 * ply))
    writer.put(running("g2", 4))
    writer.drop("g2")
    assert await writer.flush(5)
    assert (await runs.stored("g1")).running == running("g1", 4, 0, 8, 2, states=400)
    assert (await runs.stored("g2")).running is None


async def test_writes_queued_within_the_window_share_one_transaction(
    runs: RunningStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[int] = []
    apply = runs.apply

    async def counted(saved: list[RunningGame], dropped: list[str]) -> None:
        batches.append(len(saved) + len(dropped))
        await apply(saved, dropped)

    monkeypatch.setattr(runs, "apply", counted)
    writer = RunningWriter(runs, window=0.2)
    writer.start()
    try:
        writer.put(running("g1", 4))
        await asyncio.sleep(0)  # the writer wakes for g1 and holds its batch open
        writer.put(running("g2", 4))
        writer.drop("g3")
        assert await writer.flush(5)  # cuts the window short
    finally:
        await writer.close(timeout=5)
    assert batches == [3]
    assert (await runs.stored("g2")).running == running("g2", 4)


def test_a_negative_window_is_refused(runs: RunningStore) -> None:
    with pytest.raises(ValueError, match="window"):
        RunningWriter(runs, window=-1)


async def test_the_writer_rides_out_an_outage(backend: Backend, writer: RunningWriter, runs: RunningStore) -> None:
    async with backend.outage():
        writer.put(running("g1", 4))
        await asyncio.sleep(0.3)  # at least one failed try
        writer.put(running("g1", 4, 0, states=50))
        assert writer.pending == 1
    assert await writer.flush(20)
    assert (await runs.stored("g1")).running == running("g1", 4, 0, states=50)


async def test_a_crash_loses_only_the_moves_still_waiting(backend: Backend) -> None:
    """What docs/operations.md promises: the moves written before the process died are kept; those waiting are lost."""
    first = await open_store(backend.url)
    writer = RunningWriter(RunningStore(first))
    writer.start()
    writer.put(running("g1", 4, 0, states=120))
    assert await writer.flush(10)
    task = writer._task
    assert task is not None
    task.cancel()  # the process is about to die: its writer gets no further turn
    with contextlib.suppress(asyncio.CancelledError):
        await task
    writer.put(running("g1", 4, 0, 8, 2, states=180))  # committed in memory, still waiting when the process dies
    assert writer.pending == 1
    await first.close()
    again = await open_store(backend.url)
    try:
        assert (await RunningStore(again).stored("g1")).running == running("g1", 4, 0, states=120)
    finally:
        await again.close()


async def test_a_games_record_and_the_removal_of_its_running_row_are_one_transaction(
    store: RecordsStore, runs: RunningStore
) -> None:
    """A crash injected between the record's insert and the running row's deletion leaves neither: the game still
    runs as stored, nothing is recorded; written again, both writes land together."""
    await runs.apply([running("g1", 4, 0, channel=11)])
    ended = make("g1", 1, 11, 1, x=101, o=None, result="O", reason="resigned", level=2, moves=(4, 0))
    statements: list[str] = []

    def crash_before_the_deletion(conn: object, cursor: object, statement: str, *args: object) -> None:
        statements.append(statement.split()[0])
        if statement.lstrip().upper().startswith("DELETE FROM RUNNING_GAMES"):
            raise RuntimeError("the process died here")

    event.listen(store.engine.sync_engine, "before_cursor_execute", crash_before_the_deletion)
    try:
        with pytest.raises(RuntimeError, match="died here"):
            await store.save_many([ended])
    finally:
        event.remove(store.engine.sync_engine, "before_cursor_execute", crash_before_the_deletion)
    assert statements[-2:] == ["INSERT", "DELETE"], statements
    assert await store.game("g1") is None, "the record outlived the crash without the running row's deletion"
    assert await runs.stored("g1") == Stored(running("g1", 4, 0, channel=11), finished=False)
    assert await runs.in_channel(11) == running("g1", 4, 0, channel=11)

    assert await store.save_many([ended]) == 1
    assert await store.game("g1") == ended
    assert await runs.stored("g1") == Stored(None, finished=True)
    assert await runs.in_channel(11) is None
    assert await store.save(ended) is False  # saved again: still one record, no running row


async def test_a_write_waits_for_another_transaction_of_the_store_past_the_busy_timeout(
    store: RecordsStore, runs: RunningStore
) -> None:
    """The record writer and the running-game writer share one store: on SQLite (one write lock per file, a busy
    timeout of 0.1 s here) a write made while the other's transaction is open waits for its turn instead of failing
    with "database is locked"; on PostgreSQL both go on at once."""
    opened = asyncio.Event()

    async def slow_finish() -> None:
        async with store.connection(write=True) as connection:
            await connection.execute(delete(running_games).where(running_games.c.game_id == "g1"))
            opened.set()
            await asyncio.sleep(0.5)  # five busy timeouts

    finishing = asyncio.create_task(slow_finish())
    await opened.wait()
    await runs.apply([running("g2", 4)])
    await finishing
    assert (await runs.stored("g2")).running == running("g2", 4)


async def test_the_two_writers_of_one_store_never_lock_each_other_out(
    store: RecordsStore, runs: RunningStore, caplog: pytest.LogCaptureFixture
) -> None:
    """Games ending while others move, as in the bot: every record and every running state is written, and
    neither writer ever finds the database locked by the other."""
    records = RecordWriter(store, retry_initial=0.05, retry_max=0.2)
    states = RunningWriter(runs, window=0, retry_initial=0.05, retry_max=0.2)
    records.start()
    states.start()
    try:
        for i in range(400):
            states.put(running(f"m{i}", 4, channel=i))
            states.drop(f"e{i}")
            ended = make(f"e{i}", i, 20, 1, x=101, o=None, result="X", reason="win", level=1, moves=X_WINS)
            assert records.submit(ended)
            await asyncio.sleep(0)
        assert await records.flush(20)
        assert await states.flush(20)
    finally:
        await records.close(timeout=5)
        await states.close(timeout=5)
    assert "not saved yet" not in caplog.text
    assert len(await store.recent_games(20, limit=500)) == 400
    assert len(await runs.unfinished()) == 400
