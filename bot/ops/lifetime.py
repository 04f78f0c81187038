"""Child processes that die with their parent, even when the parent is killed with SIGKILL.

A process killed with SIGKILL (the OOM killer, a process manager's last resort) runs no cleanup, so the
search workers of its process pools and the ``multiprocessing`` resource tracker would be left running with
no parent. On Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` asks the kernel to kill the calling process when the
thread that created it exits (prctl(2)); each worker sets it in its pool initializer. The resource tracker
exits by itself once every process holding its pipe (the bot and its workers) is gone.

Standard library only: spawned workers import this module before anything else runs in them.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

__all__ = ["PR_SET_PDEATHSIG", "die_with_parent", "set_parent_death_signal"]

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
