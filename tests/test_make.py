"""The Makefile's two commands: `make run` installs the runtime lock only, `make test` adds the development lock;
both build the C kernels with the hash-pinned setuptools, never an unpinned one (read from `make -n`, which runs
nothing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def planned(target: str, tmp_path: Path) -> str:
    if shutil.which("make") is None:
        pytest.fail("make is needed (the README's two commands are make targets)")
    done = subprocess.run(
        ["make", "-n", "-B", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_make_run_installs_the_runtime_lock_only(tmp_path: Path) -> None:
    plan = planned("run", tmp_path)
    assert "--require-hashes -r requirements-build.txt -r requirements.txt" in plan
    assert "requirements-dev.txt" not in plan
    assert "--no-deps --no-build-isolation -e ." in plan


def test_make_test_adds_the_development_lock(tmp_path: Path) -> None:
    plan = planned("test", tmp_path)
    assert (
        "-r requirements.txt" in plan and "--require-hashes -r requirements-build.txt -r requirements-dev.txt" in plan
    )
    assert plan.index("-r requirements.txt") < plan.index("-r requirements-dev.txt")


def test_setuptools_is_pinned_by_hash() -> None:
    lines = (ROOT / "requirements-build.txt").read_text().splitlines()
    pins = [line for line in lines if line.startswith("setuptools==")]
    assert len(pins) == 1 and "--hash=sha256:" in lines[lines.index(pins[0]) + 1]
