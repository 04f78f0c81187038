"""A package's import graph read from its source, for the layout tests of engine/ and bot/.

Every import counts, one under ``if TYPE_CHECKING:`` included (a layer the type checker needs is a layer the module
depends on), and so does ``importlib.import_module`` of a literal name. ``from package import name`` counts as an
import of the module ``package.name`` when there is one, else of ``package`` itself. Importing a module also runs
the ``__init__`` of each package around it, so it counts as importing those packages too (their re-exports
included), unless the importer is inside that package (its ``__init__`` has run already).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (its folder ``root``) by dotted name; a package by its own name, not ``__init__``."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = (package, *path.relative_to(root).with_suffix("").parts)
        if "migrations" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _named(node: ast.AST, known: set[str]) -> set[str]:
    """The modules of ``known`` that one import statement or ``importlib.import_module("...")`` call names."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in known:
        named = {f"{node.module}.{alias.name}" for alias in node.names} & known
        return named or {node.module}
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args:
        first = node.args[0]
        if isinstance(first, ast.Constant) and first.value in known:
            return {first.value}
    return set()


def imports(path: Path, known: Iterable[str], importer: str = "") -> set[str]:
    """The modules of ``known`` that the module at ``path`` (called ``importer``) imports, with the packages around
    them whose ``__init__`` the import runs."""
    known = set(known)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        for module in _named(node, known):
            found.add(module)
            parts = module.split(".")
            for size in range(1, len(parts)):
                package = ".".join(parts[:size])
                if package in known and importer != package and not importer.startswith(f"{package}."):
                    found.add(package)
    return found


def upward(graph: Mapping[str, set[str]], group: Callable[[str], str], layers: tuple[frozenset[str], ...]) -> list[str]:
    """``"a imports b"`` for every import from a group to another of the same layer or a higher one."""
    rank = {name: i for i, layer in enumerate(layers) for name in layer}
    found = []
    for module, targets in sorted(graph.items()):
        for target in sorted(targets):
            mine, theirs = group(module), group(target)
            if mine != theirs and rank[theirs] >= rank[mine]:
                found.append(f"{module} imports {target}")
    return found


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import cycles: each strongly connected set of two or more modules, sorted (Tarjan 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while (top := stack.pop()) != node:
                component.append(top)
            component.append(node)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def graph_of(found: Mapping[str, Path]) -> dict[str, set[str]]:
    """Each module's imports within ``found`` (:func:`imports`), itself left out."""
    return {module: imports(path, found, module) - {module} for module, path in found.items()}
