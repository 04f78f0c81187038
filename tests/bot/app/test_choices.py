"""Option values outside a command's choices (bot.app.choices), for any value a modified client may send; and the
free-text options, each read by a function of its own that a property test feeds any text."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from discord import AppCommandOptionType, app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.app.choices import OUTSIDE_CHOICES, outside_choices
from bot.cogs.puzzles import PuzzleCommands
from bot.cogs.records import RecordCommands
from bot.cogs.ttt import GameCommands
from bot.i18n import LOCALES
from bot.i18n.lang import lang

COMMANDS: list[app_commands.Command[Any, ..., Any]] = [
    command
    for cog in (GameCommands, RecordCommands, PuzzleCommands)
    for command in cog.__cog_app_commands__
    if isinstance(command, app_commands.Command)
]
CHOSEN = [(command, p) for command in COMMANDS for p in command.parameters if p.choices]
"""Every option with declared choices: ``/ttt start``'s play_as, level, algorithm, board and variant, the records'
scope and variants (stats, leaderboard, rating), the puzzle's variant."""
FREE_TEXT = {"cell": "tests/bot/games/test_refusals.py", "game": "tests/bot/games/test_ids.py"}
"""The options that take any text, and where the reading of each is fed any text."""


def test_every_free_text_option_has_its_reader_tested_on_any_text() -> None:
    free = {
        p.display_name
        for command in COMMANDS
        for p in command.parameters
        if p.type in (AppCommandOptionType.string, AppCommandOptionType.integer, AppCommandOptionType.number)
        and not p.choices
    }
    assert free == set(FREE_TEXT), free
    assert len(CHOSEN) == 10 and {p.display_name for _, p in CHOSEN} >= {"level", "variant", "play_as", "scope"}


def forged(command: app_commands.Command[Any, ..., Any], name: str, value: object) -> Any:
    """An interaction of ``command`` carrying ``value`` for option ``name`` only, as a modified client sends it."""
    return SimpleNamespace(command=command, namespace=SimpleNamespace(**{name: value}))


@given(st.sampled_from(CHOSEN).flatmap(lambda cp: st.tuples(st.just(cp), _values(cp[1]))))
def test_any_value_of_an_option_with_choices_is_one_of_them_or_refused_with_them(drawn: tuple[Any, object]) -> None:
    (command, parameter), value = drawn
    allowed = [choice.value for choice in parameter.choices]
    found = outside_choices(forged(command, parameter.display_name, value))
    if value in allowed:
        assert found is None
        return
    assert found == (parameter.display_name, str(value), [str(v) for v in allowed])
    for locale in LOCALES:
        text = lang(locale)(OUTSIDE_CHOICES, value=found[1][:40], option=found[0], allowed=", ".join(found[2]))
        assert ", ".join(found[2]) in text


def _values(parameter: app_commands.Parameter) -> st.SearchStrategy[object]:
    """Any value of the option's type, and its choices."""
    choices = st.sampled_from([choice.value for choice in parameter.choices])
    anything = st.integers() if parameter.type is AppCommandOptionType.integer else st.text()
    return choices | anything
