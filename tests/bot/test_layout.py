"""bot/'s layout: imports go one way, down the layers, with no cycle; the root stays small."""

from __future__ import annotations

from pathlib import Path

import bot
from tests.layout import cycles, graph_of, modules, upward

ROOT = Path(bot.__file__).resolve().parent

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer)
    for layer in (
        {"ops", "i18n", "config", "puzzles"},
        {"games.vocabulary", "puzzles.play"},
        {"records"},
        {"games"},
        {"text", "images"},
        {"ui"},
        {"puzzles.view"},
        {"app"},
        {"client"},
        {"cogs", "console", "puzzles.mine"},
        {"__main__"},
        {"__init__"},
    )
)
"""Low to high: utilities (import no layer; ``puzzles`` is its package's docstring); the game's words; records;
the game service; text; the Discord presentation, and the puzzles' on it; the process around discord.py; the
client; its extensions and the console; the entry point."""

_ON_THEIR_OWN = frozenset({"games.vocabulary", "puzzles.play", "puzzles.view", "puzzles.mine"})


def _group(module: str) -> str:
    """``bot.games.sessions`` -> ``games``; ``bot.games.vocabulary`` -> ``games.vocabulary``;
    ``bot`` -> ``__init__``."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__"
    return ".".join(parts[:2]) if ".".join(parts[:2]) in _ON_THEIR_OWN else parts[0]


def test_every_folder_and_root_module_has_a_layer() -> None:
    assert {_group(module) for module in modules(ROOT, "bot")} == set().union(*LAYERS)


def test_imports_go_down_the_layers() -> None:
    graph = graph_of(modules(ROOT, "bot"))
    graph.pop("bot.games", None)  # the package's lazy re-exports (PEP 562) import nothing when it loads
    assert upward(graph, _group, LAYERS) == []


def test_no_import_cycle() -> None:
    assert cycles(graph_of(modules(ROOT, "bot"))) == []


def test_at_most_6_modules_at_the_root() -> None:
    assert len(list(ROOT.glob("*.py"))) <= 6
