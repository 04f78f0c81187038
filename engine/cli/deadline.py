"""A call that must end by a deadline although it cannot be interrupted: run it in a child process and stop the
child when the time is up (the exact solvers of 4x4 and 5x5 take no budget; the C kernel holds the GIL).

On Linux the child is forked, so it starts in a few milliseconds with the parent's loaded books and kernels.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, TypeVar

__all__ = ["within"]

T = TypeVar("T")

_STOP_SECONDS = 1.0
"""How long a stopped child may take to exit after SIGTERM before it is killed."""


def within(budget_ms: float, call: Callable[..., T], *args: Any) -> T | None:
    """``call(*args)`` if it returns within ``budget_ms`` (wall clock, the child's start included), else ``None``
    (the child is stopped). An exception ``call`` raises is raised here.

    Raises:
        Exception: what ``call`` raised (it must pickle, as the engine's errors do).
    """
    if budget_ms <= 0:
        return None
    methods = multiprocessing.get_all_start_methods()
    context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")  # typeshed: no Process
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_run, args=(sender, call, args), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(budget_ms / 1000.0):
            return None
        ok, outcome = receiver.recv()
    except EOFError:  # the child died without an answer
        return None
    finally:
        receiver.close()
        _stop(child)
    if not ok:
        raise outcome
    return outcome  # type: ignore[no-any-return]


def _run(sender: Connection, call: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        outcome = (True, call(*args))
    except Exception as exc:  # sent to the parent, which raises it
        outcome = (False, exc)
    sender.send(outcome)
    sender.close()


def _stop(child: multiprocessing.process.BaseProcess) -> None:
    if child.is_alive():
        child.terminate()
        child.join(_STOP_SECONDS)
        if child.is_alive():
            child.kill()
    child.join()
