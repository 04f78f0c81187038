"""Fixtures shared by every test folder: a real PostgreSQL server for the session (started on first use)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pg_server import PostgresServer, PostgresServerError


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server on 127.0.0.1 with password authentication, stopped and deleted at the session's end.

    A test that needs it fails (never skips) when the server cannot be started.
    """
    server = PostgresServer()
    try:
        server.start()
        problem = None
    except PostgresServerError as exc:
        server.close()
        problem = str(exc)
    if problem is not None:
        pytest.fail(f"the test PostgreSQL server could not be started: {problem}", pytrace=False)
    yield server
    server.close()
