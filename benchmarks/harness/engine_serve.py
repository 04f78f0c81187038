"""``python -m engine serve`` as a subprocess the benchmarks ask for moves, as other programs do.

The engine runs from a checkout (this one, or another with ``root``: its ``.venv`` when it has one), one JSON
request per line in, one JSON answer per line out (``engine/cli/serve.py``). Each answer comes with its round trip
in ms, measured here: the engine's own ``elapsed_ms`` plus the pipe, the JSON and the replay of the moves.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["ROOT", "EngineServe"]

ROOT = Path(__file__).resolve().parents[2]
"""This checkout."""


class EngineServe:
    """One ``engine serve`` process; a context manager that closes its standard input and waits for it.

    Args:
        root: the checkout to run the engine from (default: this one).
    """

    def __init__(self, root: Path = ROOT) -> None:
        venv = root / ".venv" / "bin" / "python"
        python = str(venv) if venv.exists() else sys.executable
        env = {**os.environ, "PYTHONPATH": str(root)}
        self._process = subprocess.Popen(
            [python, "-m", "engine", "serve"],
            cwd=root,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, request: dict[str, Any]) -> tuple[dict[str, Any], float]:
        """The answer to ``request`` and its round trip in ms.

        Raises:
            RuntimeError: the engine closed its output (it died) or answered an error.
        """
        assert self._process.stdin is not None and self._process.stdout is not None
        started = time.perf_counter()
        self._process.stdin.write(json.dumps(request) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        round_trip_ms = (time.perf_counter() - started) * 1000.0
        if not line:
            raise RuntimeError(f"engine serve exited with {self._process.wait()} before answering {request}")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"engine serve refused {request}: {answer}")
        return answer, round_trip_ms

    def close(self) -> None:
        """Close the engine's input and wait for it to exit."""
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=30)

    def __enter__(self) -> EngineServe:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
