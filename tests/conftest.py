"""Fixtures shared by every test folder: a real PostgreSQL server for the session (started on first use); the tests
marked ``spec`` (they need Discord's OpenAPI specification) are skipped, with one line saying how to enable them,
in a clone without it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from testing.fake_discord import SPEC_MISSING, spec_or_none
from tests.pg_server import PostgresServer, PostgresServerError


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The one line a run without Discord's specification prints (CI has it: ``../shared``), ``-q`` included."""
    if spec_or_none() is None:
        terminalreporter.write_line(SPEC_MISSING)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the tests marked ``spec`` when the specification is absent."""
    if spec_or_none() is None:
        skip = pytest.mark.skip(reason=SPEC_MISSING)
        for item in items:
            if item.get_closest_marker("spec") is not None:
                item.add_marker(skip)


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
