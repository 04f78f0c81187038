"""The templates of this bot's component ``custom_id``s: the field layouts :mod:`bot.games.codec` writes and reads
(documented there), as regular expressions that discord.py's ``DynamicItem`` buttons match and the codec parses."""

from __future__ import annotations

from typing import Final

__all__ = [
    "ANSWER_TEMPLATE",
    "BOARD_TEMPLATE",
    "CELL_TEMPLATE",
    "LEVEL_CODE",
    "MAX_CARRIED_CELLS",
    "MNK_BOARD_TEMPLATE",
    "REF_TEMPLATE",
    "REMATCH_TEMPLATE",
    "RESIGN_TEMPLATE",
]

LEVEL_CODE: Final = r"[1-8emu]"
"""A level's code in a ``custom_id``: its digit, or the difficulty letter of a board posted before the levels."""
MAX_CARRIED_CELLS: Final = 25
"""The most cells a board may have and still carry its moves (one base-36 digit each) in its buttons' ids beside the
players and the states count (5x5: at most 96 characters); a bigger board is named by reference."""
_CODE = r"[0-9a-z]{0,2}"
_PLAYERS = r"(?P<x>b|\d{1,20}):(?P<o>b|\d{1,20})"
_PAYLOAD_3X3 = rf"(?P<game>[0-9a-z]{{1,13}}):(?P<moves>[0-8]{{0,9}}):(?P<opts>{LEVEL_CODE}[am][bt]):{_PLAYERS}"
_STATES_3X3 = r":(?P<states>[0-9a-z]{1,6})"
CELL_TEMPLATE: Final = rf"ttt:(?P<kind>[0-8]):{_PAYLOAD_3X3}{_STATES_3X3}"
"""The ``DynamicItem`` template of a 3x3 board's cell buttons (:data:`BOARD_TEMPLATE` matches every board)."""
RESIGN_TEMPLATE: Final = rf"ttt:(?P<kind>r):{_PAYLOAD_3X3}{_STATES_3X3}"
"""The template of a 3x3 board's Resign button."""
REMATCH_TEMPLATE: Final = rf"ttt:(?P<kind>n):{_PAYLOAD_3X3}{_STATES_3X3}"
"""The template of a 3x3 board's Rematch button."""
MNK_BOARD_TEMPLATE: Final = (
    rf"ttt:(?P<kind>\d{{1,2}}|[rn]):(?P<game>[0-9a-z]{{1,13}}):(?P<moves>[0-9a-o]{{0,25}}):"
    rf"(?P<opts>[45]{LEVEL_CODE}[am][bt]):{_PLAYERS}:(?P<states>[0-9a-z]{{1,13}})"
)
"""The template of every 4x4 and 5x5 board button (cells, Resign, Rematch)."""
BOARD_TEMPLATE: Final = (
    rf"ttt:(?P<kind>\d{{1,2}}|[rnwh]):(?P<game>[0-9a-z]{{1,13}}):(?P<moves>[0-9a-z]{{0,{MAX_CARRIED_CELLS}}}):"
    rf"(?P<opts>{_CODE}{LEVEL_CODE}[am][bt]):{_PLAYERS}:(?P<states>[0-9a-z]{{1,13}})"
)
"""The template of every button of a board that carries its game, whatever the variant (cells, Resign, Rematch, How did
it think?)."""
REF_TEMPLATE: Final = (
    r"ttt:(?P<variant>[0-9a-z]{1,2}?)(?P<pad>p?):(?P<kind>\d{1,2}|[rnkwh]|p[0-8]):(?P<game>[0-9a-z]{1,13}):"
    r"(?P<version>\d{1,3})"
)
"""The template of every button of a board by reference and of its private pad (``pad`` is ``p``)."""
ANSWER_TEMPLATE: Final = r"ttt:(?P<answer>[ad]):(?P<game>[0-9a-z]{1,13}):(?P<challenged>\d{1,20})"
