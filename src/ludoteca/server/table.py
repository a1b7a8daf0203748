"""The authoritative table: validate, store, apply, tell everyone — for every registered game.

One ``asyncio.Lock`` per table orders its actions. An action is checked (match live, this seat to
act, version current, action legal), its step is committed to the database, and only then does the
in-memory match move on and the connections wake up. A bot seat or a seat whose clock ran out goes
through the very same ``submit`` path, marked as played by a bot or by the table.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ludoteca.core import (
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Match,
    Player,
    fingerprint,
)
from ludoteca.core.record import Actor

from .bots import SEARCHING_LEVELS, BotRunner
from .clock import TurnClock, next_turn_start
from .logs import log, monotonic_ms
from .storage import ActionRow, Append, ConflictError, SeatRow, Storage, TableRow

if TYPE_CHECKING:
    from .config import Settings


class Rejected(Exception):
    """An action or request refused; ``code`` is stable, ``message`` says why in plain words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Listener(Protocol):
    """A connection that wants to hear when the table changes."""

    def wake(self) -> None: ...


def actor(by: str) -> Actor:
    """A stored 'by' column as an Actor (anything unknown reads as a person)."""
    if by == "bot":
        return "bot"
    if by == "table":
        return "table"
    return "player"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class LogEntry:
    """What one accepted action did: who, how (player, bot, table), the text, and its events."""

    version: int
    seat: int | None
    by: Actor | None
    action: str | None
    events: list[Event]
    at: float

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        return {
            "v": self.version,
            "seat": self.seat,
            "by": self.by,
            "action": self.action,
            "at": round(self.at, 3),
            "events": [e.for_seat(seat) for e in self.events],
        }


@dataclass(slots=True)
class Services:
    """What a table needs from the process: storage, bots, settings and the time."""

    storage: Storage
    bots: BotRunner
    settings: Settings
    now: Callable[[], float] = time.time


@dataclass(slots=True, eq=False)
class Table:
    """A table: its seats, its match once started, its log, and who is listening."""

    row: TableRow
    game: Game[Any, Any]
    services: Services
    match: Match | None = None
    log: list[LogEntry] = field(default_factory=list)
    listeners: set[Listener] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    _driver: asyncio.Task[None] | None = None
    _views: dict[int | None, tuple[dict[str, Any], list[str]]] = field(default_factory=dict)

    # --------------------------------------------------------------------------- basics
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def version(self) -> int:
        return self.match.version if self.match else self.row.version

    @property
    def clock(self) -> TurnClock:
        return TurnClock(self.row.turn_seconds, self.services.settings.away_grace)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.row.commitment)

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat this token holds at this table, or None."""
        if not token:
            return None
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return seat.seat
        return None

    def players(self) -> list[Player]:
        return [Player(s.name, s.kind == "bot", s.level) for s in self.seats]

    def to_move(self) -> int | None:
        return self.game.to_move(self.match.state) if self.match else None

    def changed(self) -> None:
        for listener in list(self.listeners):
            listener.wake()

    # ---------------------------------------------------------------------------- start
    def begin(self, steps: list[ActionRow] | None = None) -> None:
        """Deal the match from the seed and replay any stored steps (after a restart)."""
        match = Match(self.game, self.row.params, self.row.seed, self.players())
        opening = LogEntry(
            0, None, None, None, list(match.opening_events), self.row.started_at or 0
        )
        self.log = [opening]
        for step in steps or []:
            by = actor(step.by)
            try:
                events = match.act(step.seat, step.action, by)
            except (IllegalActionError, InvalidActionError) as exc:
                raise RuntimeError(
                    f"table {self.id}: stored step {step.seq} does not replay: {exc}"
                ) from exc
            self.log.append(LogEntry(step.seq, step.seat, by, step.action, events, step.at))
        self.match = match
        self._views.clear()

    # --------------------------------------------------------------------------- acting
    async def submit(self, seat: int, text: str, version: int | None, by: Actor = "player") -> None:
        """Apply ``seat``'s action if it is valid now; raise Rejected (nothing changes) if not."""
        started = time.perf_counter()
        async with self.lock:
            match = self.match
            if self.row.status == "open" or match is None:
                raise Rejected("not_started", "the match has not started yet")
            if self.row.status != "playing":
                raise Rejected("match_over", "the match is over")
            to_move = self.game.to_move(match.state)
            if seat != to_move:
                raise Rejected("not_your_turn", f"it is not your turn (seat {to_move} is to move)")
            try:
                prepared = match.prepare(seat, text)
            except InvalidActionError as exc:
                raise Rejected("invalid_action", str(exc)) from None
            except IllegalActionError as exc:
                raise Rejected("illegal_action", str(exc)) from None
            if version is not None and version != match.version:
                raise Rejected(
                    "stale_version",
                    f"you acted on version {version} but the table is at version "
                    f"{match.version}; here is the current state",
                )
            now = self.services.now()
            seat_after = self.game.to_move(prepared.state)
            outcome = self.game.outcome(prepared.state)
            turn_start = next_turn_start(self.row.turn_started_at or now, seat, seat_after, now)
            step = ActionRow(match.version + 1, seat, prepared.text, by, now)
            outcome_json = outcome.to_json() if outcome else None
            try:
                await self.services.storage.append(Append(self.id, step, turn_start, outcome_json))
            except ConflictError:
                await self._reload()
                raise Rejected(
                    "stale_version", "the table moved on meanwhile; here is the current state"
                ) from None
            events = match.commit(prepared, by)
            self._views.clear()
            self.row.version = match.version
            self.row.turn_started_at = turn_start
            if outcome is not None:
                self.row.status = "over"
                self.row.outcome = outcome_json
            self.log.append(LogEntry(match.version, seat, by, prepared.text, events, now))
            await self._mark_away(seat, away=by == "table")
        log(
            "action",
            logging.DEBUG,
            table=self.id,
            seat=seat,
            by=by,
            version=step.seq,
            action=prepared.text,
            ms=monotonic_ms(started),
        )
        if outcome is not None:
            log("match_over", table=self.id, outcome=outcome.to_json())
        self.changed()
        self.schedule()

    async def _mark_away(self, seat: int, away: bool) -> None:
        row = self.seats[seat]
        if row.kind != "human" or row.away == away:
            return
        row.away = away
        storage = self.services.storage
        await storage.run(storage.update_seat, self.id, row)

    async def back(self, seat: int) -> None:
        """The person at ``seat`` is back: the table stops playing for them after a short grace."""
        async with self.lock:
            await self._mark_away(seat, away=False)
        self.changed()
        self.schedule()

    async def _reload(self) -> None:
        """Catch up with steps another writer stored (the database is the authority)."""
        storage = self.services.storage
        row = await storage.run(storage.load_table, self.id)
        steps = await storage.run(storage.load_actions, self.id)
        if row is None:
            return
        self.row = row
        self.begin(steps)

    # ------------------------------------------------------------------ bots and clocks
    def schedule(self) -> None:
        """(Re)arm the one timer of this table: a bot's move or the clock of the seat to move."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current and not self._driver.done():
            self._driver.cancel()
        self._driver = None
        seat = self.to_move()
        if self.row.status != "playing" or seat is None:
            return
        if any(s.kind == "bot" and s.level in SEARCHING_LEVELS for s in self.seats):
            self.services.bots.warm()
        row = self.seats[seat]
        settings = self.services.settings
        by: Actor
        if row.kind == "bot":
            delay, by, level = settings.bot_delay, "bot", row.level or "medium"
        else:
            started = self.row.turn_started_at or self.services.now()
            delay = self.clock.remaining(started, self.services.now(), row.away)
            by, level = "table", settings.table_level
        self._driver = asyncio.create_task(self._drive(self.version, seat, delay, by, level))

    async def _drive(self, version: int, seat: int, delay: float, by: Actor, level: str) -> None:
        await asyncio.sleep(delay)
        match = self.match
        if match is None or match.version != version or self.row.status != "playing":
            return
        try:
            text = await self.services.bots.choose(self.game, match.state, seat, level)
            await self.submit(seat, text, version, by=by)
        except Rejected as exc:
            if exc.code != "stale_version":
                log("bot_rejected", table=self.id, seat=seat, code=exc.code, message=exc.message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bot must never take the table down; retry shortly
            log("bot_failed", table=self.id, seat=seat, error=repr(exc))
            await asyncio.sleep(1.0)
            if self.match is not None and self.match.version == version:
                self.schedule()

    def stop(self) -> None:
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
        self._driver = None

    # --------------------------------------------------------------------------- views
    def seats_json(self) -> list[dict[str, Any]]:
        listening = {getattr(listener, "seat", None) for listener in self.listeners}
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.kind == "bot",
                "level": s.level,
                "away": s.away,
                "connected": s.kind == "bot" or s.seat in listening,
            }
            for s in self.seats
        ]

    def clock_json(self) -> dict[str, Any] | None:
        seat = self.to_move()
        if self.row.status != "playing" or seat is None:
            return None
        row = self.seats[seat]
        now = self.services.now()
        started = self.row.turn_started_at or now
        away = row.kind == "human" and row.away
        return {
            "seat": seat,
            "turn_seconds": self.row.turn_seconds,
            "started_at": round(started, 3),
            "deadline": round(self.clock.deadline(started, away), 3),
            "remaining": round(self.clock.remaining(started, now, away), 3),
            "away": away,
            "bot": row.kind == "bot",
        }

    def summary(self) -> dict[str, Any]:
        """The public description of the table (lobby listings, the HTTP API)."""
        return {
            "id": self.id,
            "game": self.game.spec.id,
            "params": self.row.params,
            "status": self.row.status,
            "turn_seconds": self.row.turn_seconds,
            "created_at": self.row.created_at,
            "started_at": self.row.started_at,
            "version": self.version,
            "commitment": self.row.commitment,
            "fingerprint": self.fingerprint,
            "seed": self.row.seed if self.row.status == "over" else None,
            "outcome": self.row.outcome,
            "seats": self.seats_json(),
        }

    def seat_view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The game's view for a seat and its legal action texts, computed once per version."""
        cached = self._views.get(seat)
        if cached is None:
            match = self.match
            assert match is not None
            legal: list[str] = []
            if (
                self.row.status == "playing"
                and seat is not None
                and self.game.to_move(match.state) == seat
            ):
                legal = self.game.legal_texts(match.state)
            cached = self._views[seat] = (self.game.view(match.state, seat), legal)
        return cached

    def message_for(self, seat: int | None, log_from: int) -> dict[str, Any]:
        """The ``state`` message for a seat (None = spectator), with the log since ``log_from``."""
        view, legal = self.seat_view(seat) if self.match else (None, [])
        return {
            "type": "state",
            "table": self.summary(),
            "version": self.version,
            "seat": seat,
            "view": view,
            "legal": legal,
            "clock": self.clock_json(),
            "log_from": log_from,
            "log": [entry.for_seat(seat) for entry in self.log[log_from:]],
        }
