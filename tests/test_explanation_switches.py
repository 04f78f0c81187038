"""The explanation of a move is the game's (issue 46): the modules that record, draw, tell and step it, the ``tree``
command and the bot's "How did it think?" path name no game and isinstance-check no engine class; each game answers
through :meth:`engine.Variant.explain` and the :class:`engine.tree.explain.Explanation` it returns.

A game's name is a registered one (:data:`engine.VARIANTS`) in any string of the code (docstrings and comments,
a constant's docstring below it included, may name games as examples); an isinstance switch is an ``isinstance``
whose class is imported from ``engine`` or, in an engine module, defined in the module itself.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
ENGINE_FILES = (*sorted((ROOT / "engine" / "tree").glob("*.py")), ROOT / "engine" / "cli" / "tree.py")
BOT_FILES = tuple(
    ROOT / path
    for path in (
        "bot/games/thinking.py",
        "bot/text/thinking.py",
        "bot/text/thinking_words.py",
        "bot/ui/present.py",
        "bot/ui/stepper.py",
        "bot/cogs/stepper.py",
    )
)
FILES = (*ENGINE_FILES, *BOT_FILES)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the string constants that are docstrings: a string standing alone as a statement (of a module, a
    class, a function, or an attribute's below its assignment)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }


def game_names(source: str, names: tuple[str, ...]) -> list[str]:
    """``"line: name"`` for each registered game's name in a string of ``source``'s code (docstrings aside)."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    patterns = {name: re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])") for name in names}
    return [
        f"{node.lineno}: {name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        for name, pattern in patterns.items()
        if pattern.search(node.value)
    ]


def engine_isinstance(source: str, *, own_classes: bool) -> list[str]:
    """``"line: isinstance(...)"`` for each isinstance on a class imported from ``engine`` (or, ``own_classes``,
    defined in ``source`` itself)."""
    tree = ast.parse(source)
    engine_names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "engine"
        for alias in node.names
    }
    if own_classes:
        engine_names |= {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance":
            named = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} if len(node.args) > 1 else set()
            if named & engine_names:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_game_is_named(path: Path) -> None:
    assert game_names(path.read_text(encoding="utf-8"), tuple(VARIANTS)) == []


@pytest.mark.parametrize("path", FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_isinstance_switch_on_an_engine_class(path: Path) -> None:
    own = path in ENGINE_FILES
    assert engine_isinstance(path.read_text(encoding="utf-8"), own_classes=own) == []


def test_the_checks_find_what_the_switchboard_had() -> None:
    """What engine/tree/explain.py, engine/tree/summary.py and bot/text/thinking_words.py held before each game
    explained its own moves: both checks fail on it."""
    switchboard = '''
"""A docstring may say 3x3."""
from engine.tree.mcts import MctsTree
EXPLAINED = ("3x3", "4x4", "5x5", "ultimate")
def explain(name, brief):
    if name == "ultimate":
        return isinstance(brief, MctsTree)
    raise ValueError(f"only {name!r}, not connect-four")
class Local: ...
def local(x):
    return isinstance(x, Local)
'''
    names = game_names(switchboard, ("3x3", "4x4", "ultimate", "connect-four"))
    assert names == ["4: 3x3", "4: 4x4", "4: ultimate", "6: ultimate", "8: connect-four"]
    assert engine_isinstance(switchboard, own_classes=False) == ["7: isinstance(brief, MctsTree)"]
    assert "11: isinstance(x, Local)" in engine_isinstance(switchboard, own_classes=True)
