"""``custom_id`` formats of the variants' boards (3x3's is :mod:`bot.games.codec`, unchanged).

**4x4 and 5x5** carry the whole game, as 3x3 does (fields separated by ``:``)::

    ttt:<kind>:<game id>:<moves>:<variant><options>:<X player>:<O player>:<states>

- ``kind``: a cell ``0``-``15`` / ``0``-``24`` in decimal, ``r`` (Resign) or ``n`` (Rematch);
- ``moves``: one base-36 digit per cell played (``0``-``f``, ``0``-``o``), in order;
- ``variant``: ``4`` or ``5``, then the three option codes of :mod:`bot.games.codec` (``[1-8emu][am][bt]``: the
  level, or an older board's difficulty);
- ``states``: the bot's states count in base 36, 1-13 digits.

The longest is 96 characters (a 5x5 game between two people with 20-digit ids, every cell played, kind 24), the
longest against the bot 88 (13-digit states count), within Discord's 100.

**Ultimate** does not fit (81 cells, a whole game's moves), so its buttons carry the game id and a version, the
number of moves played, and the running game comes from memory or the records database::

    ttt:u:<kind>:<game id>:<version>      (the board message)
    ttt:up:<kind>:<game id>:<version>     (the private pad: an ephemeral message of the player to move)

- ``kind``: a cell ``0``-``80`` (whole board, row by row), ``r``, ``n``, ``p0``-``p8`` (pick small board 0-8
  when the player may play anywhere: shown on the private pad, never a move) or ``k`` (on the pad: back to the
  open boards); the pad has cells, ``p0``-``p8`` and ``k`` only;
- ``version``: 0-81. At most 27 characters.

A pad's button names no message: its own is an ephemeral one, so the service acts on the board message it holds.

A reference names a position only by the game's own moves (``version`` of them), so a forged id can never put
on the board a position that was not played: the service resolves it against the game it holds or stored and
refuses a version it never committed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bot.games.codec import CodecError, game_from_match, level_code
from bot.games.game import Algorithm, Game, Mode, message_url, to_base36
from engine import IllegalMoveError
from engine.variants import VARIANTS

__all__ = [
    "MNK_BOARD_TEMPLATE",
    "REF_TEMPLATE",
    "BoardRef",
    "VariantKind",
    "decode_variant",
    "encoder_for",
    "is_variant_id",
    "mnk_encoder",
    "mnk_from_match",
    "ref_encoder",
    "ref_from_match",
]

VariantKind = int | str
"""A button's kind: a cell (0-based int), ``"r"``, ``"n"``, and on ultimate ``"k"`` or ``"p0"``-``"p8"``."""

_ALGORITHM: dict[Algorithm, str] = {"alpha-beta": "a", "minimax": "m"}
_MODE: dict[Mode, str] = {"buttons": "b", "text": "t"}
_MNK_CODE: Final = {"4x4": "4", "5x5": "5"}
_FROM_MNK_CODE: Final = {c: v for v, c in _MNK_CODE.items()}
_REF_CODE: Final = {"ultimate": "u"}
_FROM_REF_CODE: Final = {c: v for v, c in _REF_CODE.items()}
_BOT: Final = "b"
_B36: Final = "0123456789abcdefghijklmnopqrstuvwxyz"

MNK_BOARD_TEMPLATE: Final = (
    r"ttt:(?P<kind>\d{1,2}|[rn]):(?P<game>[0-9a-z]{1,13}):(?P<moves>[0-9a-o]{0,25}):"
    r"(?P<opts>[45][1-8emu][am][bt]):(?P<x>b|\d{1,20}):(?P<o>b|\d{1,20}):(?P<states>[0-9a-z]{1,13})"
)
"""The ``DynamicItem`` template of every 4x4 and 5x5 board button (cells, Resign, Rematch)."""
REF_TEMPLATE: Final = (
    r"ttt:(?P<variant>u)(?P<pad>p?):(?P<kind>\d{1,2}|[rnk]|p[0-8]):(?P<game>[0-9a-z]{1,13}):(?P<version>\d{1,2})"
)
"""The ``DynamicItem`` template of every ultimate board button and private pad button (``pad`` is ``p``)."""
_MNK_RE: Final = re.compile(MNK_BOARD_TEMPLATE)
_REF_RE: Final = re.compile(REF_TEMPLATE)


@dataclass(frozen=True, slots=True)
class BoardRef:
    """A board that names its game by id and version (ultimate): what a pressed button or a board message read back
    says, checked by the service against the game it holds or stored.

    ``version`` is the number of moves the board shows; ``over`` is True when the message shows a Rematch button
    (the game ended). The place (channel, guild, message) is the caller's, as for :func:`bot.games.codec.decode`.
    ``pad`` is True for a button of a private pad (an ephemeral message): it names no board message
    (``message_id`` None), and the service acts on the board message it holds for the game.
    """

    variant: str
    game_id: str
    version: int
    channel_id: int = 0
    guild_id: int | None = None
    message_id: int | None = None
    over: bool = False
    pad: bool = False

    @property
    def ply(self) -> int:
        """Moves the board shows (its version)."""
        return self.version

    @property
    def jump_url(self) -> str | None:
        """A link to the board message, when it is known."""
        return message_url(self.guild_id, self.channel_id, self.message_id)

    def at(self, message_id: int | None) -> BoardRef:
        """The same reference on message ``message_id``."""
        return BoardRef(
            self.variant, self.game_id, self.version, self.channel_id, self.guild_id, message_id, self.over, self.pad
        )


def mnk_encoder(game: Game) -> Callable[[VariantKind], str]:
    """The ``custom_id`` maker for the buttons of one 4x4 or 5x5 board: ``make(kind)`` for a cell (0-based int),
    ``"r"`` or ``"n"``.

    Raises:
        CodecError: ``game`` is not a 4x4 or 5x5 game, a field cannot be written, or both sides are one player
            (the returned function raises it for a kind that is not a cell of the board, ``"r"`` or ``"n"``).
    """
    code = _MNK_CODE.get(game.variant)
    if code is None:
        raise CodecError(f"cannot encode game {game.game_id!r}: variant {game.variant!r} is not 4x4 or 5x5")
    x, o = game.x_id, game.o_id
    if x == o:
        raise CodecError(f"cannot encode game {game.game_id!r}: the same player on both sides")
    opts = code + level_code(game) + _ALGORITHM[game.algorithm] + _MODE[game.mode]
    moves = "".join(_B36[cell] for cell in game.moves)
    players = f"{_BOT if x is None else x}:{_BOT if o is None else o}"
    tail = f"{game.game_id}:{moves}:{opts}:{players}:{to_base36(game.ai_states)}"
    cells = game.cells
    if _MNK_RE.fullmatch(f"ttt:r:{tail}") is None:
        raise CodecError(f"cannot encode game {game.game_id!r}: got {tail!r}")

    def make(kind: VariantKind) -> str:
        if not (kind in ("r", "n") or (isinstance(kind, int) and not isinstance(kind, bool) and 0 <= kind < cells)):
            raise CodecError(f"cannot encode kind {kind!r}: use a cell 0-{cells - 1}, 'r' or 'n'")
        return f"ttt:{kind}:{tail}"

    return make


def ref_encoder(game: Game, *, pad: bool = False) -> Callable[[VariantKind], str]:
    """The ``custom_id`` maker for the buttons of one ultimate board (``pad``: of the private pad): ``make(kind)``
    for a cell 0-80, ``"r"``, ``"n"`` (not on the pad), ``"k"`` or ``"p0"``-``"p8"``.

    Raises:
        CodecError: ``game`` is not an ultimate game (the returned function raises it for another kind).
    """
    code = _REF_CODE.get(game.variant)
    if code is None:
        raise CodecError(f"cannot encode game {game.game_id!r} by reference: variant {game.variant!r}")
    tail = f"{game.game_id}:{game.ply}"
    cells = game.cells
    controls = ("k",) if pad else ("r", "n", "k")
    prefix = f"ttt:{code}{'p' if pad else ''}:"

    def make(kind: VariantKind) -> str:
        if isinstance(kind, int) and not isinstance(kind, bool):
            if not 0 <= kind < cells:
                raise CodecError(f"cannot encode cell {kind!r}: use 0-{cells - 1}")
        elif not (kind in controls or (isinstance(kind, str) and re.fullmatch(r"p[0-8]", kind))):
            raise CodecError(f"cannot encode kind {kind!r}: use a cell, {', '.join(map(repr, controls))} or p0-p8")
        return f"{prefix}{kind}:{tail}"

    return make


def _kind(raw: str) -> VariantKind:
    return int(raw) if raw.isdigit() else raw


def mnk_from_match(
    match: re.Match[str], *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[Game, VariantKind]:
    """The 4x4 or 5x5 game a match of :data:`MNK_BOARD_TEMPLATE` shows, and the button's kind.

    Raises:
        CodecError: a cell is off the board, the moves are not a legal game (a cell twice, moves after the end),
            no person plays, or both sides are one player.
    """
    variant = _FROM_MNK_CODE[match["opts"][0]]
    rules = VARIANTS.get(variant)
    if rules is None:
        raise CodecError(f"variant {variant!r} is not available")
    cells = rules.width * rules.height
    moves = tuple(_B36.index(c) for c in match["moves"])
    kind = _kind(match["kind"])
    if any(cell >= cells for cell in moves) or (isinstance(kind, int) and kind >= cells):
        raise CodecError(f"{match.string!r}: a cell is off the {variant} board")
    state = rules.game.initial_state()
    try:
        for cell in moves:
            if rules.game.terminal(state):
                raise CodecError(f"moves {match['moves']!r} go on after the game ended")
            state = rules.game.result(state, cell)
    except IllegalMoveError as exc:
        raise CodecError(f"moves {match['moves']!r} are not a legal {variant} game: {exc}") from exc
    done = rules.game.terminal(state)
    game = game_from_match(
        match,
        match["opts"][1:],
        moves,
        state,
        done=done,
        won=done and bool(rules.game.utility(state)),
        channel_id=channel_id,
        guild_id=guild_id,
        message_id=message_id,
        variant=variant,
    )
    return game, kind


def ref_from_match(
    match: re.Match[str], *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[BoardRef, VariantKind]:
    """The reference a match of :data:`REF_TEMPLATE` names, and the button's kind (``over`` when it is Rematch). A
    private pad's reference names no message (its own ``message_id`` is dropped).

    Raises:
        CodecError: the version or the cell is off the board, or a pad's button is Resign or Rematch.
    """
    variant = _FROM_REF_CODE[match["variant"]]
    rules = VARIANTS.get(variant)
    cells = 81 if rules is None else rules.width * rules.height
    version = int(match["version"])
    kind = _kind(match["kind"])
    pad = bool(match["pad"])
    if version > cells or (isinstance(kind, int) and kind >= cells):
        raise CodecError(f"{match.string!r}: off the {variant} board")
    if pad and kind in ("r", "n"):
        raise CodecError(f"{match.string!r}: a private pad has no {kind!r} button")
    message_id = None if pad else message_id
    ref = BoardRef(variant, match["game"], version, channel_id, guild_id, message_id, over=kind == "n", pad=pad)
    return ref, kind


def decode_variant(
    custom_id: str, *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[Game | BoardRef, VariantKind]:
    """Read a variant board button's ``custom_id`` (4x4/5x5: the game; ultimate: a :class:`BoardRef`).

    Raises:
        CodecError: the id is not a variant board button's, or describes an impossible game.
    """
    match = _MNK_RE.fullmatch(custom_id)
    if match is not None:
        return mnk_from_match(match, channel_id=channel_id, guild_id=guild_id, message_id=message_id)
    match = _REF_RE.fullmatch(custom_id)
    if match is not None:
        return ref_from_match(match, channel_id=channel_id, guild_id=guild_id, message_id=message_id)
    raise CodecError(f"{custom_id!r} is not a variant board button")


def is_variant_id(custom_id: str) -> bool:
    """True when ``custom_id`` has the shape of a variant board button."""
    return _MNK_RE.fullmatch(custom_id) is not None or _REF_RE.fullmatch(custom_id) is not None


def encoder_for(game: Game) -> Callable[[VariantKind], str]:
    """The ``custom_id`` maker for ``game``'s board buttons, whatever its variant: 3x3
    (:func:`bot.games.codec.encoder`), 4x4/5x5 (:func:`mnk_encoder`) or ultimate (:func:`ref_encoder`).

    Raises:
        CodecError: a field of ``game`` cannot be written in its variant's format.
    """
    if game.variant == "3x3":
        from bot.games.codec import encoder

        three = encoder(game)

        def make(kind: VariantKind) -> str:
            if isinstance(kind, str) and kind not in ("r", "n"):
                raise CodecError(f"cannot encode kind {kind!r} on a 3x3 board")
            return three(kind)  # type: ignore[arg-type]

        return make
    if game.variant in _MNK_CODE:
        return mnk_encoder(game)
    return ref_encoder(game)
