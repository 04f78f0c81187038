"""A throwaway PostgreSQL server for tests: its own cluster in a temporary folder, on 127.0.0.1 only.

``initdb`` creates the cluster with password (SCRAM) authentication for one superuser; ``pg_ctl`` starts it on
a free port with durability turned off (``fsync``, ``synchronous_commit``, ``full_page_writes``) for speed.
PostgreSQL refuses to run as root, so when the tests run as root the server commands run as the ``postgres``
user (``runuser``) and the folder belongs to that user.

:meth:`PostgresServer.stop` and :meth:`PostgresServer.start` take the server away and bring it back on the
same port with the same data, as a database outage would.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

__all__ = ["PostgresServer", "PostgresServerError", "find_bin_dir"]

_INSTALL_HINT = "install Debian's PostgreSQL server (apt-get install -y postgresql) or set PG_BIN_DIR"


class PostgresServerError(RuntimeError):
    """The test server could not be created, started or stopped; the message says which command failed."""


def find_bin_dir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``: ``$PG_BIN_DIR`` when set, else the newest
    ``/usr/lib/postgresql/N/bin`` (Debian's layout).

    Raises:
        PostgresServerError: no PostgreSQL server binaries were found.
    """
    configured = os.environ.get("PG_BIN_DIR")
    if configured:
        candidates = [Path(configured)]
    else:
        versions = Path("/usr/lib/postgresql").glob("*/bin")
        candidates = sorted(versions, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    raise PostgresServerError(f"no PostgreSQL server binaries (initdb, pg_ctl) found: {_INSTALL_HINT}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """One PostgreSQL cluster for a test session. Call :meth:`start` first and :meth:`close` at the end.

    ``url`` (after :meth:`start`) is a ``postgresql://`` URL of the ``postgres`` database with the password in
    it; :meth:`create_database` makes a fresh empty database and returns its URL.
    """

    def __init__(self, bin_dir: Path | None = None, user: str = "ttt") -> None:
        self.bin_dir = bin_dir
        self.user = user
        self.password = "pw-" + secrets.token_hex(12)
        self.port: int | None = None
        self.root: Path | None = None
        self._databases = 0

    @property
    def data_dir(self) -> Path:
        """The cluster's data folder."""
        if self.root is None:
            raise PostgresServerError("the server has not been created; call start() first")
        return self.root / "data"

    @property
    def log_path(self) -> Path:
        """The server's log file."""
        return self.data_dir.parent / "server.log"

    @property
    def running(self) -> bool:
        """True while the postmaster is up (``pg_ctl status``)."""
        if self.root is None:
            return False
        return self._server_command(["pg_ctl", "status", "-D", str(self.data_dir)], check=False).returncode == 0

    def url_for(self, database: str) -> str:
        """The URL of ``database`` on this server, password included."""
        if self.port is None:
            raise PostgresServerError("the server has not been started")
        return f"postgresql://{self.user}:{self.password}@127.0.0.1:{self.port}/{database}"

    @property
    def url(self) -> str:
        """The URL of the ``postgres`` database, password included."""
        return self.url_for("postgres")

    def start(self, timeout: float = 60.0) -> None:
        """Create the cluster on first use, then start the server and wait until it accepts connections.

        Raises:
            PostgresServerError: a command failed (its output and the server log's tail are in the message).
        """
        if self.root is None:
            self._create()
        if self.running:
            return
        self._server_command(
            ["pg_ctl", "start", "-w", "-t", str(round(timeout)), "-D", str(self.data_dir), "-l", str(self.log_path)]
        )

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: disconnect clients and shut down cleanly; ``immediate``: as a crash).

        Raises:
            PostgresServerError: ``pg_ctl stop`` failed.
        """
        if self.running:
            self._server_command(["pg_ctl", "stop", "-w", "-m", mode, "-D", str(self.data_dir)])

    @contextlib.contextmanager
    def down(self, mode: str = "fast") -> Iterator[None]:
        """Within the block the server is stopped; it is started again afterwards, even on an error."""
        self.stop(mode)
        try:
            yield
        finally:
            self.start()

    def create_database(self, name: str | None = None) -> str:
        """Create an empty database (named ``name``, or ``test_<n>``) and return its URL.

        Raises:
            PostgresServerError: ``createdb`` failed.
        """
        if name is None:
            self._databases += 1
            name = f"test_{os.getpid()}_{self._databases}"
        assert self.port is not None
        self._run(
            [str(self._bin("createdb")), "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, name],
            env={**self._client_env(), "PGPASSWORD": self.password},
        )
        return self.url_for(name)

    def close(self) -> None:
        """Stop the server (if it runs) and delete its folder."""
        if self.root is None:
            return
        try:
            if self.running:
                self._server_command(["pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.data_dir)], check=False)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None
            self.port = None

    def log_tail(self, lines: int = 30) -> str:
        """The last ``lines`` lines of the server log."""
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"

    def _create(self) -> None:
        if self.bin_dir is None:
            self.bin_dir = find_bin_dir()
        owner = self._owner()
        self.root = Path(tempfile.mkdtemp(prefix="ttt-pg-"))
        atexit.register(self.close)
        password_file = self.root / "password"
        password_file.write_text(self.password + "\n")
        if owner is not None:
            shutil.chown(self.root, owner.pw_uid, owner.pw_gid)
            shutil.chown(password_file, owner.pw_uid, owner.pw_gid)
        self._server_command(
            [
                "initdb",
                "-D",
                str(self.data_dir),
                f"--username={self.user}",
                f"--pwfile={password_file}",
                "--auth=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            ]
        )
        password_file.unlink()
        self.port = _free_port()
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.root}'",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "50",
        }
        with (self.data_dir / "postgresql.conf").open("a") as conf:
            conf.write("\n# tests/pg_server.py\n")
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())

    @staticmethod
    def _owner() -> pwd.struct_passwd | None:
        if os.geteuid() != 0:
            return None
        try:
            return pwd.getpwnam("postgres")
        except KeyError:
            raise PostgresServerError(
                f"running as root, but there is no 'postgres' user to run the server as: {_INSTALL_HINT}"
            ) from None

    def _bin(self, name: str) -> Path:
        assert self.bin_dir is not None
        return self.bin_dir / name

    def _server_command(self, args: Sequence[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self._bin(args[0])), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        return self._run(command, check=check)

    def _client_env(self) -> dict[str, str]:
        return {key: value for key, value in os.environ.items() if not key.startswith("PG")}

    def _run(
        self, command: Sequence[str], *, check: bool = True, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                env=self._client_env() if env is None else env,
                cwd=self.root or "/",
                timeout=120,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PostgresServerError(f"`{' '.join(command)}` could not run: {exc}; {_INSTALL_HINT}") from exc
        if check and done.returncode != 0:
            output = (done.stdout + done.stderr).strip()
            shown = " ".join(command).replace(self.password, "***")
            raise PostgresServerError(
                f"`{shown}` exited with status {done.returncode}:\n{output}\n--- server log ---\n{self.log_tail()}"
            )
        return done
