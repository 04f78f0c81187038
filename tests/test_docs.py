"""README.md and docs/: the commands they tell people to run exist (make targets, benchmark scripts, modules)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MAKE_TARGET = re.compile(r"^([a-z][\w-]*):", re.M)


def commands(pattern: str) -> set[tuple[str, str]]:
    """(page name, captured name) for every match of ``pattern`` in the README and the docs."""
    return {(page.name, found) for page in PAGES for found in re.findall(pattern, page.read_text(encoding="utf-8"))}


def test_the_readme_gives_the_two_commands_and_links_every_page_of_the_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run" in readme and "make test" in readme
    assert len(readme.splitlines()) <= 250  # for users: the rest is in docs/
    assert {page.name for page in PAGES[1:]} == set(re.findall(r"\(docs/([\w-]+\.md)[)#]", readme))


@pytest.mark.parametrize(("page", "target"), sorted(commands(r"`make (\w[\w-]*)")))
def test_every_make_target_named_exists(page: str, target: str) -> None:
    assert target in MAKE_TARGET.findall((ROOT / "Makefile").read_text(encoding="utf-8")), f"{page}: make {target}"


@pytest.mark.parametrize(("page", "script"), sorted(commands(r"python (benchmarks/\w+\.py)")))
def test_every_benchmark_named_exists(page: str, script: str) -> None:
    assert (ROOT / script).is_file(), f"{page}: {script}"


@pytest.mark.parametrize(("page", "module"), sorted(commands(r"python -m ([\w.]+)")))
def test_every_module_run_with_python_m_exists(page: str, module: str) -> None:
    assert importlib.util.find_spec(module) is not None, f"{page}: python -m {module}"


def test_the_alerts_point_at_sections_that_exist() -> None:
    text = (ROOT / "prometheus" / "alerts.yml").read_text()
    pointers = re.findall(r"\((docs/[\w.-]+\.md), ([^)]+)\)", text)
    assert pointers, "the alerts point at the docs"
    for page, section in pointers:
        headings = [line.lstrip("#").strip() for line in (ROOT / page).read_text().splitlines() if line.startswith("#")]
        assert section in headings, (page, section)


def test_adding_a_game_covers_every_member_of_the_game_the_bot_uses() -> None:
    from engine.variants import Variant

    declared = {"name", "title", "description", "code", "game", "width", "height"}  # annotated, set by each game
    members = {m for m in vars(Variant) if not m.startswith("_")} | declared
    bot = "\n".join(path.read_text() for path in (ROOT / "bot").rglob("*.py"))
    used = {m for m in members if re.search(rf"\.{m}\b", bot)}
    guide = (ROOT / "docs" / "adding-a-game.md").read_text()
    named = set(re.findall(r"`([a-z_]+)[(`]", guide)) | set(re.findall(r"\b([a-z_]+) = ", guide))
    assert used and sorted(used - named) == []
