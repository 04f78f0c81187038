"""``DATABASE_URL`` resolved to the SQLAlchemy URL of an async driver.

- unset or empty: SQLite at ``data/ttt.sqlite3`` under the working directory;
- ``sqlite:///relative/path`` or ``sqlite:////absolute/path``: SQLite there (``sqlite+aiosqlite``);
- ``postgresql://...`` or Heroku's ``postgres://...``: PostgreSQL (``postgresql+asyncpg``). A libpq-style
  ``?sslmode=require`` becomes asyncpg's ``?ssl=require``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from bot.records.errors import RecordsUnavailableError

__all__ = ["DEFAULT_SQLITE_PATH", "database_url", "sqlite_path"]

DEFAULT_SQLITE_PATH: Final = Path("data") / "ttt.sqlite3"
"""Where the records go when ``DATABASE_URL`` is unset, relative to the working directory."""

_FORMS = "sqlite:///path, postgresql://user:password@host/db or postgres://user:password@host/db"


def database_url(raw: str | None, cwd: Path | None = None) -> URL:
    """The async-driver URL for ``DATABASE_URL`` text ``raw``; SQLite paths are made absolute against ``cwd``
    (default: the working directory).

    Raises:
        RecordsUnavailableError: ``raw`` is not a URL, or names a database other than SQLite or PostgreSQL
            (the message never contains the password).
    """
    base = Path.cwd() if cwd is None else cwd
    text = (raw or "").strip()
    if not text:
        return URL.create("sqlite+aiosqlite", database=str(base / DEFAULT_SQLITE_PATH))
    try:
        url = make_url(text)
    except ArgumentError:
        raise RecordsUnavailableError(f"DATABASE_URL is not a database URL; expected {_FORMS}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        database = url.database or ""
        if database in ("", ":memory:") or database.startswith("file:"):
            raise RecordsUnavailableError(
                f"DATABASE_URL {url.render_as_string(hide_password=True)!r} names no SQLite file; "
                "use sqlite:///relative/path or sqlite:////absolute/path"
            )
        return url.set(drivername="sqlite+aiosqlite", database=str(base / database))
    if backend in ("postgresql", "postgres"):
        url = url.set(drivername="postgresql+asyncpg")
        if "sslmode" in url.query:
            url = url.update_query_dict({"ssl": url.query["sslmode"]}).difference_update_query(["sslmode"])
        return url
    raise RecordsUnavailableError(
        f"DATABASE_URL {url.render_as_string(hide_password=True)!r} is not supported; expected {_FORMS}"
    )


def sqlite_path(url: URL) -> Path | None:
    """The database file of a SQLite ``url`` from :func:`database_url`, or ``None`` for PostgreSQL."""
    if url.get_backend_name() != "sqlite" or not url.database:
        return None
    return Path(url.database)
