"""The lobby: creating, joining, leaving and starting tables; reloading them after a restart."""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

from ludoteca.bots import LEVELS
from ludoteca.core import InvalidParamsError, MatchRecord, commitment
from ludoteca.core.fairness import new_secret
from ludoteca.games import all_games

from .logs import log
from .storage import SeatRow, TableRow
from .table import Listener, Rejected, Services, Table, token_hash

MAX_NAME = 24


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


def bot_name(level: str, seat: int) -> str:
    return f"Bot {seat + 1} ({level})"


class Lobby:
    """All tables this process serves, by id."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.tables: dict[str, Table] = {}
        self.watchers: set[Listener] = set()  # lobby pages following the list of open tables
        self._lock = asyncio.Lock()

    def changed(self) -> None:
        """The list of open tables may have changed: wake whoever follows it."""
        for watcher in list(self.watchers):
            watcher.wake()

    # ------------------------------------------------------------------------- start-up
    async def load(self) -> int:
        """Reload every open and unfinished table; replay matches and restart clocks and bots."""
        storage = self.services.storage
        statuses = ("open", "starting", "playing")
        rows = await storage.run(storage.tables_with_status, statuses, 100_000)
        for row in rows:
            table = self._table(row)
            if row.status == "playing":
                steps = await storage.run(storage.load_actions, row.id)
                table.begin(steps)
            table.schedule()
            self.tables[row.id] = table
        log("tables_loaded", count=len(rows))
        return len(rows)

    def _table(self, row: TableRow) -> Table:
        game = all_games()[row.game]
        return Table(row=row, game=game, services=self.services)

    async def get(self, table_id: str) -> Table:
        """The table, loading a finished one from the database on demand; 404 if none."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        storage = self.services.storage
        row = await storage.run(storage.load_table, table_id)
        if row is None or row.game not in all_games():
            raise Rejected("no_table", f"there is no table '{table_id}'")
        async with self._lock:
            if table_id in self.tables:
                return self.tables[table_id]
            table = self._table(row)
            if row.status in ("playing", "over"):
                table.begin(await storage.run(storage.load_actions, table_id))
            table.schedule()
            self.tables[table_id] = table
            return table

    def listing(self, status: str) -> list[dict[str, Any]]:
        found = [t.summary() for t in self.tables.values() if t.row.status == status]
        return sorted(found, key=lambda t: -float(t["created_at"]))

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
    ) -> tuple[Table, int | None, str | None]:
        """Create a table; the creator sits at the first seat for a person when ``name`` is given.

        Returns the table and, when the creator sits, their seat and token.
        """
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
        settings = self.services.settings
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
                seat_rows.append(SeatRow(i, "bot", bot_name(level, i), level))
            else:
                seat_rows.append(SeatRow(i, "open", f"Seat {i + 1}"))
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
        )
        storage = self.services.storage
        await storage.run(storage.create_table, row)
        table = self._table(row)
        self.tables[row.id] = table
        log("table_created", table=row.id, game=game.spec.id, players=count)
        if start:
            await self._start(table)
        else:
            self.changed()
        return table, creator_seat, token

    async def join(self, table_id: str, name: str | None, seat: int | None) -> tuple[int, str]:
        table = await self.get(table_id)
        async with table.lock:
            if table.row.status != "open":
                raise Rejected("not_open", "this table has already started")
            free = [s for s in table.seats if s.kind == "open"]
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
            await storage.run(storage.update_seat, table_id, row)
        log("seat_joined", table=table_id, seat=row.seat)
        table.changed()
        self.changed()
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
            await storage.run(storage.update_seat, table_id, row)
        log("seat_left", table=table_id, seat=seat)
        table.changed()
        self.changed()
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
            for row in table.seats:
                if row.kind == "open":
                    row.kind, row.level = "bot", settings.fill_level
                    row.name = bot_name(settings.fill_level, row.seat)
            await table.start()
        log("match_started", table=table.id, game=table.game.spec.id, fingerprint=table.fingerprint)
        table.changed()
        self.changed()
        table.schedule()

    async def record(self, table_id: str) -> MatchRecord:
        """The match record: revealed and signed once the match is over."""
        return (await self.get(table_id)).record()

    def shutdown(self) -> None:
        for table in self.tables.values():
            table.stop()
