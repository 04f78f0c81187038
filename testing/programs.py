"""A ``PATH`` without one program, for running the bot as on a machine where it is not installed (Graphviz's ``dot``
for "How did it think?")."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["path_without"]


def path_without(program: str, path: str | None = None) -> str:
    """``path`` (default: this process's ``PATH``) without the folders that hold an executable ``program``."""
    folders = (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep)
    kept = [f for f in folders if f and not os.access(Path(f) / program, os.X_OK)]
    return os.pathsep.join(kept)
