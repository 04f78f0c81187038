"""The one error the records store raises when its database cannot be used, and how failures are told apart."""

from __future__ import annotations

from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL

__all__ = ["RecordsUnavailableError", "describe", "is_transient", "shown_url"]


class RecordsUnavailableError(RuntimeError):
    """The records database cannot be reached or used right now.

    The message is one line and shows the database URL with its password hidden, so it can be printed or
    logged as it is.
    """


def shown_url(url: URL) -> str:
    """``url`` as text with the password replaced by ``***``."""
    return url.render_as_string(hide_password=True)


def describe(exc: BaseException, password: str | None = None) -> str:
    """One line naming the driver's own error under ``exc``, e.g. ``"ConnectionRefusedError: [Errno 111] ..."``.

    SQLAlchemy's wrapper text (the SQL, its parameters, a link) is left out; ``password``, when given, is
    replaced by ``***`` wherever it appears.
    """
    root = _root_cause(exc)
    lines = [line.strip() for line in str(root).splitlines() if line.strip()]
    text = f"{type(root).__name__}: {lines[0]}" if lines else type(root).__name__
    if password:
        text = text.replace(password, "***")
    return text


def is_transient(exc: BaseException) -> bool:
    """True for a failure that may pass once the database is back: anything from the database or the network
    except data the database refuses (an integrity or data error), which no retry can fix."""
    if isinstance(exc, sa_exc.IntegrityError | sa_exc.DataError):
        return False
    return isinstance(exc, sa_exc.SQLAlchemyError | OSError)


def _root_cause(exc: BaseException) -> BaseException:
    seen = {id(exc)}
    while True:
        inner = exc.orig if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None else exc.__cause__
        if inner is None or id(inner) in seen:
            return exc
        seen.add(id(inner))
        exc = inner
