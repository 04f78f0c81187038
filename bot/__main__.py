"""``python -m bot`` runs the Discord bot; ``python -m bot --console`` plays offline in the terminal.

Exit status: 0 on a normal stop (SIGTERM and SIGINT included), 2 for a configuration problem (a missing,
rejected or revoked token, a bad setting, a records database that cannot be reached), 130 when a console
game is interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import get_args

from bot.config import ConfigError, export_engine_settings, load_settings

export_engine_settings()  # before the engine loads its kernels: TTT_ENGINE_PURE_PYTHON may be set in .env

import discord  # noqa: E402

from bot import console  # noqa: E402
from bot.client import run_bot  # noqa: E402
from bot.games.extra import load_games  # noqa: E402
from bot.ops.logs import setup_logging  # noqa: E402
from bot.records import RecordsUnavailableError  # noqa: E402
from bot.vocabulary import DEFAULT_LEVEL, LEVELS  # noqa: E402
from engine import DEFAULT_VARIANT, VARIANTS, Algorithm  # noqa: E402

REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN (401 Unauthorized): copy the bot token again from the Developer Portal "
    "into .env (see .env.example), or run `make console` to play offline."
)


REVOKED_TOKEN = (
    "Discord closed the connection: authentication failed (gateway close 4004). The token was probably reset; "
    "copy the new one into .env (see .env.example), or run `make console` to play offline."
)
AUTHENTICATION_FAILED = 4004


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m bot", description="The tic-tac-toe Discord bot.")
    parser.add_argument("--console", action="store_true", help="play one game in the terminal instead (no token)")
    parser.add_argument("--as", dest="play_as", choices=("X", "O", "random"), default="X", help="console: your mark")
    parser.add_argument(
        "--level", type=int, choices=LEVELS, default=DEFAULT_LEVEL, help="console: the bot's level, 1-8 (8: strongest)"
    )
    parser.add_argument("--algorithm", choices=sorted(get_args(Algorithm)), default="alpha-beta")
    parser.add_argument("--variant", choices=tuple(VARIANTS), default=DEFAULT_VARIANT, help="console: the game to play")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the bot or the console game; returns the exit status."""
    load_games()  # outside games first: they are among the choices of --variant and of /ttt start
    args = parse_args(argv)
    if args.console:
        status = console.play(play_as=args.play_as, level=args.level, algorithm=args.algorithm, variant=args.variant)
        if status == console.INTERRUPTED:  # Ctrl-C: leave now; a console game keeps nothing, and the search
            sys.stdout.flush()  # workers (killed with their parent) need not be waited for
            os._exit(status)
        return status
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, settings.log_format, secrets=(settings.token,))
    try:
        asyncio.run(run_bot(settings))
    except (RecordsUnavailableError, ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(f"error: {REJECTED_TOKEN}", file=sys.stderr)
        return 2
    except discord.ConnectionClosed as closed:
        if closed.code == AUTHENTICATION_FAILED:
            print(f"error: {REVOKED_TOKEN}", file=sys.stderr)
            return 2
        raise
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
