"""engine/'s layout: imports go one way, down the layers, and no game imports another."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

import pytest

import bot
import engine
from engine.games import BUILT_IN
from engine.registry import VARIANTS
from tests.layout import cycles, graph_of, modules, upward

ROOT = Path(engine.__file__).resolve().parent

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer)
    for layer in (
        {"errors", "native"},
        {"protocol", "coordinates"},
        {"tictactoe"},
        {"estimate", "mnk", "ultimate", "connect_four", "gomoku"},
        {"minimax"},
        {"analysis", "review", "tree"},
        {"hints"},
        {"questions"},
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


GAME_PACKAGES = ("tictactoe", "mnk", "ultimate", "connect_four", "games")
"""Where a game may name itself and test its own classes: each game's package, and engine/games/ (the registration
list and the games' :class:`~engine.Variant` subclasses)."""
NO_SWITCH: tuple[str, ...] = ("levels.py", "kernels.py", "games/calibrated.py")
"""Modules of engine/ (paths under it) that ask the registered games instead of switching on one: no literal game name
and no ``isinstance`` on a game's class. Each module cleaned of its switches joins the list."""


def _game_classes() -> frozenset[str]:
    """The names of the classes defined in the games' packages (rules, states, variants)."""
    return frozenset(
        node.name
        for package in GAME_PACKAGES
        for path in (ROOT / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
    )


def _switches(source: str, names: Iterable[str], classes: frozenset[str]) -> list[str]:
    """What in ``source`` switches on a game: a quoted game name out of ``names``, an ``isinstance`` or
    ``issubclass`` naming one of ``classes``."""
    found = [f"the name {name!r}" for name in names if re.search(rf"[\"']{re.escape(name)}[\"']", source)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2:
            if node.func.id not in ("isinstance", "issubclass"):
                continue
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            named = {kind.id if isinstance(kind, ast.Name) else getattr(kind, "attr", "") for kind in kinds}
            found += [f"{node.func.id}(..., {name}) on line {node.lineno}" for name in sorted(named & classes)]
    return found


def test_the_switch_finder_finds_a_game_s_name_and_class() -> None:
    source = 'if isinstance(state, (int, UltimateState)) or name == "4x4":\n    pass\n'
    assert _switches(source, ["4x4", "5x5"], frozenset({"UltimateState"})) == [
        "the name '4x4'",
        "isinstance(..., UltimateState) on line 1",
    ]


@pytest.mark.parametrize("path", NO_SWITCH)
def test_a_cleaned_module_asks_the_games_instead_of_switching_on_one(path: str) -> None:
    names = [game.name for game in BUILT_IN]
    assert _switches((ROOT / path).read_text(encoding="utf-8"), names, _game_classes()) == []


def _shared_puzzle_files() -> list[Path]:
    bot_root = Path(bot.__file__).resolve().parent
    return sorted([*(ROOT / "puzzles").glob("*.py"), *(bot_root / "puzzles").glob("*.py")])


def _game_words(text: str) -> list[str]:
    """What in ``text`` names a built-in game (its registered name, or its package) or checks a class."""
    names = "|".join(re.escape(name) for name in VARIANTS)
    patterns = (
        re.compile(rf"(?<![\w-])({names}|connect[-_ ]?(four|4))(?![\w-])", re.IGNORECASE),
        re.compile(r"engine\.(mnk|ultimate|connect_four|tictactoe)\b"),
        re.compile(r"\bisinstance\("),
    )
    return [match.group(0) for pattern in patterns for match in pattern.finditer(text)]


def test_the_shared_puzzle_tools_name_no_game_and_ask_no_game_its_class() -> None:
    """engine/puzzles/ and bot/puzzles/ ask the game's puzzle kit (issue 46): no file names a built-in game, not even
    in a comment, nor checks an object's class."""
    found = [(path.name, _game_words(path.read_text(encoding="utf-8"))) for path in _shared_puzzle_files()]
    assert len(found) > 12 and [(name, words) for name, words in found if words] == []


def test_the_puzzle_check_finds_names_packages_and_class_checks() -> None:
    text = "a 5x5 board; Connect Four; from engine.ultimate.rules import X\nif isinstance(rules, Y): ultimately"
    assert _game_words(text) == ["5x5", "Connect Four", "ultimate", "engine.ultimate", "isinstance("]
