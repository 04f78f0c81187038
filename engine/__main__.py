"""``python -m engine``: analyse a position or review a game (see :mod:`engine.cli`)."""

from __future__ import annotations

import sys

from engine.cli.commands import EXIT_INTERRUPTED, main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # e.g. during a long plain-minimax analysis
        sys.stderr.write("\nInterrupted.\n")
        sys.exit(EXIT_INTERRUPTED)
