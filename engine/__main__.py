"""``python -m engine``: the engine's command line (:mod:`engine.cli`): ``analyse``, ``review``, ``serve``,
``bestmove``, ``levels``, ``puzzles`` and ``tree``; ``python -m engine --help`` lists them."""

from __future__ import annotations

import os
import sys

from engine.cli.commands import EXIT_INTERRUPTED, EXIT_OK, main

if __name__ == "__main__":
    try:
        code = main()
        sys.stdout.flush()  # here, not at exit: a reader that has gone is then caught below
    except KeyboardInterrupt:  # e.g. during a long plain-minimax analysis
        sys.stderr.write("\nInterrupted.\n")
        sys.exit(EXIT_INTERRUPTED)
    except BrokenPipeError:  # the reader stopped early (`... | head`): what it wanted was written
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing left to flush at exit
        code = EXIT_OK
    sys.exit(code)
