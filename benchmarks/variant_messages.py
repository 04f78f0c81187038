"""Benchmark: how big each variant's board message is, and what ultimate's picture costs.

Run from the repository root: ``python -m benchmarks.variant_messages [--repeat N]``. For every registered variant it
builds the board message the bot sends (through :func:`bot.ui.present.present`, as the responder does) at the start
of a game and after a few moves, and prints: the kind of message (classic or Components V2), its components (every
nested one counted, as Discord counts them against the 40 of Components V2), the JSON bytes of its
``components`` and ``content``, the longest ``custom_id``, and the attachment's bytes. For ultimate it also times
:func:`bot.images.ultimate.draw_ultimate` (median and worst of N renders, process time, ms) on a mid-game position.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from bot.games.answers import Shown
from bot.games.match import Match, initial_for
from bot.i18n.lang import lang
from bot.images.ultimate import draw_ultimate
from bot.ui.pictures import Picture
from bot.ui.present import present
from bot.ui.views import ultimate_picture
from engine.registry import VARIANTS


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, nested ones included (rows' children), depth first."""
    found = []
    for component in components:
        found.append(component)
        found += walk(component.get("components") or [])
    return found


def played(variant: str, plies: int, rng: random.Random) -> Match:
    """A game of ``variant`` between two 18-digit users after ``plies`` random legal moves (the longest ids)."""
    game = Match("bykmcr8eslw0", 1, 123456789012345678, 876543210987654321, variant=variant, state=initial_for(variant))
    for _ in range(plies):
        if game.over:
            break
        game = game.play(rng.choice(game.rules.actions(game.state)))
    return game.at(1234567890123456789)


def measure(game: Match) -> dict[str, Any]:
    """The board message of ``game`` as the bot sends it: kind, components, bytes, longest id, attachment bytes."""
    reply = present(Shown(game), lang(None), challenge_seconds=60.0)
    components = reply.view.to_components() if reply.view is not None else []
    ids = [c["custom_id"] for c in walk(components) if "custom_id" in c]
    files = [len(draw_ultimate(f.shows)) if isinstance(f, Picture) else len(f.fp.read()) for f in reply.files]
    v2 = reply.view is not None and reply.view.has_components_v2()
    return {
        "kind": "Components V2" if v2 else "classic",
        "components": len(walk(components)),
        "json_bytes": len(json.dumps({"content": reply.content, "components": components}, separators=(",", ":"))),
        "longest_id": max(map(len, ids), default=0),
        "attachment_bytes": sum(files),
    }


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200, help="renders of the ultimate picture to time")
    args = parser.parse_args()
    rng = random.Random(18)
    print("| variant | position | message | components | JSON bytes | longest custom_id | attachment bytes |")
    print("|---|---|---|---:|---:|---:|---:|")
    for variant in VARIANTS:
        if variant == "3x3":
            continue
        for plies in (0, 8):
            figures = measure(played(variant, plies, rng))
            print(
                f"| {variant} | {plies} moves | {figures['kind']} | {figures['components']} | "
                f"{figures['json_bytes']:,} | {figures['longest_id']} | {figures['attachment_bytes']:,} |"
            )
    if "ultimate" in VARIANTS:
        picture = ultimate_picture(played("ultimate", 30, rng))
        times, size = [], 0
        for _ in range(args.repeat):
            started = time.process_time()
            size = len(draw_ultimate(picture))
            times.append((time.process_time() - started) * 1000.0)
        print(
            f"\nultimate picture (30 moves): {size:,} bytes; render median {statistics.median(times):.1f} ms, "
            f"worst {max(times):.1f} ms over {args.repeat} renders (process time)"
        )


if __name__ == "__main__":
    main()
