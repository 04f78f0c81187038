"""CPU and memory of a process tree, read from ``/proc`` (Linux).

CPU is utime + stime from ``/proc/<pid>/stat`` (proc(5)); descendants are found by scanning the parent pid of every
``/proc/<pid>/stat``, since this kernel has no ``/proc/<pid>/task/<tid>/children``.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cpu_seconds", "descendants", "status_kb"]

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[int, float] | None:
    """``(ppid, utime + stime in seconds)`` of a process, or ``None`` when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # fields[0] is field 3 (state) of proc(5)
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLK_TCK


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid``, found by scanning the parent pid of every process in ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            children.setdefault(stat[0], []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of ``pid`` and of each of its live descendants, by pid."""
    out: dict[int, float] = {}
    for p in (pid, *descendants(pid)):
        stat = _stat(p)
        if stat is not None:
            out[p] = stat[1]
    return out


def status_kb(pid: int, key: str) -> int:
    """A ``kB`` field of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``); 0 when the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0
