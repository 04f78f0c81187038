"""engine.cli.parser: ``python -m engine --help`` says what the engine's command line is, and every subcommand's
``--help`` describes it and each of its options."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli.commands import build_parser
from engine.registry import VARIANTS

ROOT = Path(__file__).resolve().parents[3]
SUBCOMMANDS = ("analyse", "review", "serve", "bestmove", "levels", "puzzles", "tree")


def subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser by its name (aliases left out)."""
    (action,) = (a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {name: parser for name, parser in action.choices.items() if parser.prog.endswith(f" {name}")}


def helped(*argv: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "engine", *argv, "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, ""), argv
    return " ".join(done.stdout.split())  # argparse wraps lines where the terminal's width says


def test_the_engines_help_names_every_game_and_every_subcommand() -> None:
    text = helped()
    for name in VARIANTS:
        assert name in text
    assert tuple(subcommands()) == SUBCOMMANDS  # each is checked below
    for name in SUBCOMMANDS:
        assert f"{name} " in text
    assert "Analyse a tic-tac-toe position" not in text  # what it said when the engine played 3x3 alone


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_subcommand_s_help_describes_it_and_each_of_its_options(name: str) -> None:
    parser = subcommands()[name]
    assert parser.description, name
    text = helped(name)
    assert " ".join(parser.description.split())[:60] in text
    for action in parser._actions:
        if not isinstance(action, argparse._HelpAction):
            assert action.help, (name, action.dest)
            for spelling in action.option_strings or [str(action.metavar)]:
                assert spelling in text, (name, spelling)
            assert " ".join(action.help.split("%(")[0].split())[:40] in text, (name, action.dest)


def test_serve_s_help_gives_the_request_forms() -> None:
    text = helped("serve")
    for form in ('"moves": [13, 7]', '"columns": [4, 4, 5]', '"query": "state"', "budget_ms", "level"):
        assert form in text
