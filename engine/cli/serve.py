"""A line protocol for other programs: one JSON request per line in, one JSON answer per line out.

``python -m engine serve`` reads requests on standard input until it closes; ``python -m engine bestmove
VARIANT [MOVE ...] [--columns COLUMN ...] [--budget-ms N] [--level L]`` answers one.

A request names its moves as 1-based cells row by row over the whole board (``"moves": [13, 7]``), as 1-based columns
on a game played by column (``"columns": [4, 4, 5]``: Connect Four), or in the game's notation (``"moves": ["c3",
"b2"]``, ``"moves": ["d", "d", "e"]``); the answer's ``move`` and ``legal`` and every error name moves the same way
(:mod:`engine.cli.numbering`). Requests and answers::

    {"variant": "5x5", "moves": [13, 7], "budget_ms": 1000, "level": 8}
    -> {"move": 12, "states": 48211, "value": "draw", "elapsed_ms": 310.2, "source": "search"}
    {"variant": "ultimate", "moves": [41, 33], "query": "state"}
    -> {"to_move": "X", "legal": [...], "winner": null}
    {"variant": "connect-four", "columns": [4, 4, 5]}
    -> {"move": 3, "states": 7, "value": "win in 37", "proven": true, "elapsed_ms": 0.0, "source": "book"}

``value`` is ``"win in N"``, ``"loss in N"`` (N plies) or ``"draw"`` from the mover's point of view: on the solved
variants at level 8, on ultimate where the search proved it (and measured the distance in time), else ``null``;
``proven`` says whether ``value`` is exact. ``winner`` is ``"X"``, ``"O"``, ``"draw"`` or ``null``.

Every line gets one answer line, whatever it holds: bad input (not JSON, nested deeper than
:data:`MAX_DEPTH` brackets, longer than :data:`MAX_LINE_CHARS`, a field of the wrong type, an illegal move) is
answered with ``{"error": "...", "kind": "<engine error class>"}`` and the server keeps serving.

``level`` is 1-8 (default 8, the strongest; see :mod:`engine.levels`). ``budget_ms`` bounds the answer's wall time:
ultimate's search stops at it; the exact search of 4x4, 5x5 and Connect Four (instant in the opening book, minutes
on some positions outside it: 5x5, and Connect Four early off its book) stops itself when the budget, less
:data:`_FALLBACK_RESERVE_MS`, is spent (:meth:`engine.Variant.capped_move`), and the answer is then level 7's move
(a depth-limited search) with ``"source": "cut short"``, ``"value": null, "proven": false`` and ``states`` counting
every state both searches evaluated. A game whose exact search cannot stop itself (3x3's minimax) runs it in a
child process stopped at that time (:func:`engine.cli.deadline.within`): its count is lost, so that answer says
``"states": null`` (unknown), never a partial count.
``algorithm`` is one of the variant's searches (3x3: ``"alpha-beta"``, the default, or ``"minimax"``). A move the
game answers within the budget (:meth:`engine.Variant.answer_ms`: 3x3) is the game's own (:meth:`engine.Variant.play`),
the bot's: at level 8 the counted search, so ``states`` is the count the bot shows for that move and the size of the
tree ``python -m engine tree`` draws.
"""

from __future__ import annotations

import functools
import json
import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any, TextIO

from engine.cli.deadline import within
from engine.cli.numbering import read_request
from engine.errors import IllegalSequenceError, RequestError
from engine.levels import LEVELS, TOP, choose_move
from engine.protocol import Algorithm, EngineMove, GameValue, Mark
from engine.registry import variant
from engine.variants import Variant

__all__ = ["DEFAULT_BUDGET_MS", "MAX_DEPTH", "MAX_LINE_CHARS", "answer", "answer_line", "serve"]

DEFAULT_BUDGET_MS = 1000.0
MAX_LINE_CHARS = 1_000_000
"""The longest request line read (a request is well under 2,000 characters); a longer one is answered as an error."""
MAX_DEPTH = 32
"""The deepest nesting of brackets a request may have (a request nests two deep)."""
_FALLBACK_LEVEL = TOP - 1
_FALLBACK_RESERVE_MS = 150.0
"""What the exact search leaves of the budget for the child process's start and stop and level 7's move."""


def serve(stdin: TextIO, stdout: TextIO, *, rng: random.Random | None = None) -> int:
    """Answer every line of ``stdin`` on ``stdout`` (flushed per line); blank lines are skipped. Returns 0."""
    for line in _lines(stdin):
        if line.strip():
            stdout.write(answer_line(line, rng=rng) + "\n")
            stdout.flush()
    return 0


def _lines(stdin: TextIO) -> Iterator[str]:
    """The lines of ``stdin``, each cut at :data:`MAX_LINE_CHARS` + 1 characters (the rest of a longer line is read
    and dropped, never held)."""
    while line := stdin.readline(MAX_LINE_CHARS + 1):
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            while (rest := stdin.readline(MAX_LINE_CHARS)) and not rest.endswith("\n"):
                pass
        yield line


def answer_line(line: str, *, rng: random.Random | None = None) -> str:
    """The JSON answer to one JSON request line; never raises for bad input (it is answered as an error)."""
    if len(line) > MAX_LINE_CHARS:
        return _error(RequestError(f"the request is longer than {MAX_LINE_CHARS:,} characters"))
    if _depth(line) > MAX_DEPTH:
        return _error(RequestError(f"the request nests brackets deeper than {MAX_DEPTH}"))
    try:
        request = json.loads(line)
    except json.JSONDecodeError as err:
        return _error(RequestError(f"the request is not JSON: {err.msg} at column {err.colno}"))
    except (ValueError, RecursionError) as err:  # e.g. an integer of more than 4,300 digits
        return _error(RequestError(f"the request cannot be read: {err}"))
    try:
        return json.dumps(answer(request, rng=rng))
    except ValueError as err:
        return _error(err)
    except Exception as err:  # a fault of the engine's: answered all the same, and the server goes on
        return json.dumps({"error": f"the engine failed on this request: {err!r}", "kind": type(err).__name__})


def _depth(line: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``line`` outside strings (an upper bound: escapes are not read)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in line:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def answer(request: object, *, rng: random.Random | None = None) -> dict[str, Any]:
    """Answer one decoded request (see the module docstring).

    Raises:
        RequestError: not an object, or a field of the wrong type or value (:func:`engine.cli.numbering.read_request`).
        UnknownVariantError: ``variant`` is not one the engine plays.
        IllegalSequenceError: a move cannot be played (its message names it as the request did, its ``__cause__``
            says why).
        GameOverError: a move is asked for in a finished game.
    """
    if not isinstance(request, Mapping):
        raise RequestError(f"a request is a JSON object, not {request!r}")
    game = variant(request.get("variant"))
    numbering, moves = read_request(game, request)
    state = numbering.replay(moves)
    query = request.get("query", "bestmove")
    if query == "state":
        won = game.winner(state)
        return {
            "to_move": None if game.game.terminal(state) else game.game.player(state).value,
            "legal": numbering.legal(state),
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
    known = True
    if game.answer_ms(state, level, algorithm) <= budget:
        chosen = game.play(state, level, algorithm=algorithm, budget_ms=float(budget), rng=rng)
    elif game.exact and level == TOP:
        chosen, known = _exact_move(game, state, level, algorithm, float(budget), rng)
    else:
        chosen = choose_move(game.name, state, level, rng=rng, budget_ms=float(budget))
    return {
        "move": numbering.show(chosen.cell),
        "states": chosen.states if known else None,
        "value": None if chosen.value is None else describe(chosen.value),
        "proven": chosen.value is not None,
        "elapsed_ms": round(chosen.elapsed_ms, 1),
        "source": chosen.source,
    }


def _exact_move(
    game: Variant, state: Any, level: int, algorithm: Algorithm, budget_ms: float, rng: random.Random | None
) -> tuple[EngineMove, bool]:
    """``(move, states known)``: an exact search (which takes no budget) given the budget, less
    :data:`_FALLBACK_RESERVE_MS`. A search that stops itself (:meth:`engine.Variant.capped_move`) counts every state
    it evaluated, cut short or not. Otherwise it runs in a child process that is stopped when the time is up, and the
    move is then level 7's, cut short, its states unknown (``False``): the child's count dies with it."""
    started = time.perf_counter()
    cap_ms = max(budget_ms - _FALLBACK_RESERVE_MS, 0.0)
    seed = (rng or random.Random()).getrandbits(64)
    capped = game.capped_move(state, level, cap_ms, random.Random(seed))
    if capped is not None:
        return capped, True
    search = functools.partial(game.play, state, level, algorithm=algorithm, rng=random.Random(seed))
    exact = within(cap_ms, search)
    if exact is not None:
        return exact, True
    fallback = choose_move(game.name, state, _FALLBACK_LEVEL, rng=random.Random(seed))
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return replace(fallback, elapsed_ms=elapsed_ms, source="cut short"), cap_ms <= 0  # no child: nothing lost


def describe(value: GameValue) -> str:
    """``"win in N"``, ``"loss in N"`` or ``"draw"``."""
    return "draw" if value.result == "draw" else f"{value.result} in {value.plies}"


def _error(err: ValueError) -> str:
    cause = err.__cause__ if isinstance(err, IllegalSequenceError) and err.__cause__ is not None else err
    return json.dumps({"error": str(err), "kind": type(cause).__name__})
