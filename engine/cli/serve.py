"""A line protocol for other programs: one JSON request per line in, one JSON answer per line out.

``python -m engine serve`` reads requests on standard input until it closes; ``python -m engine bestmove
VARIANT [CELL ...] [--budget-ms N]`` answers one. Cells are 1-based, row by row over the whole board.

Requests and answers::

    {"variant": "5x5", "moves": [13, 7], "budget_ms": 1000, "level": 8}
    -> {"move": 12, "states": 48211, "value": "draw", "elapsed_ms": 310.2, "source": "search"}
    {"variant": "ultimate", "moves": [41, 33], "query": "state"}
    -> {"to_move": "X", "legal": [...], "winner": null}

``value`` is ``"win in N"``, ``"loss in N"`` (N plies) or ``"draw"`` from the mover's point of view: always on
the solved variants, on ultimate where the search proved it (and measured the distance in time), else ``null``.
``winner`` is ``"X"``, ``"O"``, ``"draw"`` or ``null``. Bad input is
answered with ``{"error": "...", "kind": "<engine error class>"}`` and the server keeps serving.

``level`` is 1-8 (default 8, the strongest; see :mod:`engine.levels`); ``budget_ms`` caps the search's wall time.
``algorithm`` is one of the variant's searches (3x3: ``"alpha-beta"``, the default, or ``"minimax"``). At level 8 a
variant the bot searches inline (3x3) is answered by the bot's own counted search (:func:`engine.players.choose_move`),
so ``states`` is the count the bot shows for that move and the size of the tree ``python -m engine tree`` draws.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TextIO

from engine import players
from engine.errors import IllegalSequenceError, RequestError
from engine.levels import LEVELS, TOP, choose_move
from engine.minimax.config import ALGORITHM_CONFIGS
from engine.protocol import GameValue, Mark
from engine.variants import variant

__all__ = ["DEFAULT_BUDGET_MS", "answer", "answer_line", "serve"]

DEFAULT_BUDGET_MS = 1000.0


def serve(stdin: TextIO, stdout: TextIO, *, rng: random.Random | None = None) -> int:
    """Answer every line of ``stdin`` on ``stdout`` (flushed per line); blank lines are skipped. Returns 0."""
    for line in stdin:
        if line.strip():
            stdout.write(answer_line(line, rng=rng) + "\n")
            stdout.flush()
    return 0


def answer_line(line: str, *, rng: random.Random | None = None) -> str:
    """The JSON answer to one JSON request line; never raises for bad input (it is answered as an error)."""
    try:
        request = json.loads(line)
    except json.JSONDecodeError as err:
        return _error(RequestError(f"the request is not JSON: {err.msg} at column {err.colno}"))
    try:
        return json.dumps(answer(request, rng=rng))
    except ValueError as err:
        return _error(err)


def answer(request: object, *, rng: random.Random | None = None) -> dict[str, Any]:
    """Answer one decoded request (see the module docstring).

    Raises:
        RequestError: not an object, or a field of the wrong type or value.
        UnknownVariantError: ``variant`` is not one the engine plays.
        IllegalSequenceError: a move cannot be played (its ``__cause__`` says why).
        GameOverError: a move is asked for in a finished game.
    """
    if not isinstance(request, Mapping):
        raise RequestError(f"a request is a JSON object, not {request!r}")
    game = variant(request.get("variant"))
    moves = request.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, int) and not isinstance(m, bool) for m in moves):
        raise RequestError(f"moves must be a list of 1-based cell numbers, not {moves!r}")
    state = game.replay([m - 1 for m in moves])
    query = request.get("query", "bestmove")
    if query == "state":
        won = game.winner(state)
        return {
            "to_move": None if game.game.terminal(state) else game.game.player(state).value,
            "legal": [cell + 1 for cell in game.game.actions(state)],
            "winner": won.value if isinstance(won, Mark) else won,
        }
    if query != "bestmove":
        raise RequestError(f"query must be 'bestmove' or 'state', not {query!r}")
    budget = request.get("budget_ms", DEFAULT_BUDGET_MS)
    if isinstance(budget, bool) or not isinstance(budget, int | float) or not 0 < budget <= 600_000:
        raise RequestError(f"budget_ms must be a number of milliseconds in (0, 600000], not {budget!r}")
    level = request.get("level", TOP)
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise RequestError(f"level must be a whole number 1-8, not {level!r}")
    algorithm = request.get("algorithm", game.algorithms[0])
    if algorithm not in game.algorithms:
        raise RequestError(f"algorithm must be one of {', '.join(game.algorithms)} on {game.name}, not {algorithm!r}")
    if level == TOP and game.inline:
        counted = players.choose_move(state, rng=rng, config=ALGORITHM_CONFIGS[algorithm])
        chosen = replace(counted, value=None if game.value is None else game.value(state, counted.mark))
    else:
        chosen = choose_move(game.name, state, level, rng=rng, budget_ms=float(budget))
    return {
        "move": chosen.cell + 1,
        "states": chosen.states,
        "value": None if chosen.value is None else describe(chosen.value),
        "elapsed_ms": round(chosen.elapsed_ms, 1),
        "source": chosen.source,
    }


def describe(value: GameValue) -> str:
    """``"win in N"``, ``"loss in N"`` or ``"draw"``."""
    return "draw" if value.result == "draw" else f"{value.result} in {value.plies}"


def _error(err: ValueError) -> str:
    cause = err.__cause__ if isinstance(err, IllegalSequenceError) and err.__cause__ is not None else err
    return json.dumps({"error": str(err), "kind": type(cause).__name__})
