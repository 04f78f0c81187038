"""engine/'s layout: imports go one way, down the layers, and no game imports another."""

from __future__ import annotations

import ast
from pathlib import Path

import engine

ROOT = Path(engine.__file__).resolve().parent

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer)
    for layer in (
        {"errors"},
        {"protocol", "coordinates"},
        {"estimate", "tictactoe", "mnk", "ultimate"},
        {"minimax"},
        {"players", "analysis", "review"},
        {"hints"},
        {"variants"},
        {"levels"},
        {"puzzles"},
        {"cli"},
        {"__init__"},
        {"__main__"},
    )
)
"""Low to high. A module imports its own folder or a layer below; the groups of one layer do not import each other."""


def _group(module: str) -> str:
    """``engine.mnk.play`` -> ``mnk``; ``engine.players`` -> ``players``; ``engine`` -> ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _rank(group: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if group in layer)


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("engine", *path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in found if name.startswith("engine.")}


def test_every_folder_and_root_module_has_a_layer() -> None:
    groups = {_group(module) for module in _modules()}
    assert groups == set().union(*LAYERS)


def test_imports_go_down_the_layers_and_no_game_imports_another() -> None:
    modules = _modules()
    upward = []
    for module, path in modules.items():
        mine = _group(module)
        for target in _imports(path) & modules.keys():
            theirs = _group(target)
            if theirs != mine and _rank(theirs) >= _rank(mine):
                upward.append(f"{module} imports {target}")
    assert upward == []


def test_at_most_15_modules_at_the_root() -> None:
    assert len(list(ROOT.glob("*.py"))) <= 15
