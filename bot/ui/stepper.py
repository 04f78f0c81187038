"""The private stepper behind "How did it think?": the search walked state by state in an ephemeral message, with Next,
Back, Into, Out and Next cut (:class:`engine.tree.step.Cursor`), in the player's language.

Its buttons' ids are ``tsx:<game>:<moves>:<w|h>:<action>:<index>``: the game and the moves of the board whose
"How did it think?" it came from (``w``: the bot's last move, ``h``: a hint's search; checked against the game held,
as that button is), the button (``s`` Step through, ``n`` Next, ``b`` Back, ``i`` Into, ``o`` Out, ``c`` Next cut)
and the step it shows (0-based). Each press recomputes the search (deterministic: :meth:`engine.Variant.stepped`)
and shows the step its button names, so a stale press shows a real step and nothing is held per stepper.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import discord

from bot.games.thinking import words_for
from bot.i18n import N_
from bot.i18n.lang import Lang
from bot.ui.views import BoardComponents, button_payload
from engine.tree import Cursor, SearchTree, Step, walk

__all__ = [
    "GONE",
    "ID_TEMPLATE",
    "STEP_THROUGH",
    "StepPress",
    "is_step_id",
    "read_step",
    "step_through",
    "stepper_message",
]

ID_TEMPLATE: Final = (
    r"tsx:(?P<game>[0-9a-z]{1,13}):(?P<moves>[0-9a-o]{0,25}):(?P<hint>[wh]):(?P<action>[snbioc]):(?P<index>\d{1,6})"
)
_ID = re.compile(ID_TEMPLATE)
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
SHOWN_LINES = 16
"""The walk's last lines shown with a step (the message stays short on a phone)."""
MAX_CONTENT = 1_900
"""Discord's limit for a message's content is 2,000 characters."""

STEP_THROUGH = N_("Step through")
NEXT = N_("Next")
BACK = N_("Back")
INTO = N_("Into")
OUT = N_("Out")
NEXT_CUT = N_("Next cut")
HEADER = N_("**Step {count} of {total}** · {title}")
GONE = N_("This stepper is no longer active: press How did it think? again.")
LEGEND = N_(
    "Each line: the states so far, the move, the window (\N{GREEK SMALL LETTER ALPHA}, β) its replies are searched "
    "with; ← a value going back up; ✂ a cut and the \N{GREEK SMALL LETTER ALPHA} or β that allowed it. Values are "
    "X's, plies counted from the position searched."
)


@dataclass(frozen=True, slots=True)
class StepPress:
    """A press read from a stepper id: the board's game and moves, ``hint``, the button and the step to show."""

    game_id: str
    moves: tuple[int, ...]
    hint: bool
    action: str
    index: int


def is_step_id(custom_id: str) -> bool:
    """True when ``custom_id`` has the shape of a stepper button's."""
    return _ID.fullmatch(custom_id) is not None


def read_step(match: re.Match[str]) -> StepPress:
    """The press a matched stepper id names (its fields are only shapes: the game is checked by the caller)."""
    moves = tuple(_DIGITS.index(c) for c in match["moves"])
    return StepPress(match["game"], moves, match["hint"] == "h", match["action"], int(match["index"]))


def _id(press: StepPress, action: str, index: int) -> str:
    moves = "".join(_DIGITS[cell] for cell in press.moves)
    return f"tsx:{press.game_id}:{moves}:{'h' if press.hint else 'w'}:{action}:{index}"


def step_through(game_id: str, moves: Sequence[int], hint: bool, tr: Lang) -> BoardComponents:
    """The "Step through" button under a "How did it think?" answer on ``moves`` of game ``game_id``."""
    press = StepPress(game_id, tuple(moves), hint, "s", 0)
    return BoardComponents([_row([button_payload(_id(press, "s", 0), discord.ButtonStyle.secondary,
                                                 label=tr(STEP_THROUGH), emoji="\N{FOOTPRINTS}")])])  # fmt: skip


def stepper_message(tree: SearchTree, press: StepPress, tr: Lang) -> tuple[str, BoardComponents]:
    """The stepper at step ``press.index`` of ``tree``'s search: its header, the walk's last lines up to that step
    (:func:`engine.tree.step.walk`, in ``tr``'s words) and the buttons, each naming the step it leads to (disabled
    where there is none).

    Raises:
        IndexError: ``press.index`` is not a step of ``tree``.
    """
    words = words_for(tr)
    walked = list(walk(tree, words))
    steps: tuple[Step, ...] = tuple(step for step, _ in walked if step is not None)
    cursor = Cursor(steps)
    index = press.index
    cursor.next(index)  # IndexError for a step the tree does not have
    lines = [line for _, shown in walked[: index + 1] for line in shown]
    if index == len(steps) - 1:
        lines += walked[-1][1]  # the last values going up and the root's value
    title = words.count(words.title, tree.states, algorithm=tree.algorithm)
    header = tr(HEADER, count=tr.number(steps[index].count), total=tr.number(tree.states), title=title)
    shown = lines[-SHOWN_LINES:]
    content = _content(header, shown, tr(LEGEND))
    while len(content) > MAX_CONTENT and len(shown) > 1:  # long lines (a cut's reason): fewer of them
        shown = shown[1:]
        content = _content(header, shown, tr(LEGEND))
    out = cursor.out(index)
    targets = [("b", BACK, cursor.back(index)), ("n", NEXT, cursor.next(index)), ("i", INTO, cursor.into(index)),
               ("o", OUT, index if out is None else out), ("c", NEXT_CUT, cursor.cut(index))]  # fmt: skip
    buttons = [
        button_payload(_id(press, action, target), discord.ButtonStyle.primary if action == "n" else
                       discord.ButtonStyle.secondary, label=tr(label), disabled=target == index)
        for action, label, target in targets
    ]  # fmt: skip
    return content, BoardComponents([_row(buttons)])


def _content(header: str, lines: list[str], legend: str) -> str:
    text = "\n".join(lines).replace("`", "'")
    return f"{header}\n```\n{text}\n```\n-# {legend}"


def _row(buttons: list[dict[str, object]]) -> dict[str, object]:
    return {"type": 1, "components": buttons}
