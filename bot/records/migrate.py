"""Alembic, configured in code: the migration scripts ship inside this package (``bot/records/migrations``).

To write the next migration, copy ``versions/0001_create_games.py`` (or run
``alembic.command.revision(alembic_config(), "message")``), set ``down_revision`` to the previous head, and
change :mod:`bot.records.schema` to match; the tests check that the two agree.
"""

from __future__ import annotations

from typing import Final

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection

__all__ = ["SCRIPT_LOCATION", "alembic_config", "head_revision", "upgrade"]

SCRIPT_LOCATION: Final = "bot.records:migrations"
_MIGRATION_LOCK: Final = 0x7474_7265_636F_7264  # "ttrecord": the advisory lock key that serialises start-ups


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


def upgrade(connection: Connection) -> None:
    """Apply every migration not yet applied (``alembic upgrade head``) inside ``connection``'s transaction.

    On PostgreSQL a transaction-level advisory lock makes bot processes that start together (one per
    group of shards) migrate one after the other; the later ones find nothing left to do.
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    command.upgrade(alembic_config(connection), "head")
