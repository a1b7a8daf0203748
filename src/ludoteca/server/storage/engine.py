"""The database engine for a URL: SQLite (a file, WAL journal) or PostgreSQL (psycopg 3)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import ArgumentError

from .statements import LABEL


def engine_for(url: str, label: str | None = None) -> Engine:
    """An engine for ``url``; ``postgresql://`` uses psycopg 3, SQLite gets WAL and a busy wait.

    With ``label`` (a server process: its Redis prefix, digested), every PostgreSQL session is
    named ``ludoteca <database and schema, digested> <label>`` (``application_name``), so each
    process can see which others serve the same tables, and whether they agree (``census``).
    ValueError for a URL that is neither SQLite nor PostgreSQL.
    """
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if not path or path == ":memory:":
            raise ValueError("an SQLite database needs a file: sqlite:///path/to/file.sqlite3")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # a commit survives a killed process
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    if not url.startswith("postgresql+psycopg://"):
        raise ValueError(
            f"unknown database URL {url!r}: use sqlite:///path/file.sqlite3, "
            "postgresql://user@host/database or memory://"
        )
    try:
        engine = create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True)
    except ArgumentError as exc:
        raise ValueError(f"bad database URL: {exc}") from None
    if label is not None:

        @event.listens_for(engine, "connect")
        def _name(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(
                "SELECT set_config('application_name', " + LABEL + "%s, false)", (label,)
            )
            cursor.close()
            dbapi_connection.commit()  # a setting made in a transaction rolled back is undone

    return engine
