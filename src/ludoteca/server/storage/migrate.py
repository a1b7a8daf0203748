"""Schema migrations (Alembic): which revision a database is at, and bringing it to the newest.

The revisions ship inside the package (``ludoteca/server/migrations/versions``). The server made
its schema with ``create_all`` before migrations existed, in two shapes: revision 0001, and 0002
once tables had a record format. A database made then — its tables present, no ``alembic_version``
table — counts as the revision whose shape it has and upgrades like any other.

A database is *empty* (none of the server's tables: it is created at head without asking),
*current* (at head), *behind* (an older revision, or made before migrations: the server refuses
to start until ``ludoteca db upgrade`` or ``ludoteca serve --upgrade``), or *unknown* (a revision
this version of ludoteca does not have, e.g. written by a newer one: refused).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import inspect, make_url, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, DBAPIError

from .engine import engine_for

SCRIPTS = "ludoteca.server:migrations"
FIRST = "0001"  # the schema of a database made before migrations (by ``create_all``),
WITH_FORMATS = "0002"  # or this one when its tables have a ``format`` column
TABLES = frozenset({"tables", "seats", "actions"})
_LOCK = 0x6C75646F  # PostgreSQL advisory lock: one process migrates at a time


class DatabaseError(Exception):
    """The database cannot be served as it is (unreachable, or not at this code's schema)."""


class SchemaBehind(DatabaseError):
    """The database is at an older revision: ``ludoteca db upgrade`` brings it to head."""


@dataclass(frozen=True, slots=True)
class Revision:
    """Where a database stands: its revision (None when it records none) and the head's."""

    current: str | None
    head: str
    unversioned: str | None = None  # made before migrations: the revision whose schema it has

    @property
    def empty(self) -> bool:
        return self.current is None and self.unversioned is None

    def describe(self) -> str:
        if self.unversioned is not None:
            return (
                f"{self.unversioned} (made before migrations, not recorded yet; "
                f"head is {self.head})"
            )
        if self.empty:
            return f"empty (no tables yet; head is {self.head})"
        if self.current == self.head:
            return f"{self.current} (head)"
        return f"{self.current} (head is {self.head})"


def alembic_config(conn: Connection | None = None) -> Config:
    """Alembic's configuration for the package's revisions, run on ``conn`` when given."""
    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    if conn is not None:
        config.attributes["connection"] = conn
    return config


def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config())


def head() -> str:
    found = scripts().get_current_head()
    assert found is not None, "the migrations have one head"
    return found


def shown(url: str) -> str:
    """The URL as it may be printed (no password)."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def revision_of(conn: Connection) -> Revision:
    """Where the database behind ``conn`` stands; DatabaseError if it is not one we can serve."""
    current = MigrationContext.configure(conn).get_current_revision()
    newest = head()
    if current is not None:
        try:
            scripts().get_revision(current)
        except CommandError:
            raise DatabaseError(
                f"the database is at schema revision {current}, which this version of ludoteca "
                f"does not know (its newest is {newest}): was it upgraded by a newer version?"
            ) from None
        return Revision(current, newest)
    present = TABLES & set(inspect(conn).get_table_names())
    if not present:
        return Revision(None, newest)
    if present != TABLES:
        raise DatabaseError(
            f"the database has the tables {sorted(present)} but not {sorted(TABLES - present)} "
            "and no schema revision: it is not a ludoteca database, or a damaged one"
        )
    columns = {c["name"] for c in inspect(conn).get_columns("tables")}
    return Revision(None, newest, WITH_FORMATS if "format" in columns else FIRST)


def _upgrade(conn: Connection, before: Revision) -> None:
    config = alembic_config(conn)
    if before.unversioned is not None:
        command.stamp(config, before.unversioned)
    command.upgrade(config, "head")


def prepare(engine: Engine, *, upgrade: bool, url: str) -> tuple[Revision, Revision]:
    """Make the database servable: create an empty one at head, upgrade one that is behind when
    ``upgrade`` is true (SchemaBehind when not). Returns where it stood before and after."""
    try:
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
            before = revision_of(conn)
            if before.current == before.head:
                return before, before
            if not before.empty and not upgrade:
                raise SchemaBehind(
                    f"the database {shown(url)} is at schema revision {before.describe()}: "
                    f"upgrade it with `ludoteca db upgrade --db {shown(url)}` (back it up first), "
                    "or start the server with `ludoteca serve --upgrade`"
                )
            _upgrade(conn, before)
            return before, revision_of(conn)
    except DBAPIError as exc:
        raise DatabaseError(f"cannot use the database {shown(url)}: {exc.orig}") from None


def prepare_url(url: str, *, upgrade: bool) -> tuple[Revision, Revision]:
    """``prepare`` for the database at ``url`` (DatabaseError for a URL that names none)."""
    engine = _engine(url)
    try:
        return prepare(engine, upgrade=upgrade, url=url)
    finally:
        engine.dispose()


def upgrade_url(url: str) -> tuple[Revision, Revision, float]:
    """``ludoteca db upgrade``: bring the database at ``url`` to head; where it stood before and
    after, and the seconds it took."""
    started = time.perf_counter()
    before, after = prepare_url(url, upgrade=True)
    return before, after, time.perf_counter() - started


def current_url(url: str) -> Revision:
    """``ludoteca db current``: where the database at ``url`` stands (nothing changed)."""
    if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).is_file():
        raise DatabaseError(f"there is no database file at {url.removeprefix('sqlite:///')}")
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return revision_of(conn)
    except DBAPIError as exc:
        raise DatabaseError(f"cannot use the database {shown(url)}: {exc.orig}") from None
    finally:
        engine.dispose()


def _engine(url: str) -> Engine:
    if url.startswith("memory://"):
        raise DatabaseError("memory:// lives in one process and has no schema to migrate")
    try:
        return engine_for(url)
    except ValueError as exc:
        raise DatabaseError(str(exc)) from None


def new_revision(message: str, directory: Path | None = None) -> Path:
    """Write the next revision, its operations filled in from what ``storage/schema/`` has and a
    database at the current head lacks; review and complete it before committing (docs/storage.md).
    ``directory``: where to write it (default: the package's ``versions``)."""
    previous = head()
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite:///{scratch}/head.sqlite3"
        engine = _engine(url)
        try:
            prepare(engine, upgrade=True, url=url)
            with engine.begin() as conn:
                config = alembic_config(conn)
                config.set_main_option("file_template", "v%%(rev)s_%%(slug)s")
                if directory is not None:
                    config.set_main_option("path_separator", "newline")
                    where = f"{SCRIPTS}/versions\n{directory}"
                    config.set_main_option("version_locations", where)
                script = command.revision(
                    config,
                    message,
                    autogenerate=True,
                    rev_id=f"{int(previous) + 1:04d}",
                    version_path=None if directory is None else str(directory),
                )
        finally:
            engine.dispose()
    assert script is not None and not isinstance(script, list)
    return Path(script.path)
