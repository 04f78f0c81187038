"""A child process that gets a core only when nothing of normal priority wants it.

The search workers and the drawing process do their work off the event loop, but on a machine whose cores are all
busy they still compete with it for a core: an answer to a press would wait behind a second-long search or a
picture. Under Linux's ``SCHED_IDLE`` policy (sched(7)) a process runs only on a core that no normal process wants,
and a normal process that wakes up takes the core from it at once. Lowering one's own priority needs no privilege.

Standard library only: spawned workers import this module before anything else runs in them.
"""

from __future__ import annotations

import os

__all__ = ["run_when_idle"]


def run_when_idle(niceness: int) -> bool:
    """Lower this process's priority: ``niceness`` more (``os.nice``) and, where the system has it (Linux),
    ``SCHED_IDLE``; returns whether ``SCHED_IDLE`` was set.

    Raises:
        OSError: the system refused (lowering one's own priority is always allowed).
    """
    os.nice(niceness)
    if not hasattr(os, "SCHED_IDLE"):
        return False
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    return True
