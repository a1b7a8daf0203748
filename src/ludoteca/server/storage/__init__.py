"""Storage of tables, seats and accepted actions behind one async protocol.

``open_storage(url)`` gives the store for a URL: ``sqlite:///file`` or ``postgresql://…`` (the SQL
store, its schema brought to head by the migrations when it is empty) or ``memory://`` (the
in-memory store, for tests). See docs/storage.md.
"""

from __future__ import annotations

from .contract import Storage
from .engine import engine_for
from .memory import MemoryStorage
from .migrate import DatabaseError, SchemaBehind, prepare
from .rows import (
    DONE,
    FAILED,
    MAX_PAGE,
    ActionRow,
    AnalysisRow,
    Append,
    Census,
    ConflictError,
    RematchRow,
    SeatRow,
    TablePage,
    TableRow,
)
from .sql import SqlStorage

__all__ = [
    "DONE",
    "FAILED",
    "MAX_PAGE",
    "ActionRow",
    "AnalysisRow",
    "Append",
    "Census",
    "ConflictError",
    "DatabaseError",
    "MemoryStorage",
    "RematchRow",
    "SchemaBehind",
    "SeatRow",
    "SqlStorage",
    "Storage",
    "TablePage",
    "TableRow",
    "open_storage",
]


def open_storage(url: str, *, upgrade: bool = False, label: str | None = None) -> Storage:
    """The store for ``url``. An empty database is created at the newest schema; one at an older
    revision raises SchemaBehind unless ``upgrade`` (then it is upgraded). ValueError for a URL
    that names no store we have. ``label`` names a server process's sessions (``engine_for``)."""
    if url.startswith("memory://"):
        if url != "memory://":
            raise ValueError(f"the in-memory store takes no path: use memory://, not {url!r}")
        return MemoryStorage()
    engine = engine_for(url, label)
    try:
        prepare(engine, upgrade=upgrade, url=url)
    except BaseException:
        engine.dispose()
        raise
    return SqlStorage(engine)
