"""bot/'s layout: imports go one way, down the layers, with no cycle; the root stays small."""

from __future__ import annotations

import re
from pathlib import Path

import bot
from tests.layout import cycles, graph_of, modules, upward

ROOT = Path(bot.__file__).resolve().parent

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer)
    for layer in (
        {"ops", "i18n", "config"},
        {"vocabulary"},
        {"records"},
        {"games", "puzzles"},
        {"text", "images"},
        {"ui"},
        {"app"},
        {"client"},
        {"cogs", "console"},
        {"__main__"},
        {"__init__"},
    )
)
"""Low to high: utilities (import no layer); the game's words; records; the game service and, beside it, the puzzle
service (neither imports the other); text; the Discord presentation; the process around discord.py; the client; its
extensions and the console; the entry point."""


def _group(module: str) -> str:
    """``bot.games.sessions`` -> ``games``; ``bot.config`` -> ``config``; ``bot`` -> ``__init__``."""
    parts = module.split(".")[1:]
    return parts[0] if parts else "__init__"


def test_every_folder_and_root_module_has_a_layer() -> None:
    assert {_group(module) for module in modules(ROOT, "bot")} == set().union(*LAYERS)


def test_imports_go_down_the_layers() -> None:
    assert upward(graph_of(modules(ROOT, "bot")), _group, LAYERS) == []


def test_no_import_cycle() -> None:
    assert cycles(graph_of(modules(ROOT, "bot"))) == []


def test_at_most_6_modules_at_the_root() -> None:
    assert len(list(ROOT.glob("*.py"))) <= 6


def test_the_graph_counts_type_checking_imports_package_inits_and_import_module(tmp_path: Path) -> None:
    """A circle hidden under ``TYPE_CHECKING``, behind a package's re-exports or a lazy ``import_module`` fails."""
    package = tmp_path / "pkg"
    (package / "low").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "low" / "__init__.py").write_text("import importlib\nimportlib.import_module('pkg.high')\n")
    (package / "low" / "words.py").write_text("")
    (package / "high.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.mid\n")
    (package / "mid.py").write_text("from pkg.low import words\n")
    graph = graph_of(modules(package, "pkg"))
    assert graph["pkg.high"] == {"pkg.mid"}
    assert graph["pkg.mid"] == {"pkg.low", "pkg.low.words"}  # importing pkg.low.words runs pkg/low/__init__.py
    assert graph["pkg.low.words"] == set()  # its own package's __init__ has run already
    assert cycles(graph) == [["pkg.high", "pkg.low", "pkg.mid"]]


def test_the_intents_know_nothing_of_resuming() -> None:
    """Restarts are resolved at the edge (``bot.games.resuming``), before an intent runs: the parts that play, open
    and commit games import none of it, directly or not."""
    graph = graph_of(modules(ROOT, "bot"))

    def reached(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for target in graph[todo.pop()] - seen:
                seen.add(target)
                todo.append(target)
        return seen

    for intent in ("bot.games.play", "bot.games.openings", "bot.games.sessions", "bot.games.bot_moves"):
        assert not {m for m in reached(intent) if m.startswith("bot.games.resuming")}, intent


def test_no_module_names_a_game_that_came_through_the_game_interface() -> None:
    """Connect Four arrived by registering a game (issue 37): the bot asks it, and no Python file under bot/ names it,
    not even in a comment or a docstring."""
    named = re.compile(r"connect[-_ ]?(four|4)", re.IGNORECASE)
    assert [path.relative_to(ROOT) for path in sorted(ROOT.rglob("*.py")) if named.search(path.read_text())] == []
