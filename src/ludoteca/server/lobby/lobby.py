"""The lobby: creating, joining, leaving and starting tables (which tables are held in memory,
and for how long, is ``residency``)."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludoteca.bots import LEVELS
from ludoteca.core import InvalidParamsError, MatchRecord, commitment
from ludoteca.core.fairness import new_secret
from ludoteca.core.prelude import leave_event
from ludoteca.games import all_games
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ConflictError, SeatRow, Storage, TableRow
from ludoteca.server.storage.rows import REAL_TIME
from ludoteca.server.table import pacing, prelude
from ludoteca.server.table.ledger import token_hash
from ludoteca.server.table.services import Services
from ludoteca.server.table.table import Table

from .residency import Residency

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


def owner_of(client: str) -> str:
    """Who opened a table, as stored: a digest of the client's address, not the address."""
    return hashlib.sha256(f"ludoteca/owner\n{client}".encode()).hexdigest()[:32]


def bot_name(level: str, seat: int) -> str:
    return f"Bot {seat + 1} ({level})"


class Lobby:
    """What people do with tables: create, join, leave, start; and the match record. Which
    tables are in memory, and reading them, is the ``residency`` it holds."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.residency = Residency(services)

    @property
    def storage(self) -> Storage:
        return self.services.storage

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
        pace: str = REAL_TIME,
        reserve_seconds: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[Table, int | None, str | None]:
        """Create a table; the creator sits at the first seat for a person when ``name`` is given.
        ``options`` are the game's table options (``GameSpec.options``; defaults for the rest).

        Returns the table and, when the creator sits, their seat and token.
        """
        settings = self.services.settings
        self.check_room()
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
                ErrorCode.NO_GAME,
                f"there is no game '{game_id}' (games: {', '.join(all_games())})",
            )
        count = players or (len(seats) if seats else game.spec.min_players)
        if options and "players" in options:
            raise Rejected(
                ErrorCode.BAD_REQUEST, "players is not a table option: send it as players"
            )
        try:
            params = game.spec.params({**(options or {}), "players": count})
        except InvalidParamsError as exc:
            raise Rejected.of(exc) from None
        requests = seats or [SeatRequest()] + [SeatRequest(bot=True) for _ in range(count - 1)]
        if len(requests) != count:
            raise Rejected(
                ErrorCode.BAD_REQUEST, f"{count} players but {len(requests)} seats described"
            )
        turn, reserve = pacing.chosen(settings, pace, turn_seconds, reserve_seconds)
        seat_rows = []
        for i, request in enumerate(requests):
            if request.bot:
                level = request.level or settings.fill_level
                if level not in LEVELS:
                    raise Rejected(
                        ErrorCode.BAD_REQUEST,
                        f"unknown bot level '{level}' ({', '.join(LEVELS)})",
                    )
                seat_rows.append(SeatRow(i, SeatKind.BOT, bot_name(level, i), level))
            else:
                seat_rows.append(SeatRow(i, SeatKind.OPEN, f"Seat {i + 1}"))
        creator_seat: int | None = None
        token: str | None = None
        if name is not None:
            free = [s for s in seat_rows if s.kind == SeatKind.OPEN]
            if not free:
                raise Rejected(
                    ErrorCode.BAD_REQUEST, "every seat is a bot: there is no seat for you"
                )
            token = secrets.token_urlsafe(24)
            free[0].kind, free[0].name = SeatKind.HUMAN, clean_name(name, "Player 1")
            free[0].token_hash = token_hash(token)
            creator_seat = free[0].seat
        seed = new_secret()  # the server's secret for this match; only its commitment is shown
        row = TableRow(
            id=secrets.token_urlsafe(6),
            game=game.spec.id,
            params=params,
            seed=seed,
            commitment=commitment(seed),
            status=Status.OPEN,
            turn_seconds=turn,
            created_at=self.services.now(),
            seats=seat_rows,
            owner=owner,
            pace=pace,
            reserve_seconds=reserve,
        )
        table = await self.place(row, start=start)
        return table, creator_seat, token

    def check_room(self) -> None:
        """``server_busy`` when this process holds as many live tables as it may."""
        settings = self.services.settings
        # counting walks every table in memory (finished ones wait there for the sweep): only
        # when there are enough of them for the live ones to reach the cap
        if (
            len(self.residency.held) >= settings.max_live_tables
            and sum(h.table.row.status != Status.OVER for h in self.residency.held.values())
            >= settings.max_live_tables
        ):
            raise Rejected(ErrorCode.SERVER_BUSY, "the server holds all the tables it can")

    async def place(self, row: TableRow, *, start: bool) -> Table:
        """Store a new table (ConflictError if its id is taken: nothing else happens), hold it
        here, and start it when asked."""
        await self.storage.create_table(row)
        await prelude.extend(self.storage, row, *prelude.created(row, row.params))
        table = self.residency._table(row)
        self.residency._hold(table, None if start else row.created_at)
        log("table_created", table=row.id, game=row.game, players=len(row.seats), pace=row.pace)
        if start:
            await self._start(table)
        else:
            await table.after_change()
        return table

    async def play_now(
        self,
        game_id: str,
        *,
        players: int | None,
        level: str,
        name: str,
        turn_seconds: int | None,
        pace: str = REAL_TIME,
        reserve_seconds: int | None = None,
        options: Mapping[str, Any] | None = None,
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
            pace=pace,
            reserve_seconds=reserve_seconds,
            options=options,
        )

    async def join(self, table_id: str, name: str | None, seat: int | None) -> tuple[int, str]:
        """Sit a person at a free seat of an open table; the last free seat taken starts it."""
        table = await self.residency.get(table_id)
        async with table.lock:
            await table.current()
            if table.row.status != Status.OPEN:
                raise Rejected(ErrorCode.NOT_OPEN, "this table has already started")
            free = [s for s in table.seats if s.kind == SeatKind.OPEN]
            if seat is not None and not 0 <= seat < len(table.seats):
                raise Rejected(
                    ErrorCode.BAD_REQUEST,
                    f"seat: this table has seats 0 to {len(table.seats) - 1}, not {seat}",
                )
            if seat is not None:
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise Rejected(ErrorCode.SEAT_TAKEN, f"seat {seat + 1} is not free")
            if not free:
                raise Rejected(ErrorCode.TABLE_FULL, "every seat at this table is taken")
            row = free[0]
            token = secrets.token_urlsafe(24)
            row.kind, row.name, row.token_hash = (
                SeatKind.HUMAN,
                clean_name(name, f"Player {row.seat + 1}"),
                token_hash(token),
            )
            row.commitment = row.contribution = row.salt = None  # nothing of whoever sat before
            await self.storage.update_seat(table_id, row)
            await prelude.extend(self.storage, table.row, prelude.sit_of(table.row, row.seat))
            full = not any(s.kind == SeatKind.OPEN for s in table.seats)
        held = self.residency.held.get(table_id)
        if held is not None:
            held.waiting_since = self.services.now()
        log("seat_joined", table=table_id, seat=row.seat, full=full)
        await table.after_change()
        if full:  # every seat is someone's: nobody needs to press Start
            with contextlib.suppress(Rejected):  # unless started meanwhile, here or elsewhere
                await self._start(table)
        return row.seat, token

    async def leave(self, table_id: str, token: str | None) -> int | None:
        """Before the start the seat is free again; during the match the table plays for it.
        Returns the seat when it was freed (left before the start)."""
        table = await self.residency.get(table_id)
        seat = table.seat_for_token(token)
        if seat is None:
            raise Rejected(ErrorCode.BAD_TOKEN, "this token holds no seat at this table")
        async with table.lock:
            await table.current()
            row = table.seats[seat]
            if table.row.status == Status.OPEN:
                row.kind, row.name, row.token_hash, row.away = (
                    SeatKind.OPEN,
                    f"Seat {seat + 1}",
                    None,
                    False,
                )
                # a freed seat's commitment is cleared for everyone, as the store clears it:
                # the next person in this seat must not reveal (or inherit) it
                row.commitment = row.contribution = row.salt = None
            elif table.row.status == Status.PLAYING:
                row.away = True
            else:
                return None
            await self.storage.update_seat(table_id, row)
            freed = seat if row.kind == SeatKind.OPEN else None
            if freed is not None:
                await prelude.extend(self.storage, table.row, leave_event(seat))
        log("seat_left", table=table_id, seat=seat)
        await table.after_change()
        return freed

    async def start(self, table_id: str, token: str | None) -> Table:
        table = await self.residency.get(table_id)
        if table.seat_for_token(token) is None:
            raise Rejected(ErrorCode.BAD_TOKEN, "only a person seated at this table can start it")
        await self._start(table)
        return table

    async def _start(self, table: Table) -> None:
        settings = self.services.settings
        async with table.lock:
            await table.current()
            if table.row.status != Status.OPEN:
                raise Rejected(ErrorCode.NOT_OPEN, "this table has already started")
            # drive it from here: taken before the start is stored, so a started table always
            # has a lease, which lapses to another process if this one dies
            await self.services.cluster.claim(table.id)
            for row in table.seats:
                if row.kind == SeatKind.OPEN:
                    row.kind, row.level = SeatKind.BOT, settings.fill_level
                    row.name = bot_name(settings.fill_level, row.seat)
                    row.commitment = row.contribution = row.salt = None  # a bot has none
            try:
                await table.start()
            except ConflictError:  # started at another process meanwhile (the lock is held)
                await table.catch_up()
                raise Rejected(ErrorCode.NOT_OPEN, "this table has already started") from None
        held = self.residency.held.get(table.id)
        if held is not None:
            held.waiting_since = None
        self.residency.elsewhere.pop(table.id, None)
        log("match_started", table=table.id, game=table.game.spec.id, fingerprint=table.fingerprint)
        await table.after_change()

    async def record(self, table_id: str) -> MatchRecord:
        """The match record, read without keeping the table: revealed and signed once over."""
        return (await self.residency.peek(table_id)).record()
