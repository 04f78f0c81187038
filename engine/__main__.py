"""``python -m engine``: play against the AI or analyse a position (see :mod:`engine.cli`)."""

from __future__ import annotations

import sys

from engine.cli import EXIT_INTERRUPTED, main

if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C outside the game loop (which handles its own)
        sys.stderr.write("\nInterrupted.\n")
        sys.exit(EXIT_INTERRUPTED)
