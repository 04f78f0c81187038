"""engine/'s layout: imports go one way, down the layers, and no game imports another."""

from __future__ import annotations

from pathlib import Path

import engine
from tests.layout import cycles, graph_of, modules, upward

ROOT = Path(engine.__file__).resolve().parent

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer)
    for layer in (
        {"errors", "native"},
        {"protocol", "coordinates"},
        {"estimate", "tictactoe", "mnk", "ultimate", "connect_four", "gomoku"},
        {"minimax"},
        {"analysis", "review", "tree"},
        {"hints"},
        {"variants"},
        {"registry"},
        {"levels", "kernels"},
        {"games"},
        {"puzzles"},
        {"cli"},
        {"__init__"},
        {"__main__"},
    )
)
"""Low to high. A module imports its own folder or a layer below; the groups of one layer do not import each other."""


def _group(module: str) -> str:
    """``engine.mnk.play`` -> ``mnk``; ``engine.levels`` -> ``levels``; ``engine`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_folder_and_root_module_has_a_layer() -> None:
    assert {_group(module) for module in modules(ROOT, "engine")} == set().union(*LAYERS)


def test_imports_go_down_the_layers_and_no_game_imports_another() -> None:
    assert upward(graph_of(modules(ROOT, "engine")), _group, LAYERS) == []


def test_no_import_cycle() -> None:
    assert cycles(graph_of(modules(ROOT, "engine"))) == []


def test_at_most_15_modules_at_the_root() -> None:
    assert len(list(ROOT.glob("*.py"))) <= 15
