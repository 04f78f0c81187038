"""The engine's optional C extensions. Each game's search kernel in C has a pure-Python twin, tested to agree; the
twin runs when the extension is not built (``pip install -e .`` builds it) or when the environment variable
``TTT_ENGINE_PURE_PYTHON`` is set to any non-empty value."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

__all__ = ["PURE_PYTHON", "native_module"]

PURE_PYTHON = "TTT_ENGINE_PURE_PYTHON"
"""The environment variable that turns every C extension off."""


def native_module(name: str) -> ModuleType | None:
    """The C extension module ``name`` (e.g. ``"engine.mnk._mnk_c"``), or ``None`` when it is not built or
    :data:`PURE_PYTHON` is set."""
    if os.environ.get(PURE_PYTHON):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
