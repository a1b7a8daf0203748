"""Durable storage of tables, seats and every accepted action (SQLAlchemy Core).

The database is the authority on what happened: an action exists once its row is committed, and
the primary key ``(table_id, seq)`` makes a second writer of the same step fail instead of applying
it twice — the property several server processes rely on. SQLite (a file, WAL journal) is the
default; PostgreSQL is the same code with another URL. The schema is made and changed by the
migrations (see ``migrate``), never by this module.

The driver calls block, so they run on a small thread pool (one thread for SQLite) behind the
async methods of ``Storage``. ``append`` commits whatever actions wait in one transaction (group
commit): many tables share a commit, each caller returns once its own action is durable.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import ColumnElement, Select, and_, func, or_, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from .analyses import SqlAnalyses
from .due import SqlDeadlines
from .endings import SqlEndings
from .pairings import SqlPairings
from .prelude import SqlPrelude, prelude_of
from .rematches import SqlRematches
from .rows import (
    EXPIRED,
    ActionRow,
    Append,
    Census,
    ConflictError,
    SeatRow,
    TablePage,
    TableRow,
    check_new_table,
    check_page,
    check_positive,
    decode_cursor,
    page_of,
    to_json,
)
from .schema import actions, seats, tables
from .statements import (
    ACTED,
    ADVANCE,
    CENSUS,
    DEAL,
    INSERT_ACTIONS,
    INSERT_SEATS,
    INSERT_TABLE,
    OPEN_REVEALS,
    SEAT,
    START,
    acted_params,
    awake,
    filters,
    seat_params,
    seat_values,
    seats_of,
    table_row,
    table_values,
)

P = ParamSpec("P")
T = TypeVar("T")


class SqlStorage(SqlAnalyses, SqlDeadlines, SqlRematches, SqlPairings, SqlPrelude, SqlEndings):
    """Tables, seats and actions in one SQLite or PostgreSQL database at the current schema."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        workers = 1 if self.dialect == "sqlite" else 4
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ludoteca-db")
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._closed = False
        # ids in code-point order on every database, as the memory store orders them
        self._id = tables.c.id.collate("C") if self.dialect == "postgresql" else tables.c.id

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the storage is closed")

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run a blocking call off the event loop."""
        self._check_open()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    async def ping(self) -> None:
        await self._run(self._ping)

    def _ping(self) -> None:
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    async def census(self) -> Census:
        if self.dialect != "postgresql":
            self._check_open()
            return Census(time.time())  # one process's own file: its own clock
        return await self._run(self._census)

    def _census(self) -> Census:
        with self.engine.connect() as conn:
            row = conn.execute(CENSUS).one()
        return Census(float(row.now), tuple(sorted(row.labels)))

    async def close(self) -> None:
        self._closed = True  # no new work; what is waiting still commits
        if self._committer is not None and not self._committer.done():
            await asyncio.wait([self._committer])
        await asyncio.to_thread(self._pool.shutdown, wait=True)
        self.engine.dispose()

    # ----------------------------------------------------------------------- group commit
    async def append(self, item: Append) -> None:
        """Store one accepted action; returns once it is committed (ConflictError if that step
        already exists). Actions waiting together are committed in one transaction."""
        self._check_open()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_waiting())
        await future

    async def _commit_waiting(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting, []
            try:
                items = [item for item, _ in batch]
                loop = asyncio.get_running_loop()  # not _run: a closing store still commits these
                failures = await loop.run_in_executor(self._pool, self.append_batch, items)
            except Exception as exc:  # the database is gone: every waiting caller hears it
                failures = [exc] * len(batch)
            for (_, future), failure in zip(batch, failures, strict=True):
                if future.done():
                    continue
                if failure is None:
                    future.set_result(None)
                else:
                    future.set_exception(failure)

    def append_batch(self, items: Sequence[Append]) -> list[Exception | None]:
        """Store several actions (of different tables) in one transaction; on a conflict, store
        them one by one so only the conflicting ones fail. Blocking: ``append`` calls it."""
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
            INSERT_ACTIONS,
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
            ADVANCE,
            [
                {
                    "tid": i.table_id,
                    "previous": i.step.seq - 1,
                    "v": i.step.seq,
                    "started": i.turn_started_at,
                    "status": "playing" if i.outcome is None else "over",
                    "result": None if i.outcome is None else to_json(i.outcome),
                    "due": i.due_at,
                }
                for i in items
            ],
        )
        if moved.rowcount != len(items):
            raise IntegrityError("a table's version moved", None, Exception("version"))
        acted = [acted_params(i.table_id, i.seat) for i in items if i.seat is not None]
        if acted:
            conn.execute(ACTED, acted)

    # ------------------------------------------------------------------------------ writes
    async def create_table(self, row: TableRow) -> None:
        check_new_table(row)
        await self._run(self._create_table, row)

    def _create_table(self, row: TableRow) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(INSERT_TABLE, table_values(row))
                if row.seats:
                    conn.execute(INSERT_SEATS, [seat_values(row.id, s) for s in row.seats])
        except IntegrityError:
            raise ConflictError(f"there is already a table {row.id}") from None

    async def update_seat(self, table_id: str, seat: SeatRow) -> None:
        await self._run(self._update_seats, table_id, [seat])

    def _update_seats(
        self, table_id: str, rows: Sequence[SeatRow], conn: Connection | None = None
    ) -> None:
        if conn is None:
            with self.engine.begin() as own:
                self._update_seats(table_id, rows, own)
            return
        if not rows:
            return
        changed = conn.execute(SEAT, [seat_params(table_id, s) for s in rows])
        if changed.rowcount != len(rows):
            raise ConflictError(f"table {table_id} has no seat among {[s.seat for s in rows]}")

    async def start_table(
        self,
        table_id: str,
        seats: Sequence[SeatRow],
        started_at: float,
        status: str = "playing",
    ) -> None:
        await self._run(self._start_table, table_id, list(seats), started_at, status)

    def _start_table(
        self, table_id: str, rows: Sequence[SeatRow], started_at: float, status: str
    ) -> None:
        with self.engine.begin() as conn:
            result = conn.execute(
                START,
                {
                    "tid": table_id,
                    "new_status": status,
                    "started": started_at,
                    "turn_started": started_at,
                },
            )
            if result.rowcount != 1:
                raise ConflictError(f"table {table_id} is no longer open")
            self._update_seats(table_id, rows, conn)

    async def deal_table(self, table_id: str, dealt_at: float) -> list[SeatRow]:
        return await self._run(self._deal_table, table_id, dealt_at)

    def _deal_table(self, table_id: str, dealt_at: float) -> list[SeatRow]:
        with self.engine.begin() as conn:
            result = conn.execute(DEAL, {"tid": table_id, "dealt": dealt_at})
            if result.rowcount != 1:
                raise ConflictError(f"table {table_id} is not waiting to be dealt")
            # read after the row lock: every reveal stored before the deal, and none after
            return seats_of(conn, [table_id])[table_id]

    async def open_reveals(self, table_id: str, at: float) -> None:
        await self._run(self._open_reveals, table_id, at)

    def _open_reveals(self, table_id: str, at: float) -> None:
        with self.engine.begin() as conn:
            result = conn.execute(OPEN_REVEALS, {"tid": table_id, "at": at})
            if result.rowcount != 1:
                raise ConflictError(f"table {table_id} is not taking commitments")

    async def commit_seat(self, table_id: str, seat: int, commitment: str) -> None:
        values: dict[str, str | None] = {"commitment": commitment}
        await self._run(self._seed_write, table_id, seat, False, values)

    async def reveal_seat(self, table_id: str, seat: int, contribution: str, salt: str) -> None:
        values: dict[str, str | None] = {"contribution": contribution, "salt": salt}
        await self._run(self._seed_write, table_id, seat, True, values)

    def _seed_write(
        self, table_id: str, seat: int, revealing: bool, values: dict[str, str | None]
    ) -> None:
        """A commitment while the commitments are open, or a reveal while the reveals are: the
        table's row is locked first (``FOR UPDATE``; SQLite writes one at a time anyway), so a
        deal or the closing of the commitments waits for this write or refuses it."""
        with self.engine.begin() as conn:
            state = conn.execute(
                select(tables.c.status, tables.c.revealing_at)
                .where(tables.c.id == table_id)
                .with_for_update()
            ).first()
            open_now = state is not None and (
                state.status == "starting" and state.revealing_at is not None
                if revealing
                else state.status in ("open", "starting") and state.revealing_at is None
            )
            if not open_now:
                what = "reveals" if revealing else "commitments"
                raise ConflictError(f"table {table_id} is not taking {what}")
            if not revealing:
                values = {**values, "contribution": None, "salt": None}
            changed = conn.execute(
                update(seats)
                .where(and_(seats.c.table_id == table_id, seats.c.seat == seat))
                .values(**values)
            )
            if changed.rowcount != 1:
                raise ConflictError(f"table {table_id} has no seat {seat}")

    async def expire_tables(self, table_ids: Iterable[str]) -> list[str]:
        wanted = list(table_ids)
        if not wanted:
            return []
        return await self._run(self._expire, tables.c.id.in_(wanted))

    async def expire_open_tables(self, older_than: float) -> list[str]:
        return await self._run(self._expire, tables.c.created_at < older_than)

    def _expire(self, which: ColumnElement[bool]) -> list[str]:
        with self.engine.begin() as conn:
            # one statement decides: a table that starts meanwhile is no longer 'open' here
            expired = conn.execute(
                update(tables)
                .where(and_(which, tables.c.status == "open"))
                .values(status=EXPIRED)
                .returning(tables.c.id, tables.c.created_at)
            ).all()
        return [r.id for r in sorted(expired, key=lambda r: (r.created_at, r.id))]

    # ------------------------------------------------------------------------------- reads
    async def load_table(self, table_id: str) -> TableRow | None:
        return await self._run(self._load_table, table_id)

    def _load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tables).where(tables.c.id == table_id)).mappings().first()
            if row is None:
                return None
            loaded = table_row(row)
            loaded.seats = seats_of(conn, [table_id])[table_id]
            loaded.prelude = prelude_of(conn, table_id)
            return loaded

    async def versions(self, table_ids: Iterable[str]) -> dict[str, tuple[int, str]]:
        wanted = list(table_ids)
        found: dict[str, tuple[int, str]] = {}
        for start in range(0, len(wanted), 1000):
            batch = wanted[start : start + 1000]
            found.update(await self._run(self._versions, batch))
        return found

    def _versions(self, table_ids: list[str]) -> dict[str, tuple[int, str]]:
        query = select(tables.c.id, tables.c.version, tables.c.status).where(
            tables.c.id.in_(table_ids)
        )
        with self.engine.connect() as conn:
            return {r.id: (r.version, r.status) for r in conn.execute(query)}

    async def load_actions(
        self, table_id: str, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        return await self._run(self._load_actions, table_id, after, upto)

    def _load_actions(self, table_id: str, after: int, upto: int | None) -> list[ActionRow]:
        wanted = and_(actions.c.table_id == table_id, actions.c.seq > after)
        if upto is not None:
            wanted = and_(wanted, actions.c.seq <= upto)
        with self.engine.connect() as conn:
            rows = conn.execute(select(actions).where(wanted).order_by(actions.c.seq))
            return [ActionRow(r.seq, r.seat, r.action, r.by, r.at) for r in rows]

    async def tables_with_status(
        self, statuses: Iterable[str], limit: int = 1000, *, sleeping: bool = True
    ) -> list[TableRow]:
        check_positive(limit)
        query = self._newest_first(statuses, None)
        if not sleeping:
            query = query.where(awake())
        return await self._run(self._select_tables, query, limit)

    async def list_tables(
        self,
        *,
        statuses: Iterable[str] | None = None,
        game: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        offset: int = 0,
    ) -> TablePage:
        check_page(limit, offset)
        query = self._newest_first(statuses, game).offset(offset)
        if cursor is not None:
            created_at, table_id = decode_cursor(cursor)
            query = query.where(
                or_(
                    tables.c.created_at < created_at,
                    and_(tables.c.created_at == created_at, self._id < table_id),
                )
            )
        rows = await self._run(self._select_tables, query, limit + 1)
        return page_of(rows, limit)

    async def count_tables(
        self,
        *,
        statuses: Iterable[str] | None = None,
        game: str | None = None,
        owner: str | None = None,
    ) -> int:
        query = select(func.count()).select_from(tables).where(filters(statuses, game))
        if owner is not None:
            query = query.where(tables.c.owner == owner)
        return await self._run(self._count, query)

    def _count(self, query: Select[int]) -> int:
        with self.engine.connect() as conn:
            return conn.execute(query).scalar_one()

    def _newest_first(self, statuses: Iterable[str] | None, game: str | None) -> Select[Any]:
        return (
            select(tables)
            .where(filters(statuses, game))
            .order_by(tables.c.created_at.desc(), self._id.desc())
        )

    def _select_tables(self, query: Select[Any], limit: int) -> list[TableRow]:
        with self.engine.connect() as conn:
            loaded = [table_row(r) for r in conn.execute(query.limit(limit)).mappings()]
            by_table = seats_of(conn, [t.id for t in loaded])
            for t in loaded:
                t.seats = by_table.get(t.id, [])
            return loaded
