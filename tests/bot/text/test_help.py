"""/ttt help (bot.text.help): built from the registered games, the synced commands and the buttons' labels."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest

from bot.i18n.catalogs import format_list
from bot.i18n.lang import Lang, lang
from bot.text import help as help_module
from bot.text import labels
from bot.text.commands import CommandNames, command_names
from bot.text.discs import DISC
from bot.text.help import (
    MAX_DESCRIPTION,
    MAX_EMBED,
    MAX_FIELD_NAME,
    MAX_FIELD_VALUE,
    MAX_FIELDS,
    HelpPage,
    help_page,
)
from engine import VARIANTS, Mark, Variant
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from engine.review import BLUNDER_POINTS, INACCURACY_POINTS, MISTAKE_POINTS, Label

LOCALES = [None, "de", "fr", "es-ES", "es-419", "pt-BR", "ja"]
SYNCED = Path(__file__).parents[1] / "cogs" / "synced_commands.json"
"""The ``/ttt`` group exactly as the bot syncs it (tests/bot/cogs/test_ttt.py pins it and checks that the cog's help
reads the same payload)."""


def synced() -> dict[str, Any]:
    (group,) = json.loads(SYNCED.read_text(encoding="utf-8"))
    return dict(group)


def page(locale: str | None) -> tuple[HelpPage, CommandNames, Lang]:
    names, tr = command_names(synced(), locale), lang(locale)
    return help_page(names, tr), names, tr


def whole(shown: HelpPage) -> str:
    return "\n".join([shown.description, *(f"{name}\n{value}" for name, value in shown.fields)])


def field(shown: HelpPage, kind: Variant, tr: Lang) -> str:
    (value,) = [value for name, value in shown.fields if name == tr(kind.title)]
    return value


def test_the_help_explains_the_numbering_and_the_state_counts() -> None:
    shown, _, _ = page(None)
    three = field(shown, VARIANTS["3x3"], lang(None))
    assert "```\n" + VARIANTS["3x3"].text_grid(VARIANTS["3x3"].game.initial_state()) + "\n```" in three
    for phrase in ("Minimax", "Alpha-beta", "prunes", "549,945", "`/ttt hint`"):
        assert phrase in shown.description


def test_the_help_explains_every_label_the_review_can_show() -> None:
    """The legend names each label engine.review emits (a new label fails this until /ttt help explains it)."""
    shown, _, _ = page(None)
    for label in get_args(Label):
        assert f"*{label}*" in shown.description, label


@pytest.mark.parametrize("locale", LOCALES)
def test_the_help_names_every_command_and_option_as_discord_shows_them(locale: str | None) -> None:
    """Every synced command is named, as the command picker shows it in the reader's language; every command and option
    the help quotes is one Discord shows that reader (German: `/ttt starten`, `variante:`; never `variant:`)."""
    shown, names, _ = page(locale)
    text = whole(shown)
    group = synced()
    for command in group["options"]:
        assert f"`{names(command['name'])}`" in text, command["name"]
    commands = {names(name) for name in names.names()}
    assert {quoted for quoted in re.findall(r"/ttt [^`\s:]+", text)} <= commands
    options = {option for c in names.commands for option in c.options.values()}
    quoted_options = set(re.findall(r"`(?:/ttt \S+ )?([^`\s]+):(?: [^`]*)?`", text))
    assert quoted_options and quoted_options <= options
    if locale == "de":
        assert "`/ttt starten`" in text and "`variante:`" in text and "`/ttt zug feld:`" in text
        assert "`variant:`" not in text and "/ttt start`" not in text
    if locale == "ja":
        assert "`種類:`" in text and "`/ttt 着手 マス:`" in text


@pytest.mark.parametrize("locale", LOCALES)
def test_the_help_names_every_button(locale: str | None) -> None:
    shown, _, tr = page(locale)
    for label in (labels.RESIGN, labels.THINKING, labels.REMATCH, labels.ACCEPT, labels.DECLINE, labels.BACK):
        assert f"**{tr(label)}**" in shown.description, label


@pytest.mark.parametrize("locale", LOCALES)
def test_every_registered_game_has_its_field_with_how_to_play_it_and_its_level_8(locale: str | None) -> None:
    """Each game, from its own answers: a button per column (columns 1-7), a pad (ultimate), a button per cell; how a
    move is typed; its sides; what its level 8 does (Connect Four included: perfect, beaten only as the second
    player)."""
    shown, names, tr = page(locale)
    assert [name for name, _ in shown.fields] == [tr(kind.title) for kind in VARIANTS.values()]
    move = names("move", "cell")
    for kind in VARIANTS.values():
        value = field(shown, kind, tr)
        assert tr(kind.description) in value and f"`{move}`" in value, kind.name
        if kind.columns(kind.game.initial_state()):
            how = tr(help_module.BY_COLUMN, move=move, first="1", last="7")
        else:
            how_to = help_module.BY_PAD if kind.block else help_module.BY_CELL
            how = tr(how_to, move=move, first=kind.cell_label(0), last=kind.cell_label(kind.cells - 1))
        assert how in value, kind.name
        levels = [help_module.PERFECT, help_module.ESTIMATED, help_module.PERFECT_BEATABLE]
        said = [message for message in levels if tr(message).split("{")[0] in value]
        assert len(said) == 1, (kind.name, value)
    four = field(shown, CONNECT_FOUR_VARIANT, tr)
    assert f"{DISC[Mark.X]} " in four and "❌" not in four
    assert tr(help_module.PERFECT_BEATABLE).split("{")[0] in four
    assert tr(help_module.ESTIMATED) in field(shown, VARIANTS["ultimate"], tr)
    assert tr(help_module.PERFECT) in field(shown, VARIANTS["4x4"], tr)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_help_fits_one_embed_in_every_language_with_a_game_from_outside(
    locale: str | None, outside_game: Variant
) -> None:
    shown, _, _ = page(locale)
    assert len(shown.description) <= MAX_DESCRIPTION
    assert len(shown.fields) <= MAX_FIELDS
    assert all(len(name) <= MAX_FIELD_NAME and 0 < len(value) <= MAX_FIELD_VALUE for name, value in shown.fields)
    assert shown.size() <= MAX_EMBED
    for points in (BLUNDER_POINTS, MISTAKE_POINTS, INACCURACY_POINTS):
        assert str(points) in shown.description


def test_a_game_registered_from_outside_is_explained_from_its_answers(outside_game: Variant) -> None:
    shown, _, tr = page("de")
    value = field(shown, outside_game, tr)
    assert outside_game.description in value
    assert tr(help_module.BY_CELL, move="/ttt zug feld:", first="a1", last="d3") in value
    assert "❌ X" in value and tr(help_module.PERFECT) in value
    assert "```" not in value  # its cells are coordinates: no picture of how they are named


def test_the_estimated_games_are_named_from_the_registry() -> None:
    shown, _, _ = page(None)
    estimated = [kind.title for kind in VARIANTS.values() if not kind.exact]
    assert estimated and f"**Estimates** ({format_list(estimated, None)})" in shown.description


def test_lists_are_written_in_the_readers_language() -> None:
    three, tr = VARIANTS["3x3"], lang("ja")
    shown, _, _ = page("ja")
    picks = "、".join(tr(three.search_name(a)) for a in three.algorithms)
    assert picks not in field(shown, three, tr) and "または" in field(shown, three, tr)
    english, _, _ = page(None)
    assert "alpha-beta or minimax" in field(english, three, lang(None))


def test_without_the_record_commands_the_ratings_line_is_left_out_and_a_missing_game_command_is_an_error() -> None:
    group = synced()
    group["options"] = [c for c in group["options"] if c["name"] != "rating"]
    shown = help_page(command_names(group, "de"), lang("de"))
    assert "Glicko-2" not in shown.description and "`/ttt statistik`" in shown.description
    group["options"] = [c for c in group["options"] if c["name"] != "move"]
    with pytest.raises(KeyError, match="move"):
        help_page(command_names(group, "de"))
