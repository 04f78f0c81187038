"""``python -m testing.fake_discord``: run the fake standalone, printing the environment that points a bot at it."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging

from testing.fake_discord import __doc__ as package_doc
from testing.fake_discord.fake import FakeDiscord
from testing.fake_discord.protocol import IDENTIFY_WINDOW_SECONDS


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        token=args.token,
        port=args.port,
        channels=args.channels,
        ack_deadline=args.ack_deadline,
        latency=(args.latency[0], args.latency[1]),
        spec=False if args.no_spec else None,
        max_concurrency=args.max_concurrency,
        identify_window=args.identify_window,
    )
    async with fake:
        for key, value in fake.env().items():
            print(f"{key}={value}", flush=True)
        print(f"# guild {fake.default_guild_id}, channels: {' '.join(fake.channels()[:5])} ...", flush=True)
        await asyncio.Event().wait()


def main() -> None:
    """Run the fake standalone until interrupted, printing the env vars that point a bot at it."""
    parser = argparse.ArgumentParser(prog="python -m testing.fake_discord", description=package_doc)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--channels", type=int, default=3)
    parser.add_argument("--token", default=None, help="require this bot token (default: accept any)")
    parser.add_argument("--ack-deadline", type=float, default=3.0)
    parser.add_argument(
        "--latency", type=float, nargs=2, default=(0.05, 0.15), metavar=("LOW", "HIGH"), help="REST round trip (s)"
    )
    parser.add_argument("--max-concurrency", type=int, default=1, help="IDENTIFYs per window (GET /gateway/bot)")
    parser.add_argument(
        "--identify-window", type=float, default=IDENTIFY_WINDOW_SECONDS, help="seconds between IDENTIFYs per bucket"
    )
    parser.add_argument("--no-spec", action="store_true", help="don't validate bodies against Discord's OpenAPI spec")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
