"""Which tables this process holds in memory, and for how long: reading them from storage (at
start-up, when someone opens one, when another process's driver dies), hearing what other
processes change, noticing moves it did not hear, marking tables whose stored match does not
replay as broken, expiring open tables nobody joins and letting finished ones leave memory."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ludoteca.games import all_games
from ludoteca.server.cluster.base import Notice
from ludoteca.server.config import Settings
from ludoteca.server.logs import log, monotonic_ms
from ludoteca.server.messages import ErrorCode, Rejected, Status
from ludoteca.server.storage import ActionRow, Storage, TableRow
from ludoteca.server.table.services import Services
from ludoteca.server.table.table import Table

from .sleeping import sleeps_until

MAX_TABLE_ID = 32  # ids are 8 characters; a longer one is refused without asking storage


class Watcher(Protocol):
    """A lobby page following the open tables."""

    def table_changed(self, table_id: str) -> None: ...


@dataclass(slots=True)
class Held:
    """A table held in memory, with what the lobby keeps about it: since when it has waited
    open (created or last joined), been seen over, or been held for clients who all left."""

    table: Table
    waiting_since: float | None = None
    over_since: float | None = None
    idle_since: float | None = None


async def read_steps(storage: Storage, row: TableRow, after: int = 0) -> list[ActionRow]:
    """The stored steps of a table row just read, up to its version (the same moment)."""
    return await storage.load_actions(row.id, after, upto=row.version)


class Residency:
    """The tables this process holds in memory, by id: every open and playing one, and finished
    ones for a short grace (or while someone watches); older ones are read from storage.

    With other processes beside it (``services.cluster.shared``) it holds only the tables it
    drives and those its clients sit at or watch; it hears what the others change (``notice``),
    takes over tables whose driver died (``gained``), and lists tables from the database."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.held: dict[str, Held] = {}  # the tables in memory, by id
        self.watchers: set[Watcher] = set()  # lobby pages following the list of open tables
        # tables not (or not yet) held here:
        self.broken: dict[str, str] = {}  # whose stored match does not replay: why
        self.elsewhere: dict[str, dict[str, Any]] = {}  # open ones other processes announced
        self.loading: Counter[str] = Counter()  # being read from storage into memory
        self.missed: set[str] = set()  # ... that heard a notice meanwhile: to read again
        self._stored: dict[str, tuple[int, str]] = {}  # where the last poll saw each held one
        self._lock = asyncio.Lock()

    @property
    def tables(self) -> dict[str, Table]:
        """The tables held in memory, by id (a copy: ``_hold`` and ``drop`` change them)."""
        return {tid: held.table for tid, held in self.held.items()}

    def _hold(self, table: Table, waiting_since: float | None = None) -> Held:
        held = self.held[table.id] = Held(table, waiting_since)
        return held

    def drop(self, table_id: str) -> None:
        """The table leaves memory (its timer stopped)."""
        held = self.held.pop(table_id, None)
        if held is not None:
            held.table.stop()

    def _table(self, row: TableRow) -> Table:
        return Table(row=row, game=all_games()[row.game], services=self.services, feed=self.changed)

    @property
    def settings(self) -> Settings:
        return self.services.settings

    @property
    def storage(self) -> Storage:
        return self.services.storage

    def changed(self, table_id: str) -> None:
        """The table may have entered, changed in or left the open list: tell whoever follows."""
        for watcher in list(self.watchers):
            watcher.table_changed(table_id)

    def open_summary(self, table_id: str) -> dict[str, Any] | None:
        """The summary of an open table, held here or announced by another process; else None."""
        held = self.held.get(table_id)
        if held is not None:  # held here, and kept current by the notices
            return held.table.summary() if held.table.row.status == Status.OPEN else None
        return self.elsewhere.get(table_id)

    @property
    def shared(self) -> bool:
        return self.services.cluster.shared

    # ------------------------------------------------------- other processes (cluster.Handler)
    async def notice(self, notice: Notice) -> None:
        """Another process changed a table: catch up if it is held here; tell the lobby feeds."""
        held = self.held.get(notice.table)
        if held is not None and notice.table not in self.broken:
            try:
                await held.table.hear(notice)
            except Exception as exc:
                self._break(notice.table, exc)
        elif notice.table in self.loading:
            self.missed.add(notice.table)
        if notice.status == Status.OPEN and notice.summary is not None:
            self.elsewhere[notice.table] = notice.summary
            if held is not None and held.waiting_since is not None:
                held.waiting_since = self.services.now()  # joined at another process
        elif self.elsewhere.pop(notice.table, None) is None and held is None:
            return
        if notice.status != Status.OPEN and held is not None:
            held.waiting_since = None
        self.changed(notice.table)

    async def gained(self, table_id: str) -> None:
        """This process now drives the table: hold it, read it afresh, arm its timers."""
        table = await self.wake(table_id)
        if table is not None:
            log("table_taken_over", table=table_id, status=table.row.status, version=table.version)

    async def wake(self, table_id: str) -> Table | None:
        """Hold the table this process now drives, read afresh, its timer armed (None: gone or
        broken, and ``finished`` lets the lease go)."""
        try:
            was_held = table_id in self.held  # else ``get`` reads it now, and arms its timer
            table = await self.get(table_id)
            if was_held:
                await table.refresh()
        except Rejected:
            return None
        return table

    def lost(self, table_id: str) -> None:
        """Another process drives the table now: stop its timers here, and let it leave memory
        at once if nobody here follows it (else every move would be replayed here for nobody)."""
        held = self.held.get(table_id)
        if held is not None:
            held.table.stop()
            if not held.table.listeners:
                self.drop(table_id)

    def finished(self, table_ids: Iterable[str]) -> list[str]:
        live = (Status.STARTING, Status.PLAYING)
        return [
            tid
            for tid in table_ids
            if tid in self.broken
            or (h := self.held.get(tid)) is None
            or h.table.row.status not in live
        ]

    def movable(self, table_ids: Iterable[str]) -> list[str]:
        return [
            tid
            for tid in table_ids
            if (h := self.held.get(tid)) is None or not h.table.audience.seated_here()
        ]

    async def live(self) -> list[str]:
        """Not the sleeping turn-based tables: the deadline loop wakes those (``deadlines``)."""
        statuses = (Status.STARTING, Status.PLAYING)
        limit = self.settings.max_live_tables
        rows = await self.storage.tables_with_status(statuses, limit, sleeping=False)
        return [r.id for r in rows if r.id not in self.broken and r.game in all_games()]

    async def poll(self) -> None:
        """Read again the tables held here that moved in storage without this process hearing
        (a notice lost, or Redis out of reach): one read for all, then only those still behind
        what the previous poll saw (a table is briefly behind whenever a move is being stored
        or its notice is on the way: that is not a move missed)."""
        held = {t: h.table for t, h in self.held.items() if t not in self.broken}
        stored = await self.storage.versions(held) if held else {}
        seen, self._stored = self._stored, stored
        for table_id, (version, status) in seen.items():
            table = held.get(table_id)
            if table is None or table.version > version:
                continue
            if table.version < version or table.row.status != status:
                log("table_moved_unheard", table=table_id, version=version, held=table.version)
                await self._refresh(table)

    async def resync(self) -> None:
        for table_id, held in list(self.held.items()):
            if table_id not in self.broken:
                await self._refresh(held.table)

    async def _refresh(self, table: Table) -> None:
        try:
            await table.refresh()
        except Exception as exc:
            self._break(table.id, exc)

    def _break(self, table_id: str, exc: Exception) -> Rejected:
        """The table's stored match does not replay: it is served to nobody (counted by the
        health check, its clients told so), the others are served as usual."""
        self.broken[table_id] = str(exc)
        log("table_broken", logging.ERROR, table=table_id, error=str(exc))
        held = self.held.get(table_id)
        if held is not None:
            held.table.stop()
        return _broken(table_id)

    # ------------------------------------------------------------------------- start-up
    async def load(self) -> int:
        """Reload every open and unfinished table; replay matches and restart clocks and bots.

        A table whose stored match does not replay is marked broken and the others are served as
        usual; open tables that waited longer than the expiry leave at once."""
        storage, started = self.storage, time.perf_counter()
        statuses: tuple[Status, ...] = (Status.OPEN, Status.STARTING, Status.PLAYING)
        if self.shared:  # the others hold the rest; open tables are read when asked for
            statuses = (Status.STARTING, Status.PLAYING)
        # not the turn-based tables in play: they sleep in the database until they are opened or
        # due (``deadlines``), so neither memory nor start-up grows with them
        limit = self.settings.max_live_tables
        rows = await storage.tables_with_status(statuses, limit, sleeping=False)
        now = self.services.now()
        stale = [r.id for r in rows if r.status == Status.OPEN and self._expired(r.created_at, now)]
        if stale:
            await storage.expire_tables(stale)
        for row in rows:
            if row.id in stale or row.game not in all_games():
                continue
            if row.status != Status.OPEN and not await self.services.cluster.claim(row.id):
                continue  # a live process drives it
            try:
                table = await self._read(row)
            except Rejected:
                continue
            self._hold(table, row.created_at if row.status == Status.OPEN else None)
            table.schedule()
        held, broken, ms = len(self.held), len(self.broken), monotonic_ms(started)
        log("tables_loaded", count=held, broken=broken, expired=len(stale), ms=ms)
        return len(self.held)

    async def _read(self, row: TableRow) -> Table:
        """The table of a row just read, its stored steps replayed (Rejected if they do not)."""
        if row.format >= 5 and not row.prelude:  # a row from a listing: read its prelude
            row.prelude = await self.storage.load_prelude(row.id)
        table = self._table(row)
        if row.status in (Status.PLAYING, Status.OVER):
            try:
                table.ledger.begin(await read_steps(self.storage, row))
            except Exception as exc:
                raise self._break(row.id, exc) from None
        if row.status == Status.OVER:
            table.ledger.rematch = await self.storage.load_rematch(row.id)
        return table

    def _expired(self, since: float, now: float) -> bool:
        return now - since >= self.settings.open_table_ttl

    async def peek(self, table_id: str) -> Table:
        """The table as held in memory, or read from storage (its stored steps replayed) *without*
        keeping it: enough for its summary and record; 404 if none."""
        if table_id in self.broken:
            raise _broken(table_id)
        held = self.held.get(table_id)
        if held is not None:
            return held.table
        if len(table_id) > MAX_TABLE_ID:
            raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id[:40]}…'")
        row = await self.storage.load_table(table_id)
        if row is None or row.game not in all_games() or row.status == Status.EXPIRED:
            raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id}'")
        return await self._read(row)

    async def game_of(self, table_id: str) -> str | None:
        """The game of a table, held here or as stored (one row read, no replay); None if none."""
        held = self.held.get(table_id)
        if held is not None:
            return held.table.row.game
        if len(table_id) > MAX_TABLE_ID:
            return None
        row = await self.storage.load_table(table_id)
        return row.game if row is not None and row.game in all_games() else None

    async def get(self, table_id: str) -> Table:
        """The table in memory, loading a finished one from storage for whoever watches it (it
        leaves memory again once nobody does); 404 if none."""
        held = self.held.get(table_id)
        if held is not None and table_id not in self.broken:
            return held.table
        self.loading[table_id] += 1
        try:
            found = await self.peek(table_id)
            found.audience.elsewhere = await self.services.cluster.presence(table_id)
        finally:
            self.loading[table_id] -= 1
            if not self.loading[table_id]:
                del self.loading[table_id]
        async with self._lock:
            if table_id in self.held:
                return self.held[table_id].table
            found.schedule()
            self._hold(found)
        if table_id in self.missed:  # a notice came while it was being read: read it again
            self.missed.discard(table_id)
            await found.refresh()
        return found

    async def listing(
        self, status: str, game: str | None = None, offset: int = 0, limit: int = 50
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the tables with ``status``, newest first, and how many there are in all:
        read from storage (every process sees every table), summarised from memory where held."""
        storage = self.storage
        page = await storage.list_tables(statuses=[status], game=game, limit=limit, offset=offset)
        total = await storage.count_tables(statuses=[status], game=game)
        summaries = []
        for row in page.rows:
            held = self.held.get(row.id)
            if held is not None and held.table.row.status == row.status:
                summaries.append(held.table.summary())
            elif row.game in all_games():
                summaries.append(self._table(row).summary())
        return summaries, total

    # -------------------------------------------------------------------------- sweeping
    async def sweep(self) -> tuple[int, int]:
        """Expire open tables nobody joined for ``open_table_ttl``; let finished tables nobody
        watches leave memory after ``finished_grace`` (the oldest at once beyond
        ``max_finished_tables``). Returns (expired, evicted)."""
        now = self.services.now()
        stale = [
            tid
            for tid, held in self.held.items()
            if held.waiting_since is not None
            and held.table.row.status == Status.OPEN
            and self._expired(held.waiting_since, now)
        ]
        if stale:
            stale = await self.storage.expire_tables(stale)
        if self.shared:  # open tables whose process died: expired by the database's clock
            orphans = await self.storage.expire_open_tables(now - 2 * self.settings.open_table_ttl)
            stale += [tid for tid in orphans if tid not in stale]
        for tid in stale:
            held = self.held.pop(tid, None)
            table = held.table if held is not None else await self._expired_row(tid)
            if table is None:
                continue
            table.stop()
            table.row.status = Status.EXPIRED
            self.elsewhere.pop(tid, None)
            await table.after_change()
            log("table_expired", table=tid)
        if self.shared:
            self._let_go(now)
        for table_id in list(self.held):
            await self.doze(table_id)
        return len(stale), self._evict_finished(now)

    async def doze(self, table_id: str, margin: float = 1.0) -> bool:
        """The table leaves memory, and this process lets its lease go, if it may sleep
        (``sleeping.sleeps_until``): it sleeps in the database until it is opened or due. True if
        it left."""
        held = self.held.get(table_id)
        if held is None or table_id in self.broken:
            return False
        table = held.table
        due_at = sleeps_until(table, self.services.now(), margin)
        if due_at is None:
            return False
        if table.row.due_at is None or abs(table.row.due_at - due_at) > 0.001:
            # read early (a due time stored as a hint): store the deadline it is really due at
            if not await self.storage.set_due(table_id, table.version, due_at):
                return False  # it moved meanwhile: it is read again, and tried next time
            table.row.due_at = due_at
        if table_id not in self.held or table.listeners or table.lock.locked():
            return False  # someone came while the due time was written
        self.drop(table_id)
        if self.services.cluster.drives(table_id):
            await self.services.cluster.release(table_id)
        log("table_dozed", logging.DEBUG, table=table_id, due_at=round(due_at, 3))
        return True

    def _evict_finished(self, now: float) -> int:
        over = [h for h in self.held.values() if h.table.row.status == Status.OVER]
        for held in over:
            if held.over_since is None:
                held.over_since = now
        over.sort(key=lambda h: h.over_since or now)
        extra = len(over) - self.settings.max_finished_tables
        evicted = 0
        for held in over:
            if held.table.listeners:
                continue
            grace_over = now - (held.over_since or now) >= self.settings.finished_grace
            if evicted < extra or grace_over:
                self.drop(held.table.id)
                evicted += 1
        return evicted

    async def _expired_row(self, table_id: str) -> Table | None:
        row = await self.storage.load_table(table_id)
        return self._table(row) if row is not None and row.game in all_games() else None

    def _let_go(self, now: float) -> None:
        """Tables held here only for clients who have all left, and driven elsewhere, leave
        memory after ``finished_grace``."""
        cluster = self.services.cluster
        for tid, held in list(self.held.items()):
            table = held.table
            if table.listeners or cluster.drives(tid) or table.row.status == Status.OVER:
                held.idle_since = None
                continue
            if held.idle_since is None:
                held.idle_since = now
            if now - held.idle_since >= self.settings.finished_grace:
                self.drop(tid)

    async def run_sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception as exc:  # a failing sweep must not stop the next one
                log("sweep_failed", logging.ERROR, error=repr(exc))

    def shutdown(self) -> None:
        for held in self.held.values():
            held.table.stop()


def _broken(table_id: str) -> Rejected:
    return Rejected(
        ErrorCode.TABLE_BROKEN,
        f"table '{table_id}' cannot be served: its stored match does not replay",
    )
