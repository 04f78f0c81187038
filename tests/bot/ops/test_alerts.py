"""The alert rules in ``prometheus/alerts.yml``: promtool accepts them, and each fires on the series it is for.

promtool comes with Debian's ``prometheus`` package (``.ci/run`` installs it); without it these tests fail.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "prometheus" / "alerts.yml"
UNIT_TESTS = Path(__file__).with_name("alerts_test.yml")


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("promtool")
    if tool is None:
        pytest.fail("promtool is missing: install Debian's prometheus package (apt-get install -y prometheus)")
    return subprocess.run([tool, *args], capture_output=True, text=True, timeout=60, check=False)


def test_promtool_checks_the_rules() -> None:
    done = promtool("check", "rules", str(RULES))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "SUCCESS: 7 rules found" in done.stdout


def test_each_alert_fires_on_its_series_and_only_there() -> None:
    done = promtool("test", "rules", str(UNIT_TESTS))
    assert done.returncode == 0, done.stdout + done.stderr
