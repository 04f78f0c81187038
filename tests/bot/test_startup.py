"""Configuration, the command line (exit codes, one-line errors), the client's setup and the console game."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import random
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import get_args

import discord
import pytest
import yarl
from aiohttp import web

from bot import console
from bot.__main__ import main
from bot.app.patches import use_endpoints
from bot.client import TTTBot
from bot.config import DEFAULT_API_BASE, ConfigError, Settings, load_settings
from bot.games.levels import rating_of
from bot.games.renewing import RenewingExecutor
from bot.records import RecordWriter, open_store
from bot.records.migrate import head_revision
from engine import VARIANTS
from engine.kernels import search_kernels
from engine.protocol import Algorithm
from testing.programs import path_without

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.secret-token-value.abcdefghijklmnopqrstuvwxyz"
ROOT = Path(__file__).resolve().parents[2]


def test_settings_from_env_file_with_environment_overriding(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nTTT_TURN_TIMEOUT=30\nLOG_LEVEL=debug\nDISCORD_DEV_GUILD_ID=42\n")
    settings = load_settings(
        {"TTT_TURN_TIMEOUT": "45", "DISCORD_SHARD_IDS": "0,1", "DISCORD_SHARD_COUNT": "4"}, env_file
    )
    assert settings.token == TOKEN and settings.turn_timeout == 45.0 and settings.log_level == logging.DEBUG
    assert settings.dev_guild_id == 42 and settings.shard_ids == (0, 1) and settings.shard_count == 4
    assert settings.api_base == DEFAULT_API_BASE and settings.challenge_timeout == 60.0
    assert TOKEN not in repr(settings)


def test_challenge_timeout_setting() -> None:
    assert load_settings({"DISCORD_TOKEN": "t", "TTT_CHALLENGE_TIMEOUT": "2.5"}, None).challenge_timeout == 2.5


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({}, "DISCORD_TOKEN is not set"),
        ({"DISCORD_TOKEN": "  "}, "make console"),
        ({"DISCORD_TOKEN": "t", "TTT_TURN_TIMEOUT": "soon"}, "TTT_TURN_TIMEOUT must be a number"),
        ({"DISCORD_TOKEN": "t", "TTT_TURN_TIMEOUT": "-1"}, "positive"),
        ({"DISCORD_TOKEN": "t", "TTT_CHALLENGE_TIMEOUT": "-1"}, "TTT_CHALLENGE_TIMEOUT must be a positive"),
        ({"DISCORD_TOKEN": "t", "LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": "t", "DISCORD_SHARD_IDS": "0,1"}, "needs DISCORD_SHARD_COUNT"),
        ({"DISCORD_TOKEN": "t", "DISCORD_SHARD_IDS": "0,5", "DISCORD_SHARD_COUNT": "2"}, "0..1"),
        ({"DISCORD_TOKEN": "t", "DISCORD_DEV_GUILD_ID": "guild"}, "DISCORD_DEV_GUILD_ID must be an integer"),
    ],
)
def test_bad_settings_fail_fast(environ: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings(environ, None)


def test_missing_token_prints_one_line_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and ".env.example" in lines[0] and "`make console`" in lines[0]


async def test_rejected_token_exits_2_with_one_line_and_never_logs_the_token(tmp_path: Path) -> None:
    seen: list[str] = []

    async def users_me(request: web.Request) -> web.Response:
        seen.append(request.headers.get("Authorization", ""))
        return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)

    app = web.Application()
    app.router.add_get("/api/v10/users/@me", users_me)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    env = {
        "PATH": os.environ.get("PATH", ""),
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": f"http://127.0.0.1:{port}/api/v10",
        "DISCORD_GATEWAY_URL": f"ws://127.0.0.1:{port}/",
        "LOG_LEVEL": "DEBUG",
    }
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env={**env, "PYTHONPATH": str(ROOT)},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 20)
    finally:
        await runner.cleanup()
    assert process.returncode == 2
    assert seen == [f"Bot {TOKEN}"]  # the request reached our address, with the token
    output = (out + err).decode()
    assert TOKEN not in output and "secret-token-value" not in output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "rejected DISCORD_TOKEN" in errors[0]
    assert "Traceback" not in output


@pytest.mark.parametrize(
    "api_base", ["http://discord.invalid/api/v10", "http://127.0.0.1:9/api/v10"], ids=["dns-failure", "refused"]
)
async def test_an_unreachable_discord_is_one_line_per_try_with_backoff(tmp_path: Path, api_base: str) -> None:
    """No network, or a name that does not resolve: the real bot says so in one line per try, retries with growing
    waits, and stops cleanly on SIGTERM. It names its search kernels first (.env's TTT_ENGINE_PURE_PYTHON reaches
    the engine)."""
    pure = "invalid" in api_base
    if pure:
        (tmp_path / ".env").write_text("TTT_ENGINE_PURE_PYTHON=1\n")
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": api_base,
        "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'ttt.sqlite3'}",
        "TTT_CONNECT_RETRY_SECONDS": "0.2",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip
    assert process.stdout is not None
    tries: list[str] = []
    lines: list[str] = []
    while len(tries) < 3:
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        assert line, "".join(lines)
        lines.append(line)
        if "cannot reach Discord" in line:
            tries.append(line)
    process.terminate()
    rest, _ = await asyncio.wait_for(process.communicate(), 20)
    output = "".join(lines) + rest.decode()
    assert process.returncode == 0, output
    assert "Traceback" not in output and TOKEN not in output
    kernels = search_kernels() if not pure else dict.fromkeys(search_kernels(), "Python")
    named = ", ".join(f"{name} {kernel}" for name, kernel in kernels.items())
    kernels_line = next(line for line in output.splitlines() if "search kernels:" in line)
    assert kernels_line.endswith(f"search kernels: {named}"), kernels_line
    waits = [float(re.search(r"next try in ([\d.]+) s", line)[1]) for line in tries]  # type: ignore[index]
    assert waits == sorted(waits) and waits[-1] > waits[0], tries  # the waits grow
    assert all(api_base.split("/")[2] in line for line in tries), tries  # names where it looked
    reason = "resolve" if "invalid" in api_base else "refused"
    assert all(reason in line.lower() for line in tries), tries


async def test_a_start_without_network_says_what_matters_once_and_without_colour(tmp_path: Path) -> None:
    """`make run` with a token, no network and no Graphviz, its log going to a pipe: one line for the records'
    revision (Alembic's progress is DEBUG), none about voice, one WARNING that pictures need Graphviz, one line
    saying Ctrl-C stops the bot, and no colour codes outside a terminal."""
    env = {
        "PATH": path_without("dot"),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": TOKEN,
        "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
        "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'ttt.sqlite3'}",
        "TTT_CONNECT_RETRY_SECONDS": "0.2",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stderr is not None
    lines: list[str] = []
    while not any("cannot reach Discord" in line for line in lines):
        line = (await asyncio.wait_for(process.stderr.readline(), 30)).decode()
        assert line, "".join(lines)
        lines.append(line)
    process.terminate()
    out, rest = await asyncio.wait_for(process.communicate(), 20)
    log = "".join(lines) + rest.decode()
    assert process.returncode == 0 and out == b"", log
    assert "\x1b[" not in log  # a pipe: no colour codes
    assert "voice" not in log and "alembic" not in log and "Running upgrade" not in log, log
    (revision,) = [line for line in log.splitlines() if "revision" in line]
    assert "[INFO    ] bot.records.store: " in revision
    assert revision.endswith(f" at revision {head_revision()} (upgraded from an empty database)"), revision
    (graphviz,) = [line for line in log.splitlines() if "Graphviz" in line]
    assert "[WARNING ]" in graphviz and "apt-get install graphviz" in graphviz
    assert len([line for line in log.splitlines() if "Ctrl-C" in line]) == 1
    assert [line for line in log.splitlines() if "WARNING" in line and "cannot reach" not in line] == [graphviz]


def test_use_endpoints_points_discord_py_elsewhere() -> None:
    route_base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        use_endpoints("http://127.0.0.1:9/api/v10/", "ws://127.0.0.1:9/gw")
        assert discord.http.Route("GET", "/gateway/bot").url == "http://127.0.0.1:9/api/v10/gateway/bot"
        assert yarl.URL("ws://127.0.0.1:9/gw") == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = route_base, gateway


@pytest.mark.parametrize("dev_guild", [None, 42])
async def test_setup_hook_loads_the_cog_registers_buttons_and_syncs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, dev_guild: int | None
) -> None:
    settings = Settings(token=TOKEN, dev_guild_id=dev_guild, shard_ids=(1,), shard_count=2)
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    bot = TTTBot(
        settings,
        records=records,
        writer=RecordWriter(records),
        executor=ThreadPoolExecutor(1),
        slow_executor=ThreadPoolExecutor(1),
        hints=ThreadPoolExecutor(1),
    )
    synced: list[int | None] = []

    async def sync(*, guild: discord.abc.Snowflake | None = None) -> list[object]:
        synced.append(None if guild is None else guild.id)
        return []

    monkeypatch.setattr(bot.tree, "sync", sync)
    try:
        await bot.setup_hook()
        assert bot.get_cog("GameCommands") is bot.ttt  # the extension's setup() adds the cog and hands it the buttons
        assert "bot.cogs.ttt" in bot.extensions
        assert synced == [dev_guild]
        if dev_guild is not None:
            names = [c.name for c in bot.tree.get_commands(guild=discord.Object(dev_guild))]
            assert names == ["ttt"]
        group = bot.tree.get_command("ttt")
        assert sorted(c.name for c in group.commands) == [
            "board",
            "help",
            "hint",
            "leaderboard",
            "move",
            "puzzle",
            "rating",
            "resign",
            "review",
            "start",
            "stats",
        ]
        records_cog = bot.get_cog("RecordCommands")  # a cog of its own, whose commands join /ttt
        assert "bot.cogs.records" in bot.extensions and records_cog is not None
        assert [c.name for c in group.commands][-6:] == ["stats", "leaderboard", "rating", "review", "puzzle", "help"]
        assert group.get_command("puzzle").binding is bot.get_cog("PuzzleCommands")  # bot.cogs.puzzles joins /ttt
        mine = ("stats", "leaderboard", "rating", "review")
        assert all(group.get_command(name).binding is records_cog for name in mine)
        assert group.get_command("start").binding is bot.ttt
        await bot.unload_extension("bot.cogs.records")
        assert [c.name for c in group.commands] == ["start", "move", "hint", "resign", "board", "puzzle", "help"]
        start = group.get_command("start")
        options = {p.name: p for p in start.parameters}
        assert all(p.description and p.description != "…" for p in options.values())
        assert [c.value for c in options["level"].choices] == list(range(1, 9))
        assert [c.name for c in options["level"].choices] == [f"Level {n} · {rating_of('3x3', n)}" for n in range(1, 9)]
        assert [c.value for c in options["algorithm"].choices] == ["alpha-beta", "minimax"]
        # the command's Literal choices name engine's one definition of each (a Literal keeps the choices' names)
        assert sorted(c.value for c in options["algorithm"].choices) == sorted(get_args(Algorithm))
        # every button of a board that carries its game, challenge answers, every button of a board by reference, and
        # the puzzles' (bot.cogs.puzzles) and the "How did it think?" stepper's (bot.cogs.stepper)
        assert len(bot._connection._view_store._dynamic_items) == 5
        assert [c.value for c in options["variant"].choices] == list(VARIANTS)  # every registered game, in order
        assert bot.intents == discord.Intents(guilds=True)  # interactions need no message events
        assert bot.allowed_mentions.to_dict() == discord.AllowedMentions.none().to_dict()
        assert bot.shard_ids == [1] and bot.shard_count == 2
    finally:  # never logged in, so only the HTTP session and the executors need closing
        await bot.http.close()
        await bot.ai.shutdown()
        await records.close()


async def test_every_process_pool_of_the_bot_is_replaced_when_it_breaks(tmp_path: Path) -> None:
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    bot = TTTBot(Settings(token=TOKEN), records=records, writer=RecordWriter(records))
    try:
        pools = (bot.ai.slow_executor, bot.ai.hint_executor, bot.ai.pool.executor, bot.responder.drawer.executor)
        assert all(isinstance(pool, RenewingExecutor) for pool in pools)
        assert len({id(pool) for pool in pools}) == 4
    finally:
        await bot.ai.shutdown()
        bot.responder.drawer.shutdown()
        await records.close()


def test_unreachable_database_prints_one_line_without_the_password_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "postgresql://ttt:hunter2-secret@127.0.0.1:1/ttt")
    assert main([]) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot open the game records database"), lines
    assert "hunter2-secret" not in captured.err + captured.out and "***" in lines[0]


def _console(script: str, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    status = console.play(stdin=io.StringIO(script), stdout=out, rng=random.Random(1), locale="en-US", **options)  # type: ignore[arg-type]
    return status, out.getvalue()


def test_console_plays_a_full_game_and_reprompts_on_bad_input() -> None:
    status, text = _console("hello\n0\n5\n5\nh\n1\n2\n3\n4\n6\n7\n8\n9\n")
    assert status == 0
    assert "'hello' is not a cell" in text and "'0' is not a cell" in text
    assert "That cell is taken" in text
    assert "Hint for ❌ X (best play from both sides)" in text and "**" not in text and "```" not in text
    assert "O played" in text and "alpha-beta evaluated" in text
    assert "The bot wins. The bot evaluated 125 states over 4 moves." in text  # seeded: the same game every run
    assert "/ttt move" not in text and "Review the game move by move? [y/N]" in text


def test_console_offers_the_review_at_the_end() -> None:
    status, text = _console("2\n1\n9\ny\n", play_as="X")
    assert status == 0
    review = text[text.index("Review of game") :].splitlines()
    assert review[1].startswith("1. X 2 · ") and review[-1].startswith("X: ")
    assert any("blunder" in line or "mistake" in line for line in review[1:-1]), review


def test_console_as_o_with_minimax_opens_with_the_full_tree() -> None:
    status, text = _console("q\n", play_as="O", algorithm="minimax", level=8)
    assert status == 0 and "X played" in text and "minimax evaluated 549,945 states" in text and "Bye." in text


def test_console_exits_cleanly_on_end_of_input_and_ctrl_c() -> None:
    status, text = _console("")
    assert status == 0 and "Input ended" in text

    class Interrupting(io.StringIO):
        def readline(self, *args: object) -> str:
            raise KeyboardInterrupt

    out = io.StringIO()
    assert console.play(stdin=Interrupting(), stdout=out) == 130
    assert "Interrupted" in out.getvalue()


@pytest.mark.parametrize(("variant", "last"), [("4x4", "d4"), ("5x5", "e5"), ("ultimate", "i9")])
def test_console_plays_every_variant_with_coordinates(variant: str, last: str) -> None:
    cells = [f"{c}{r}" for r in range(1, 10) for c in "abcdefghi"]
    script = "5\nz9\nh\n" + "\n".join(cells) + "\n"  # every coordinate in turn; taken or off-board ones are refused
    status, text = _console(script, variant=variant, level=2)
    assert status == 0
    assert f"a coordinate a1-{last}" in text
    assert "'5' is not a cell" in text  # numbers are 3x3's
    algorithm = "MCTS" if variant == "ultimate" else "alpha-beta"
    assert re.search(rf"O played [a-i][1-9] · {algorithm} evaluated [\d,]+ states?", text)
    assert re.search(r"You win!|The bot wins|It's a draw|Input ended", text)
