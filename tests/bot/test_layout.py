"""bot/'s layout: imports go one way, down the layers, with no cycle; the root stays small."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import bot
import engine
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


ENGINE_FACES = frozenset({"engine", "engine.puzzles", "engine.tree"})
"""The engine modules the bot may import (issue 46): the engine's face and its two sub-faces, the puzzle tools and
the search as a tree, each re-exporting what the bot uses."""


def _engine_imports(path: Path, engine_modules: set[str]) -> set[str]:
    """The engine modules the module at ``path`` imports, under ``if TYPE_CHECKING:``, in a function or through
    ``importlib.import_module("...")`` alike. ``from face import name`` is the face's when ``name`` is in the face's
    ``__all__`` (a re-export, even one named as its module), else the module ``face.name`` when there is one."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "engine"}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in engine_modules:
            exported = set(getattr(importlib.import_module(node.module), "__all__", ()))
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names if a.name not in exported} & engine_modules
        elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and str(first.value).split(".")[0] == "engine":
                found.add(str(first.value))
    return found


def _past_the_faces(root: Path, package: str) -> dict[str, set[str]]:
    """Per module of ``package`` (folder ``root``), the engine modules it imports other than :data:`ENGINE_FACES`."""
    engine_modules = set(modules(Path(engine.__file__).resolve().parent, "engine"))
    found = {
        name: _engine_imports(path, engine_modules) - ENGINE_FACES for name, path in modules(root, package).items()
    }
    return {name: past for name, past in found.items() if past}


def test_the_bot_imports_the_engine_through_its_faces_only() -> None:
    assert _past_the_faces(ROOT, "bot") == {}


def test_an_import_past_the_faces_is_found_even_under_type_checking_or_lazy(tmp_path: Path) -> None:
    """A module of the engine named past its faces fails, however it is imported; the faces' re-exports pass."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from engine import Variant, games\nfrom engine.puzzles import attempts\n")
    (package / "typed.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import engine.review\n")
    (package / "lazy.py").write_text(
        "import importlib\n\ndef f():\n    return importlib.import_module('engine.hints')\n"
    )
    (package / "whole.py").write_text("from engine.registry import variant\nfrom engine.puzzles import mining, load\n")
    assert _past_the_faces(package, "pkg") == {
        "pkg.typed": {"engine.review"},
        "pkg.lazy": {"engine.hints"},
        "pkg.whole": {"engine.registry", "engine.puzzles.mining"},
    }
