"""The lobby: creating, joining, leaving and starting tables; reloading them after a restart;
expiring open tables nobody joins and letting finished ones leave memory."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from ludoteca.bots import LEVELS
from ludoteca.core import InvalidParamsError, MatchRecord, commitment
from ludoteca.core.fairness import new_secret
from ludoteca.games import all_games

from .cluster import Notice
from .config import Settings
from .logs import log
from .protocol import ErrorCode, SeatKind, Status
from .storage import ConflictError, SeatRow, Storage, TableRow
from .table import Rejected, Services, Table, token_hash

MAX_NAME = 24
MAX_TABLE_ID = 32  # ids are 8 characters; a longer one is refused without asking storage


class Watcher(Protocol):
    """A lobby page following the open tables."""

    def table_changed(self, table_id: str) -> None: ...


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """One seat as the creator asks for it: a bot of some level, or a place for a person."""

    bot: bool = False
    level: str | None = None


def clean_name(name: str | None, fallback: str) -> str:
    """A display name: printable, trimmed, at most 24 characters."""
    text = "".join(ch for ch in (name or "") if unicodedata.category(ch)[0] not in {"C"})
    text = " ".join(text.split())[:MAX_NAME]
    return text or fallback


def owner_of(client: str) -> str:
    """Who opened a table, as stored: a digest of the client's address, not the address."""
    return hashlib.sha256(f"ludoteca/owner\n{client}".encode()).hexdigest()[:32]


def bot_name(level: str, seat: int) -> str:
    return f"Bot {seat + 1} ({level})"


class Lobby:
    """The tables this process holds in memory, by id: every open and playing one, and finished
    ones for a short grace (or while someone watches); older ones are read from storage.

    With other processes beside it (``services.cluster.shared``) it holds only the tables it
    drives and those its clients sit at or watch; it hears what the others change (``notice``),
    takes over tables whose driver died (``gained``), and lists tables from the database."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.tables: dict[str, Table] = {}
        self.watchers: set[Watcher] = set()  # lobby pages following the list of open tables
        self.broken: dict[str, str] = {}  # tables whose stored match does not replay: why
        self.waiting_since: dict[str, float] = {}  # open table id -> created or last joined
        self.over_since: dict[str, float] = {}  # finished table id -> when the sweep saw it over
        self.idle_since: dict[str, float] = {}  # table held for clients that left -> since when
        self.elsewhere: dict[str, dict[str, Any]] = {}  # open tables other processes announced
        self.loading: Counter[str] = Counter()  # tables being read from storage into memory
        self.missed: set[str] = set()  # ... that heard a notice meanwhile: to read again
        self._stored: dict[str, tuple[int, str]] = {}  # where the last poll saw each table
        self._lock = asyncio.Lock()

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

    def open_table(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        return table if table is not None and table.row.status == Status.OPEN else None

    def open_summary(self, table_id: str) -> dict[str, Any] | None:
        """The summary of an open table, held here or announced by another process; else None."""
        table = self.tables.get(table_id)
        if table is not None:  # held here, and kept current by the notices
            return table.summary() if table.row.status == Status.OPEN else None
        return self.elsewhere.get(table_id)

    @property
    def shared(self) -> bool:
        return self.services.cluster.shared

    # ------------------------------------------------------- other processes (cluster.Handler)
    async def notice(self, notice: Notice) -> None:
        """Another process changed a table: catch up if it is held here; tell the lobby feeds."""
        if notice.kind == "lease":
            return
        table = self.tables.get(notice.table)
        if table is not None and notice.table not in self.broken:
            try:
                await table.hear(notice)
            except Exception as exc:
                self._break(notice.table, exc)
        elif notice.table in self.loading:
            self.missed.add(notice.table)
        if notice.status == Status.OPEN and notice.summary is not None:
            self.elsewhere[notice.table] = notice.summary
            if notice.table in self.waiting_since:
                self.waiting_since[notice.table] = self.services.now()
        elif self.elsewhere.pop(notice.table, None) is None and table is None:
            return
        if notice.status != Status.OPEN:
            self.waiting_since.pop(notice.table, None)
        self.changed(notice.table)

    async def gained(self, table_id: str) -> None:
        """This process now drives the table: hold it, read it afresh, arm its timers."""
        try:
            held = table_id in self.tables  # else ``get`` reads it now, and arms its timer
            table = await self.get(table_id)
            if held:
                await table.refresh()
        except Rejected:
            return  # gone or broken: ``finished`` lets the lease go
        log("table_taken_over", table=table_id, status=table.row.status, version=table.version)

    def lost(self, table_id: str) -> None:
        """Another process drives the table now: stop its timers here, and let it leave memory
        at once if nobody here follows it (else every move would be replayed here for nobody)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.stop()
            if not table.listeners:
                del self.tables[table_id]

    def finished(self, table_ids: Iterable[str]) -> list[str]:
        live = (Status.STARTING, Status.PLAYING)
        return [
            tid
            for tid in table_ids
            if tid in self.broken or (t := self.tables.get(tid)) is None or t.row.status not in live
        ]

    def movable(self, table_ids: Iterable[str]) -> list[str]:
        return [
            tid
            for tid in table_ids
            if (t := self.tables.get(tid)) is None or not t.seated_listeners()
        ]

    async def live(self) -> list[str]:
        statuses = (Status.STARTING, Status.PLAYING)
        rows = await self.storage.tables_with_status(statuses, self.settings.max_live_tables)
        return [r.id for r in rows if r.id not in self.broken and r.game in all_games()]

    async def poll(self) -> None:
        """Read again the tables held here that moved in storage without this process hearing
        (a notice lost, or Redis out of reach): one read for all, then only those still behind
        what the previous poll saw (a table is briefly behind whenever a move is being stored
        or its notice is on the way: that is not a move missed)."""
        held = {t: table for t, table in self.tables.items() if t not in self.broken}
        stored = await self.storage.versions(held) if held else {}
        seen, self._stored = self._stored, stored
        for table_id, (version, status) in seen.items():
            table = held.get(table_id)
            if table is None or table.version > version:
                continue
            if table.version < version or table.row.status != status:
                log("table_moved_unheard", table=table_id, version=version, held=table.version)
                try:
                    await table.refresh()
                except Exception as exc:
                    self._break(table_id, exc)

    async def resync(self) -> None:
        for table_id, table in list(self.tables.items()):
            if table_id in self.broken:
                continue
            try:
                await table.refresh()
            except Exception as exc:
                self._break(table_id, exc)

    def _break(self, table_id: str, exc: Exception) -> None:
        self.broken[table_id] = str(exc)
        log("table_broken", logging.ERROR, table=table_id, error=str(exc))
        table = self.tables.get(table_id)
        if table is not None:
            table.stop()

    # ------------------------------------------------------------------------- start-up
    async def load(self) -> int:
        """Reload every open and unfinished table; replay matches and restart clocks and bots.

        A table whose stored match does not replay is marked broken (logged, counted by the
        health check, its clients told so) and the others are served as usual; open tables
        that waited longer than the expiry leave at once."""
        storage = self.storage
        statuses: tuple[Status, ...] = (Status.OPEN, Status.STARTING, Status.PLAYING)
        if self.shared:  # the others hold the rest; open tables are read when asked for
            statuses = (Status.STARTING, Status.PLAYING)
        rows = await storage.tables_with_status(statuses, self.settings.max_live_tables)
        now = self.services.now()
        stale = [r.id for r in rows if r.status == Status.OPEN and self._expired(r.created_at, now)]
        if stale:
            await storage.expire_tables(stale)
        for row in rows:
            if row.id in stale or row.game not in all_games():
                continue
            if row.status != Status.OPEN and not await self.services.cluster.claim(row.id):
                continue  # a live process drives it
            table = self._table(row)
            if row.status == Status.PLAYING:
                steps = await storage.load_actions(row.id)
                try:
                    table.begin(steps)
                except Exception as exc:
                    self.broken[row.id] = str(exc)
                    log("table_broken", logging.ERROR, table=row.id, error=str(exc))
                    continue
            elif row.status == Status.OPEN:
                self.waiting_since[row.id] = row.created_at
            table.schedule()
            self.tables[row.id] = table
        log("tables_loaded", count=len(self.tables), broken=len(self.broken), expired=len(stale))
        return len(self.tables)

    def _expired(self, since: float, now: float) -> bool:
        return now - since >= self.settings.open_table_ttl

    def _table(self, row: TableRow) -> Table:
        game = all_games()[row.game]
        return Table(row=row, game=game, services=self.services)

    async def peek(self, table_id: str) -> Table:
        """The table as held in memory, or read from storage (its stored steps replayed) *without*
        keeping it: enough for its summary and record; 404 if none."""
        if table_id in self.broken:
            raise _broken(table_id)
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > MAX_TABLE_ID:
            raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id[:40]}…'")
        row = await self.storage.load_table(table_id)
        if row is None or row.game not in all_games() or row.status == Status.EXPIRED:
            raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id}'")
        table = self._table(row)
        if row.status in (Status.PLAYING, Status.OVER):
            steps = await self.storage.load_actions(table_id)
            try:
                table.begin(steps)
            except Exception as exc:
                self.broken[table_id] = str(exc)
                log("table_broken", logging.ERROR, table=table_id, error=str(exc))
                raise _broken(table_id) from None
        return table

    async def get(self, table_id: str) -> Table:
        """The table in memory, loading a finished one from storage for whoever watches it (it
        leaves memory again once nobody does); 404 if none."""
        table = self.tables.get(table_id)
        if table is not None and table_id not in self.broken:
            return table
        self.loading[table_id] += 1
        try:
            found = await self.peek(table_id)
            found.connected_elsewhere = await self.services.cluster.presence(table_id)
        finally:
            self.loading[table_id] -= 1
            if not self.loading[table_id]:
                del self.loading[table_id]
        async with self._lock:
            if table_id in self.tables:
                return self.tables[table_id]
            found.schedule()
            self.tables[table_id] = found
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
            held = self.tables.get(row.id)
            if held is not None and held.row.status == row.status:
                summaries.append(held.summary())
            elif row.game in all_games():
                summaries.append(self._table(row).summary())
        return summaries, total

    # ----------------------------------------------------------------------- operations
    async def create(
        self,
        game_id: str,
        *,
        players: int | None,
        seats: list[SeatRequest] | None,
        turn_seconds: int | None,
        name: str | None,
        start: bool,
        client: str = "",
    ) -> tuple[Table, int | None, str | None]:
        """Create a table; the creator sits at the first seat for a person when ``name`` is given.

        Returns the table and, when the creator sits, their seat and token.
        """
        settings = self.settings
        # counting walks every table in memory (finished ones wait there for the sweep): only
        # when there are enough of them for the live ones to reach the cap
        if (
            len(self.tables) >= settings.max_live_tables
            and sum(t.row.status != Status.OVER for t in self.tables.values())
            >= settings.max_live_tables
        ):
            raise Rejected(ErrorCode.SERVER_BUSY, "the server holds all the tables it can")
        owner = owner_of(client) if client and not start else None
        if owner is not None:  # counted in storage: the cap holds across server processes
            mine = await self.storage.count_tables(statuses=[Status.OPEN], owner=owner)
            if mine >= settings.max_open_tables_per_client:
                raise Rejected(
                    ErrorCode.TOO_MANY_TABLES,
                    f"you already have {mine} open tables: start or leave one first",
                )
        game = all_games().get(game_id)
        if game is None:
            raise Rejected(
                "no_game", f"there is no game '{game_id}' (games: {', '.join(all_games())})"
            )
        count = players or (len(seats) if seats else game.spec.min_players)
        try:
            params = game.spec.params({"players": count})
        except InvalidParamsError as exc:
            raise Rejected("bad_request", str(exc)) from None
        requests = seats or [SeatRequest()] + [SeatRequest(bot=True) for _ in range(count - 1)]
        if len(requests) != count:
            raise Rejected("bad_request", f"{count} players but {len(requests)} seats described")
        turn = settings.default_turn_seconds if turn_seconds is None else turn_seconds
        if not settings.min_turn_seconds <= turn <= settings.max_turn_seconds:
            raise Rejected(
                "bad_request",
                f"turn_seconds must be between {settings.min_turn_seconds} and "
                f"{settings.max_turn_seconds}",
            )
        seat_rows = []
        for i, request in enumerate(requests):
            if request.bot:
                level = request.level or settings.fill_level
                if level not in LEVELS:
                    raise Rejected(
                        "bad_request", f"unknown bot level '{level}' ({', '.join(LEVELS)})"
                    )
                seat_rows.append(SeatRow(i, SeatKind.BOT, bot_name(level, i), level))
            else:
                seat_rows.append(SeatRow(i, SeatKind.OPEN, f"Seat {i + 1}"))
        creator_seat: int | None = None
        token: str | None = None
        if name is not None:
            free = [s for s in seat_rows if s.kind == "open"]
            if not free:
                raise Rejected("bad_request", "every seat is a bot: there is no seat for you")
            token = secrets.token_urlsafe(24)
            free[0].kind, free[0].name = "human", clean_name(name, "Player 1")
            free[0].token_hash = token_hash(token)
            creator_seat = free[0].seat
        seed = new_secret()  # the server's secret for this match; only its commitment is shown
        row = TableRow(
            id=secrets.token_urlsafe(6),
            game=game.spec.id,
            params=params,
            seed=seed,
            commitment=commitment(seed),
            status="open",
            turn_seconds=turn,
            created_at=self.services.now(),
            seats=seat_rows,
            owner=owner,
        )
        storage = self.services.storage
        await storage.create_table(row)
        table = self._table(row)
        self.tables[row.id] = table
        log("table_created", table=row.id, game=game.spec.id, players=count)
        if start:
            await self._start(table)
        else:
            self.waiting_since[row.id] = row.created_at
            await table.announce()
            self.changed(row.id)
        return table, creator_seat, token

    async def play_now(
        self,
        game_id: str,
        *,
        players: int | None,
        level: str,
        name: str,
        turn_seconds: int | None,
    ) -> tuple[Table, int | None, str | None]:
        """You at the first seat, bots of ``level`` at the others, started at once."""
        game = all_games().get(game_id)
        count = players or (game.spec.min_players if game else 2)
        seats = [SeatRequest()] + [SeatRequest(True, level) for _ in range(count - 1)]
        return await self.create(
            game_id,
            players=count,
            seats=seats,
            turn_seconds=turn_seconds,
            name=name,
            start=True,
        )

    async def join(self, table_id: str, name: str | None, seat: int | None) -> tuple[int, str]:
        table = await self.get(table_id)
        async with table.lock:
            if table.row.status != "open":
                raise Rejected("not_open", "this table has already started")
            free = [s for s in table.seats if s.kind == "open"]
            if seat is not None and not 0 <= seat < len(table.seats):
                raise Rejected(
                    ErrorCode.BAD_REQUEST,
                    f"seat: this table has seats 0 to {len(table.seats) - 1}, not {seat}",
                )
            if seat is not None:
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise Rejected("seat_taken", f"seat {seat + 1} is not free")
            if not free:
                raise Rejected("table_full", "every seat at this table is taken")
            row = free[0]
            token = secrets.token_urlsafe(24)
            row.kind, row.name, row.token_hash = (
                "human",
                clean_name(name, f"Player {row.seat + 1}"),
                token_hash(token),
            )
            storage = self.services.storage
            await storage.update_seat(table_id, row)
        self.waiting_since[table_id] = self.services.now()
        log("seat_joined", table=table_id, seat=row.seat)
        await table.announce()
        table.changed()
        self.changed(table_id)
        return row.seat, token

    async def leave(self, table_id: str, token: str | None) -> None:
        """Before the start the seat is free again; during the match the table plays for it."""
        table = await self.get(table_id)
        seat = table.seat_for_token(token)
        if seat is None:
            raise Rejected("bad_token", "this token holds no seat at this table")
        async with table.lock:
            row = table.seats[seat]
            if table.row.status == "open":
                row.kind, row.name, row.token_hash, row.away = (
                    "open",
                    f"Seat {seat + 1}",
                    None,
                    False,
                )
            elif table.row.status == "playing":
                row.away = True
            else:
                return
            storage = self.services.storage
            await storage.update_seat(table_id, row)
        log("seat_left", table=table_id, seat=seat)
        await table.announce()
        table.changed()
        self.changed(table_id)
        table.schedule()

    async def start(self, table_id: str, token: str | None) -> Table:
        table = await self.get(table_id)
        if table.seat_for_token(token) is None:
            raise Rejected("bad_token", "only a person seated at this table can start it")
        await self._start(table)
        return table

    async def _start(self, table: Table) -> None:
        settings = self.services.settings
        async with table.lock:
            if table.row.status != "open":
                raise Rejected("not_open", "this table has already started")
            # drive it from here: taken before the start is stored, so a started table always
            # has a lease, which lapses to another process if this one dies
            await self.services.cluster.claim(table.id)
            for row in table.seats:
                if row.kind == "open":
                    row.kind, row.level = "bot", settings.fill_level
                    row.name = bot_name(settings.fill_level, row.seat)
            try:
                await table.start()
            except ConflictError:  # started at another process meanwhile
                await table.refresh()
                raise Rejected("not_open", "this table has already started") from None
        self.waiting_since.pop(table.id, None)
        self.elsewhere.pop(table.id, None)
        log("match_started", table=table.id, game=table.game.spec.id, fingerprint=table.fingerprint)
        await table.announce()
        table.changed()
        self.changed(table.id)
        table.schedule()

    async def record(self, table_id: str) -> MatchRecord:
        """The match record, read without keeping the table: revealed and signed once over."""
        return (await self.peek(table_id)).record()

    # -------------------------------------------------------------------------- sweeping
    async def sweep(self) -> tuple[int, int]:
        """Expire open tables nobody joined for ``open_table_ttl``; let finished tables nobody
        watches leave memory after ``finished_grace`` (the oldest at once beyond
        ``max_finished_tables``). Returns (expired, evicted)."""
        now = self.services.now()
        stale = [
            tid
            for tid, since in self.waiting_since.items()
            if self._expired(since, now) and self.open_table(tid) is not None
        ]
        if stale:
            stale = await self.storage.expire_tables(stale)
        if self.shared:  # open tables whose process died: expired by the database's clock
            orphans = await self.storage.expire_open_tables(now - 2 * self.settings.open_table_ttl)
            stale += [tid for tid in orphans if tid not in stale]
        for tid in stale:
            table = self.tables.pop(tid, None) or (await self._expired_row(tid))
            if table is None:
                continue
            table.row.status = Status.EXPIRED
            self.waiting_since.pop(tid, None)
            self.elsewhere.pop(tid, None)
            await table.announce()
            table.changed()
            self.changed(tid)
            log("table_expired", table=tid)
        if self.shared:
            self._let_go(now)
        over = [t for t in self.tables.values() if t.row.status == Status.OVER]
        for table in over:
            self.over_since.setdefault(table.id, now)
        over.sort(key=lambda t: self.over_since[t.id])
        extra = len(over) - self.settings.max_finished_tables
        evicted = 0
        for table in over:
            if table.listeners:
                continue
            if evicted < extra or now - self.over_since[table.id] >= self.settings.finished_grace:
                table.stop()
                del self.tables[table.id]
                del self.over_since[table.id]
                evicted += 1
        return len(stale), evicted

    async def _expired_row(self, table_id: str) -> Table | None:
        row = await self.storage.load_table(table_id)
        return self._table(row) if row is not None and row.game in all_games() else None

    def _let_go(self, now: float) -> None:
        """Tables held here only for clients who have all left, and driven elsewhere, leave
        memory after ``finished_grace``."""
        cluster = self.services.cluster
        for tid, table in list(self.tables.items()):
            if table.listeners or cluster.drives(tid) or table.row.status == Status.OVER:
                self.idle_since.pop(tid, None)
                continue
            since = self.idle_since.setdefault(tid, now)
            if now - since >= self.settings.finished_grace:
                table.stop()
                del self.tables[tid]
                del self.idle_since[tid]

    async def run_sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.sweep()
            except Exception as exc:  # a failing sweep must not stop the next one
                log("sweep_failed", logging.ERROR, error=repr(exc))

    def shutdown(self) -> None:
        for table in self.tables.values():
            table.stop()


def _broken(table_id: str) -> Rejected:
    return Rejected(
        ErrorCode.TABLE_BROKEN,
        f"table '{table_id}' cannot be served: its stored match does not replay",
    )
