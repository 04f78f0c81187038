"""How the benchmarks start a bot: the launcher every bot process runs, and its environment.

Every bot (ours, the floor of ``testing/floor_bot.py``, the minimal bot of ``testing/minimal_bot.py``) runs from
:data:`LAUNCHER` (``python -c``), which calls its real entry point after setting the logger of the bot's
event-loop lag monitor (``bot.ops.loop_lag``, or ``bot.loop_lag`` in a checkout from before issue 28) to INFO, so our
bot can run at LOG_LEVEL=WARNING and still report its lag.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from testing.fake_discord import FakeDiscord

__all__ = ["FLOOR_BOT", "LAUNCHER", "MINIMAL_BOT", "ROOT", "bot_env", "checkout_name"]

ROOT = Path(__file__).resolve().parents[2]
"""This checkout."""
FLOOR_BOT = ROOT / "testing" / "floor_bot.py"
MINIMAL_BOT = ROOT / "testing" / "minimal_bot.py"

# Both bots start from this launcher. It changes nothing in the product: it sets the loop-lag logger to INFO
# (LOG_LEVEL only sets the root logger), optionally swaps in a diagnostic executor or cProfile, and calls the
# real entry point, which stops cleanly on SIGINT (so a profile gets dumped).
LAUNCHER = """\
import logging, os, sys
try:
    from bot.ops.loop_lag import LoopLagMonitor
except ModuleNotFoundError:  # a checkout from before issue 28 (--bot-root): the monitor was bot/loop_lag.py
    from bot.loop_lag import LoopLagMonitor
lag_log = logging.getLogger(LoopLagMonitor.__module__)
lag_log.setLevel(logging.INFO)
reference = os.environ.get("TTT_BENCH_REFERENCE")  # the floor or the minimal bot: a module with CLIENT and main()
if reference:
    import importlib
    lag_log.addHandler(logging.StreamHandler())  # run() configures only "discord"
    sys.path.insert(0, os.path.dirname(reference))
    module = importlib.import_module(os.path.splitext(os.path.basename(reference))[0])
    hook = module.CLIENT.setup_hook
    async def setup_hook(self):
        self.loop_lag = LoopLagMonitor(report_every=float(os.environ["TTT_LAG_REPORT_SECONDS"]))
        self.loop_lag.start()
        await hook(self)
    module.CLIENT.setup_hook = setup_hook
    sys.argv = [reference, *os.environ.get("TTT_BENCH_ARGS", "").split()]
    def entry():
        module.main()
        return 0
else:
    from bot.__main__ import main
    if os.environ.get("TTT_BENCH_INLINE_SEARCH"):
        import concurrent.futures, bot.client
        class Inline(concurrent.futures.Executor):
            def submit(self, fn, /, *args, **kwargs):
                future = concurrent.futures.Future()
                future.set_result(fn(*args, **kwargs))
                return future
        bot.client.search_executor = bot.client.fast_executor = Inline
    def entry():
        return main([])
snapshots = os.environ.get("TTT_BENCH_SNAPSHOTS")
if snapshots:
    import gc, signal, tracemalloc
    tracemalloc.start(1)
    def snapshot(signum, frame):
        name = open(os.path.join(snapshots, "next")).read()
        gc.collect()  # discord.py's views and items form cycles: count what is kept, not what awaits collection
        tracemalloc.take_snapshot().dump(os.path.join(snapshots, name + ".tmp"))
        os.rename(os.path.join(snapshots, name + ".tmp"), os.path.join(snapshots, name + ".snapshot"))
    signal.signal(signal.SIGUSR1, snapshot)
path = os.environ.get("TTT_BENCH_PROFILE")
if not path:
    sys.exit(entry())
import cProfile
profile = cProfile.Profile()
status = profile.runcall(entry)
profile.dump_stats(path)
sys.exit(status)
"""


def bot_env(fake: FakeDiscord, extra: dict[str, str], root: Path = ROOT) -> dict[str, str]:
    """The environment of a bot subprocess pointed at ``fake``: ``root`` (a checkout, this one by default) first on
    ``PYTHONPATH``, so its ``bot`` and ``engine`` packages are imported rather than the editable install's (which
    may be another worktree), in the bot and in its spawned search workers; then ``extra``."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k in keep}
    path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
    return {**env, "PYTHONPATH": path, **fake.env(), "TTT_LAG_REPORT_SECONDS": "1", **extra}


def checkout_name(root: Path) -> str:
    """A checkout's short commit (``git rev-parse --short HEAD``), with ``+`` when its tracked files differ from it;
    its folder's name when git cannot tell."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD"], check=False).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return root.name
    return commit + ("+" if changed else "")
