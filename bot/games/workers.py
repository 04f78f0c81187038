"""Search workers (and the drawing process): child processes that die with the bot and run on idle cores.

- **Dying with the parent** (:func:`die_with_parent`): a process killed with SIGKILL (the OOM killer, a process
  manager's last resort) runs no cleanup, so the search workers of its process pools and the ``multiprocessing``
  resource tracker would be left running with no parent. On Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks the
  kernel to kill the calling process when the thread that created it exits (prctl(2)); each worker sets it in its
  pool initializer. The resource tracker exits by itself once every process holding its pipe (the bot and its
  workers) is gone.
- **Idle cores only** (:func:`run_when_idle`): the workers do their work off the event loop, but on a machine whose
  cores are all busy they still compete with it for a core: an answer to a press would wait behind a second-long
  search or a picture. Under Linux's ``SCHED_IDLE`` policy (sched(7)) a process runs only on a core that no normal
  process wants, and a normal process that wakes up takes the core from it at once. Lowering one's own priority
  needs no privilege.

Standard library only: spawned workers import this module before anything else runs in them.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

__all__ = ["PR_SET_PDEATHSIG", "die_with_parent", "run_when_idle", "set_parent_death_signal"]

PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>."""


def set_parent_death_signal(signum: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``signum`` to this process when its parent exits; returns False where prctl(2) is
    not available (not Linux), True once it is set.

    Raises:
        OSError: prctl(2) refused (it never does for a valid signal number).
    """
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, ctypes.c_ulong(signum), 0, 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"prctl(PR_SET_PDEATHSIG): {os.strerror(errno)}")
    return True


def die_with_parent(parent_pid: int) -> None:
    """A process pool's ``initializer``: the worker is killed when the process ``parent_pid`` exits.

    The parent may have died between spawning the worker and this call, before the death signal was armed:
    the worker then finds that it has been re-parented and exits at once.
    """
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)


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
