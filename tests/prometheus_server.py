"""A throwaway Prometheus server for tests (Debian's ``prometheus`` package), on 127.0.0.1 only.

It scrapes the given targets every :data:`SCRAPE_MS` ms with a configuration and a data folder of its own,
and answers queries through its HTTP API (https://prometheus.io/docs/prometheus/latest/querying/api/).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path

__all__ = ["SCRAPE_MS", "PrometheusServer", "PrometheusServerError", "free_port"]

SCRAPE_MS = 500
_INSTALL_HINT = "install Debian's Prometheus (apt-get install -y prometheus) or set PROMETHEUS_BIN"


class PrometheusServerError(RuntimeError):
    """The server could not be started, or a query failed; the message says why (with the server's log)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def find_binary() -> str:
    """``$PROMETHEUS_BIN``, or ``prometheus`` on the PATH.

    Raises:
        PrometheusServerError: there is none.
    """
    found = os.environ.get("PROMETHEUS_BIN") or shutil.which("prometheus")
    if not found:
        raise PrometheusServerError(f"no prometheus binary found: {_INSTALL_HINT}")
    return found


class PrometheusServer:
    """Prometheus scraping ``targets`` (``host:port`` of ``/metrics``) as job ``ttt``; a context manager."""

    def __init__(self, targets: Sequence[str]) -> None:
        self.targets = list(targets)
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="ttt-prometheus-"))
        self.log_path = self.root / "prometheus.log"
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until ``/-/ready`` answers 200.

        Raises:
            PrometheusServerError: it exited or did not become ready in time (its log is in the message).
        """
        config = self.root / "prometheus.yml"
        scrape = {
            "global": {"scrape_interval": f"{SCRAPE_MS}ms", "evaluation_interval": f"{SCRAPE_MS}ms"},
            "scrape_configs": [{"job_name": "ttt", "static_configs": [{"targets": self.targets}]}],
        }
        config.write_text(json.dumps(scrape))  # JSON is YAML
        with self.log_path.open("wb") as log:
            self._proc = subprocess.Popen(
                [
                    find_binary(),
                    f"--config.file={config}",
                    f"--storage.tsdb.path={self.root / 'data'}",
                    f"--web.listen-address=127.0.0.1:{self.port}",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise PrometheusServerError(f"prometheus exited with {self._proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.url}/-/ready", timeout=1) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise PrometheusServerError(f"prometheus was not ready within {timeout} s:\n{self.log_tail()}")

    def query(self, expression: str) -> list[dict[str, object]]:
        """The result vector of an instant query (``[]`` when nothing matches).

        Raises:
            PrometheusServerError: the query failed.
        """
        url = f"{self.url}/api/v1/query?{urllib.parse.urlencode({'query': expression})}"
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                body = json.load(answer)
        except OSError as error:
            raise PrometheusServerError(f"query {expression!r} failed: {error}") from error
        if body.get("status") != "success":
            raise PrometheusServerError(f"query {expression!r}: {body}")
        result: list[dict[str, object]] = body["data"]["result"]
        return result

    def value(self, expression: str) -> float | None:
        """The single value of ``expression`` (``None`` when the result is empty)."""
        result = self.query(expression)
        if not result:
            return None
        assert len(result) == 1, result
        sample = result[0]["value"]
        assert isinstance(sample, list)
        return float(sample[1])

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server's log."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def close(self) -> None:
        """Stop the server and delete its folder."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PrometheusServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
