"""The ``/ttt`` commands as Discord shows them to one user: their names, their options' names and their descriptions in
that user's language, read from the payload the bot syncs (discord.py's ``Group.get_translated_payload``, the JSON of
``PUT /applications/{id}/commands``), so a text that names a command names it as the command picker does.

Pure text: no ``discord`` import (the cog reads the payload from its command tree and hands it here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["CommandName", "CommandNames", "command_names"]

_SUBCOMMAND = 1
"""Discord's option type of a subcommand (``ApplicationCommandOptionType.SUB_COMMAND``)."""


@dataclass(frozen=True, slots=True)
class CommandName:
    """One subcommand as one locale shows it.

    Attributes:
        name: its name as the bot defines it (English), e.g. ``"start"``.
        shown: its name in the locale, e.g. ``"starten"``.
        description: its description in the locale.
        options: each option's name as defined (English) → as shown in the locale, in the command's order.
    """

    name: str
    shown: str
    description: str
    options: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class CommandNames:
    """A command group (``/ttt``) and its subcommands, in the order the bot syncs them, as one locale shows them."""

    group: str
    commands: tuple[CommandName, ...]

    def __call__(self, command: str, option: str | None = None) -> str:
        """``"/ttt starten"``, or with ``option`` ``"/ttt starten variante:"``: how the user types the command (and
        the option) named ``command`` (``option``) in English.

        Raises:
            KeyError: the group has no such command, or the command no such option.
        """
        text = f"/{self.group} {self._command(command).shown}"
        return text if option is None else f"{text} {self.option(command, option)}"

    def option(self, command: str, option: str) -> str:
        """``"variante:"``: how the user types the option named ``option`` (in English) of ``command``.

        Raises:
            KeyError: the group has no such command, or the command no such option.
        """
        return f"{self._command(command).options[option]}:"

    def _command(self, name: str) -> CommandName:
        found = next((c for c in self.commands if c.name == name), None)
        if found is None:
            raise KeyError(name)
        return found

    def names(self) -> tuple[str, ...]:
        """Every subcommand's English name, in order."""
        return tuple(c.name for c in self.commands)


def _shown(item: Mapping[str, Any], key: str, locale: str | None) -> str:
    """``item[key]`` in ``locale`` (its ``<key>_localizations``), or as defined where Discord has no translation."""
    localized = item.get(f"{key}_localizations") or {}
    return str(localized.get(locale, item[key])) if locale else str(item[key])


def command_names(payload: Mapping[str, Any], locale: str | None) -> CommandNames:
    """The group in ``payload`` (Discord's JSON of a chat-input command with subcommands, localizations included) as
    Discord shows it in ``locale`` (a Discord locale code such as ``"de"`` or ``"es-ES"``; ``None``: English)."""
    commands = tuple(
        CommandName(
            name=str(child["name"]),
            shown=_shown(child, "name", locale),
            description=_shown(child, "description", locale),
            options={str(o["name"]): _shown(o, "name", locale) for o in child.get("options") or ()},
        )
        for child in payload.get("options") or ()
        if child.get("type") == _SUBCOMMAND
    )
    return CommandNames(_shown(payload, "name", locale), commands)
