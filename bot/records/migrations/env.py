"""Alembic environment: runs the migrations on the connection that :func:`bot.records.migrate.upgrade` passes."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from bot.records.schema import metadata


def run_migrations(connection: Connection) -> None:
    """Run the pending migrations in the connection's transaction (batch mode on SQLite, for ALTER TABLE)."""
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


_connection = context.config.attributes.get("connection")
if not isinstance(_connection, Connection):
    raise RuntimeError("run the records migrations through bot.records.migrate.upgrade(), which passes a connection")
run_migrations(_connection)
