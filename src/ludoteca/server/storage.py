"""Durable storage of tables, seats and every accepted action (SQLAlchemy Core).

The database is the authority on what happened: an action exists once its row is committed, and
the primary key ``(table_id, seq)`` makes a second writer of the same step fail instead of applying
it twice — the property several server processes will rely on. SQLite (a file, WAL journal) is the
default; PostgreSQL is the same code with another URL.

Every method here is blocking; the server calls them through ``Storage.run`` on a small thread pool
(one thread for SQLite, whose writes are serial anyway). Accepted actions go through ``append``,
which commits whatever actions are waiting in one transaction (group commit): under load many
tables share a commit, and each caller still returns only once its own action is durable.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import NullPool

P = ParamSpec("P")
T = TypeVar("T")

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("params", Text, nullable=False),
    Column("seed", String(128), nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("turn_seconds", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("started_at", Float),
    Column("turn_started_at", Float),
    Column("version", Integer, nullable=False, default=0),
    Column("outcome", Text),
    # 1: ``seed`` is the match seed itself; 2: it is the server's secret, mixed with the
    # players' contributions (``seats.contribution``) into the seed when the match is dealt
    Column("format", Integer, nullable=False, default=1),
)

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # open | human | bot
    Column("name", String(64), nullable=False),
    Column("level", String(16)),
    Column("token_hash", String(64)),
    Column("away", Boolean, nullable=False, default=False),
    Column("contribution", String(64)),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("by", String(8), nullable=False),
    Column("at", Float, nullable=False),
)


_ADVANCE = (
    update(tables)
    .where(and_(tables.c.id == bindparam("tid"), tables.c.version == bindparam("previous")))
    .values(
        version=bindparam("v"),
        turn_started_at=bindparam("started"),
        status=bindparam("status"),
        outcome=bindparam("result"),
    )
)
"""A table's next step: version, turn clock, and status and outcome once the match is over."""


class ConflictError(Exception):
    """Another writer stored this step first: reload the table and try again."""


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = field(default=None, repr=False)
    away: bool = False
    contribution: str | None = None


@dataclass(slots=True)
class TableRow:
    id: str
    game: str
    params: dict[str, Any]
    seed: str = field(repr=False)  # format 2: the server's secret; format 1: the match seed
    commitment: str
    status: str
    turn_seconds: int
    created_at: float
    started_at: float | None = None
    turn_started_at: float | None = None
    version: int = 0
    outcome: dict[str, Any] | None = None
    seats: list[SeatRow] = field(default_factory=list)
    format: int = 2


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int
    action: str
    by: str
    at: float


def engine_for(url: str) -> Engine:
    """An engine for ``url``; ``postgresql://`` uses psycopg 3, SQLite gets WAL and a busy wait."""
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, poolclass=NullPool if path == ":memory:" else None)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")  # a commit survives a killed process
            cursor.execute("PRAGMA busy_timeout=5000")
            cursor.close()

        return engine
    return create_engine(url, pool_size=8, max_overflow=4, pool_pre_ping=True)


@dataclass(frozen=True, slots=True)
class Append:
    """One accepted action waiting to be stored, with the table's new clock and outcome."""

    table_id: str
    step: ActionRow
    turn_started_at: float
    outcome: dict[str, Any] | None


class Storage:
    """Tables, seats and actions in one database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = engine_for(url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        workers = 1 if self.is_sqlite else 4
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ludoteca-db")
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._committer: asyncio.Task[None] | None = None
        metadata.create_all(self.engine)

    async def append(self, item: Append) -> None:
        """Store one accepted action; returns once it is committed (ConflictError if that step
        already exists). Actions waiting together are committed in one transaction."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_waiting())
        await future

    async def _commit_waiting(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                failures = await self.run(self.append_batch, [item for item, _ in batch])
            except Exception as exc:  # the database is gone: every waiting caller hears it
                failures = [exc] * len(batch)
            for (_, future), failure in zip(batch, failures, strict=True):
                if future.done():
                    continue
                if failure is None:
                    future.set_result(None)
                else:
                    future.set_exception(failure)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a blocking storage call off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.engine.dispose()

    # ------------------------------------------------------------------------------ writes
    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(tables).values(**_table_values(row)))
            conn.execute(insert(seats), [_seat_values(row.id, s) for s in row.seats])

    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat.seat))
                .values(**_seat_values(table_id, seat))
            )

    def start_table(
        self,
        table_id: str,
        seat_rows: Sequence[SeatRow],
        started_at: float,
        status: str = "playing",
    ) -> None:
        """An open table starts: its seats as they are now, and ``status`` ``playing`` (dealt at
        once) or ``starting`` (waiting for the players' contributions)."""
        with self.engine.begin() as conn:
            for seat in seat_rows:
                conn.execute(
                    update(seats)
                    .where(and_(seats.c.table_id == table_id, seats.c.seat == seat.seat))
                    .values(**_seat_values(table_id, seat))
                )
            result = conn.execute(
                update(tables)
                .where(and_(tables.c.id == table_id, tables.c.status == "open"))
                .values(status=status, started_at=started_at, turn_started_at=started_at)
            )
            if result.rowcount != 1:
                raise ConflictError(f"table {table_id} is no longer open")

    def deal_table(self, table_id: str, dealt_at: float) -> None:
        """A starting table is dealt: it plays, and the first turn's clock starts now."""
        with self.engine.begin() as conn:
            result = conn.execute(
                update(tables)
                .where(and_(tables.c.id == table_id, tables.c.status == "starting"))
                .values(status="playing", turn_started_at=dealt_at)
            )
            if result.rowcount != 1:
                raise ConflictError(f"table {table_id} is not waiting to be dealt")

    def append_batch(self, items: Sequence[Append]) -> list[Exception | None]:
        """Store several actions (of different tables) in one transaction; on a conflict, store
        them one by one so only the conflicting ones fail."""
        try:
            with self.engine.begin() as conn:
                self._append(conn, items)
            return [None] * len(items)
        except IntegrityError:
            if len(items) == 1:
                only = items[0]
                return [ConflictError(f"table {only.table_id} already has step {only.step.seq}")]
        return [self.append_batch([item])[0] for item in items]

    @staticmethod
    def _append(conn: Connection, items: Sequence[Append]) -> None:
        """One multi-row insert and one executemany update (per-statement overhead measured at
        ~150 µs in SQLAlchemy: batching it is what makes group commit pay)."""
        conn.execute(
            insert(actions),
            [
                {
                    "table_id": i.table_id,
                    "seq": i.step.seq,
                    "seat": i.step.seat,
                    "action": i.step.action,
                    "by": i.step.by,
                    "at": i.step.at,
                }
                for i in items
            ],
        )
        moved = conn.execute(
            _ADVANCE,
            [
                {
                    "tid": i.table_id,
                    "previous": i.step.seq - 1,
                    "v": i.step.seq,
                    "started": i.turn_started_at,
                    "status": "playing" if i.outcome is None else "over",
                    "result": None if i.outcome is None else json.dumps(i.outcome),
                }
                for i in items
            ],
        )
        if moved.rowcount != len(items):
            raise IntegrityError("a table's version moved", None, Exception("version"))

    # ------------------------------------------------------------------------------- reads
    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            loaded = _table_row(row)
            loaded.seats = self._seats(conn, [table_id])[table_id]
            return loaded

    def tables_with_status(self, statuses: Iterable[str], limit: int = 1000) -> list[TableRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(tables)
                .where(tables.c.status.in_(list(statuses)))
                .order_by(tables.c.created_at.desc())
                .limit(limit)
            ).mappings()
            loaded = [_table_row(r) for r in rows]
            by_table = self._seats(conn, [t.id for t in loaded])
            for t in loaded:
                t.seats = by_table.get(t.id, [])
            return loaded

    def load_actions(self, table_id: str, after: int = 0) -> list[ActionRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(actions)
                .where(and_(actions.c.table_id == table_id, actions.c.seq > after))
                .order_by(actions.c.seq)
            )
            return [ActionRow(r.seq, r.seat, r.action, r.by, r.at) for r in rows]

    @staticmethod
    def _seats(conn: Connection, table_ids: list[str]) -> dict[str, list[SeatRow]]:
        found: dict[str, list[SeatRow]] = {t: [] for t in table_ids}
        if not table_ids:
            return found
        rows = conn.execute(
            select(seats).where(seats.c.table_id.in_(table_ids)).order_by(seats.c.seat)
        )
        for r in rows:
            found[r.table_id].append(
                SeatRow(r.seat, r.kind, r.name, r.level, r.token_hash, bool(r.away), r.contribution)
            )
        return found


def _table_values(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "params": json.dumps(row.params),
        "seed": row.seed,
        "commitment": row.commitment,
        "status": row.status,
        "turn_seconds": row.turn_seconds,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "turn_started_at": row.turn_started_at,
        "version": row.version,
        "outcome": json.dumps(row.outcome) if row.outcome is not None else None,
        "format": row.format,
    }


def _seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "away": seat.away,
        "contribution": seat.contribution,
    }


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"],
        game=r["game"],
        params=json.loads(r["params"]),
        seed=r["seed"],
        commitment=r["commitment"],
        status=r["status"],
        turn_seconds=r["turn_seconds"],
        created_at=r["created_at"],
        started_at=r["started_at"],
        turn_started_at=r["turn_started_at"],
        version=r["version"],
        outcome=json.loads(r["outcome"]) if r["outcome"] else None,
        format=r["format"],
    )
