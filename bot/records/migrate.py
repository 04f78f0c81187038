"""Alembic, configured in code: the migration scripts ship inside this package (``bot/records/migrations``).

To write the next migration, copy ``versions/0001_create_games.py`` (or run
``alembic.command.revision(alembic_config(), "message")``), set ``down_revision`` to the previous head, and
change :mod:`bot.records.schema` to match; the tests check that the two agree.
"""

from __future__ import annotations

import logging
from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

__all__ = ["SCRIPT_LOCATION", "AtDebug", "alembic_config", "current_revision", "head_revision", "upgrade"]

SCRIPT_LOCATION: Final = "bot.records:migrations"
_MIGRATION_LOCK: Final = 0x7474_7265_636F_7264  # "ttrecord": the advisory lock key that serialises start-ups
_ALEMBIC_PROGRESS: Final = "alembic.runtime.migration"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config for this package's migrations, running on ``connection`` when one is given."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.set_main_option("path_separator", "os")
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest migration's revision id."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {SCRIPT_LOCATION}")
    return head


def current_revision(connection: Connection) -> str | None:
    """The revision the database behind ``connection`` is at (its ``alembic_version``), ``None`` before the first
    migration."""
    return MigrationContext.configure(connection).get_current_revision()


class AtDebug(logging.Filter):
    """Lowers a logger's INFO records to DEBUG, kept only where DEBUG is enabled: Alembic's progress lines ("Context
    impl SQLiteImpl.", one "Running upgrade" per migration) are detail for a developer, not for every start-up."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite an INFO record as DEBUG in place; drop it unless its logger is enabled for DEBUG."""
        if record.levelno != logging.INFO:
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def upgrade(connection: Connection) -> tuple[str | None, str | None]:
    """Apply every migration not yet applied (``alembic upgrade head``) inside ``connection``'s transaction, its
    progress logged at DEBUG (:class:`AtDebug`); returns the revisions before and after (``None``: none yet).

    On PostgreSQL a transaction-level advisory lock makes bot processes that start together (one per
    group of shards) migrate one after the other; the later ones find nothing left to do.
    """
    progress = logging.getLogger(_ALEMBIC_PROGRESS)
    if not any(isinstance(f, AtDebug) for f in progress.filters):
        progress.addFilter(AtDebug())
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    before = current_revision(connection)
    command.upgrade(alembic_config(connection), "head")
    return before, current_revision(connection)
