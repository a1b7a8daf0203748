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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ludoteca.core import (
    Deal,
    Event,
    Game,
    IllegalActionError,
    InvalidActionError,
    Match,
    MatchOverError,
    MatchRecord,
    NotYourTurnError,
    Player,
    ReplayError,
    StaleVersionError,
    Step,
    fingerprint,
)
from ludoteca.core.fairness import contribution_problem
from ludoteca.core.record import Actor

from .bots import SEARCHING_LEVELS, BotRunner
from .clock import TurnClock, next_turn_start
from .cluster import Cluster, Notice, Solo
from .keys import KeyRing
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
    """What a table needs from the process: storage, bots, settings, signing keys, the other
    processes (``cluster``: who drives which table, and telling them what changed), and the time
    (``now`` and ``sleep``, injected so tests drive clocks without waiting)."""

    storage: Storage
    bots: BotRunner
    settings: Settings
    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    keys: KeyRing = field(default_factory=KeyRing.ephemeral)
    cluster: Cluster = field(default_factory=Solo)


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
    connected_elsewhere: set[int] = field(default_factory=set)  # seats at other processes
    _present: set[int] = field(default_factory=set)  # seats at this process, as last announced

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
    def deal(self) -> Deal:
        """Where this match's seed comes from: the secret and every contribution (format 2), or
        the stored seed itself (tables created before players' seeds, format 1)."""
        if self.row.format < 2:
            return Deal(self.row.seed)
        contributions = tuple(s.contribution if s.kind == "human" else None for s in self.seats)
        return Deal(self.row.seed, self.id, contributions)

    def waiting_for(self) -> list[int]:
        """The seated people whose contribution the deal still waits for."""
        return [s.seat for s in self.seats if s.kind == "human" and s.contribution is None]

    def begin(self, steps: list[ActionRow] | None = None) -> None:
        """Deal the match and replay any stored steps (after a restart)."""
        match = Match(self.game, self.row.params, self.deal(), self.players())
        self.log = [LogEntry(0, None, None, None, match.opening_events, self.row.started_at or 0)]
        self.match = match
        self._replay(steps or [])

    def _replay(self, steps: list[ActionRow]) -> None:
        """Apply stored steps to the match, and log them (a RuntimeError names a bad one)."""
        assert self.match is not None
        stored = [Step(a.seat, a.action, actor(a.by)) for a in steps]
        try:
            replayed = self.match.replay_steps(stored)
        except ReplayError as exc:
            raise RuntimeError(f"table {self.id}: stored {exc}") from exc
        self.log += [
            LogEntry(a.seq, a.seat, actor(a.by), a.action, events, a.at)
            for a, events in zip(steps, replayed, strict=True)
        ]
        self._views.clear()

    async def contribute(self, seat: int, text: object) -> None:
        """The person at ``seat`` adds their own seed to the deal (before it is dealt); when the
        last person waiting has sent theirs, the match is dealt at once."""
        problem = contribution_problem(text)
        if problem:
            raise Rejected("bad_contribution", problem)
        assert isinstance(text, str)
        async with self.lock:
            if self.row.status not in ("open", "starting"):
                raise Rejected("already_dealt", "the match is already dealt")
            if self.row.format < 2:
                raise Rejected(
                    "already_dealt", "this table was made before players' seeds: its deal is fixed"
                )
            row = self.seats[seat]
            row.contribution = text
            storage = self.services.storage
            await storage.update_seat(self.id, row)
            dealt = self.row.status == "starting" and not self.waiting_for()
            if dealt:
                try:
                    await self._deal()
                except ConflictError:  # another process dealt it meanwhile
                    await self._catch_up()
        log("contribution", table=self.id, seat=seat, dealt=dealt)
        await self.announce()
        self.changed()
        self.schedule()

    async def start(self) -> None:
        """Start the match (the caller holds the lock and has seated bots in empty seats): dealt
        at once when no person's contribution is missing, else after the last one arrives or
        ``contribution_seconds`` pass, whichever is first."""
        now = self.services.now()
        storage = self.services.storage
        waiting = self.row.format >= 2 and bool(self.waiting_for())
        status = "starting" if waiting else "playing"
        await storage.start_table(self.id, self.seats, now, status)
        self.row.status, self.row.started_at, self.row.turn_started_at = status, now, now
        if not waiting:
            self.begin()

    async def _deal(self) -> None:
        """Deal a starting table now (the caller holds the lock)."""
        now = self.services.now()
        storage = self.services.storage
        await storage.deal_table(self.id, now)
        self.row.status, self.row.turn_started_at = "playing", now
        self.begin()
        log("match_dealt", table=self.id, missing=self.waiting_for())

    async def _deal_when_due(self, delay: float) -> None:
        await self.services.sleep(delay)
        async with self.lock:
            if self.row.status != "starting" or not self.services.cluster.drives(self.id):
                return
            try:
                await self._deal()
            except ConflictError:  # the last seed arrived at another process meanwhile
                await self._catch_up()
        await self.announce()
        self.changed()
        self.schedule()

    # --------------------------------------------------------------------------- acting
    async def submit(self, seat: int, text: str, version: int | None, by: Actor = "player") -> None:
        """Apply ``seat``'s action if it is valid now; raise Rejected (nothing changes) if not."""
        started = time.perf_counter()
        async with self.lock:
            match = self.match
            if self.row.status in ("open", "starting") or match is None:
                raise Rejected("not_started", "the match has not been dealt yet")
            if self.row.status != "playing":
                raise Rejected("match_over", "the match is over")
            try:
                prepared = match.prepare(seat, text, version)
            except MatchOverError as exc:
                raise Rejected("match_over", str(exc)) from None
            except NotYourTurnError as exc:
                raise Rejected("not_your_turn", str(exc)) from None
            except StaleVersionError as exc:
                raise Rejected("stale_version", f"{exc}; here is the current state") from None
            except InvalidActionError as exc:
                raise Rejected("invalid_action", str(exc)) from None
            except IllegalActionError as exc:
                raise Rejected("illegal_action", str(exc)) from None
            now = self.services.now()
            seat_after = self.game.to_move(prepared.state)
            outcome = self.game.outcome(prepared.state)
            if outcome is not None:
                outcome = outcome.canonical(len(self.seats))
            turn_start = next_turn_start(self.row.turn_started_at or now, seat, seat_after, now)
            step = ActionRow(match.version + 1, seat, prepared.text, by, now)
            outcome_json = outcome.to_json() if outcome else None
            try:
                await self.services.storage.append(Append(self.id, step, turn_start, outcome_json))
            except ConflictError:
                await self._catch_up()
                raise Rejected(
                    "stale_version", "the table moved on meanwhile; here is the current state"
                ) from None
            except Exception as exc:  # the database is unreachable: nothing was applied
                log("store_failed", logging.ERROR, table=self.id, error=repr(exc))
                raise Rejected(
                    "server_busy", "your action could not be stored just now: send it again"
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
        await self.announce("step", step)
        self.changed()
        self.schedule()

    async def _mark_away(self, seat: int, away: bool) -> None:
        row = self.seats[seat]
        if row.kind != "human" or row.away == away:
            return
        row.away = away
        storage = self.services.storage
        await storage.update_seat(self.id, row)

    async def back(self, seat: int) -> None:
        """The person at ``seat`` is back: the table stops playing for them after a short grace."""
        async with self.lock:
            await self._mark_away(seat, away=False)
        await self.announce()
        self.changed()
        self.schedule()

    # ------------------------------------------------------------ several processes
    async def announce(self, kind: str = "row", step: ActionRow | None = None) -> None:
        """Tell the other processes this table changed (a step stored, or anything else); a
        notice that cannot be sent is logged, never fatal: what changed is stored already."""
        cluster = self.services.cluster
        if not cluster.shared:
            return
        public = None
        if step is not None:
            public = {
                "seq": step.seq,
                "seat": step.seat,
                "action": step.action,
                "by": step.by,
                "at": step.at,
                "turn_started_at": self.row.turn_started_at,
                "outcome": self.row.outcome,
            }
        summary = self.summary() if self.row.status == "open" else None
        notice = Notice(self.id, kind, cluster.name, self.version, self.row.status, public, summary)
        try:
            await cluster.publish(notice)
        except Exception as exc:
            log("notice_not_sent", logging.WARNING, table=self.id, error=repr(exc))

    def seated_listeners(self) -> set[int]:
        """The seats with a client connected to this process."""
        return {
            s for listener in self.listeners if (s := getattr(listener, "seat", None)) is not None
        }

    async def seated_here(self) -> None:
        """A client came or went: tell the others which seats are connected here; and drive the
        table from here if the process driving it has no seated person connected."""
        cluster = self.services.cluster
        seats = self.seated_listeners()
        if cluster.shared and seats != self._present:
            self._present = seats
            try:
                await cluster.present(self.id, seats)
            except Exception as exc:
                log("notice_not_sent", logging.WARNING, table=self.id, error=repr(exc))
            await self.announce("presence")
            live = self.row.status in ("starting", "playing")
            if seats and live and not cluster.drives(self.id) and await cluster.draw(self.id):
                # the table here is current (read when the client came, then kept by notices);
                # should it not be, its first timed move is fenced and the table read again
                log("lease_drawn", table=self.id)
                self.schedule()
        self.changed()

    async def hear(self, notice: Notice) -> None:
        """Another process changed this table: take its step, or read the table again."""
        if notice.kind == "lease":
            return  # who drives it changed: the cluster has stopped this process's timers
        if notice.kind == "presence":
            self.connected_elsewhere = await self.services.cluster.presence(self.id)
            self.changed()
            return
        async with self.lock:
            step = notice.step
            match = self.match
            if notice.kind == "step" and step is not None and match is not None:
                if step["seq"] <= match.version:
                    return  # already here
                if step["seq"] == match.version + 1 and self._take_step(step):
                    pass
                else:
                    await self._catch_up()
            else:
                await self._catch_up()
        self.changed()
        self.schedule()

    def _take_step(self, step: dict[str, Any]) -> bool:
        """Apply a step another process stored (the caller holds the lock); False if it does not
        apply here, so the table is read again from the database."""
        match = self.match
        assert match is not None
        by = actor(step["by"])
        try:
            (events,) = match.replay_steps([Step(step["seat"], step["action"], by)])
        except ReplayError as exc:
            log("notice_unusable", logging.WARNING, table=self.id, error=str(exc))
            return False
        self._views.clear()
        self.row.version = match.version
        self.row.turn_started_at = step["turn_started_at"]
        if step["outcome"] is not None:
            self.row.status, self.row.outcome = "over", step["outcome"]
        self.log.append(
            LogEntry(match.version, step["seat"], by, step["action"], events, step["at"])
        )
        seat = self.seats[step["seat"]]
        if seat.kind == "human":
            seat.away = by == "table"  # what the storing process stored, by the same rule
        return True

    async def refresh(self) -> None:
        """Read the table again from the database (notices may have been missed)."""
        async with self.lock:
            await self._catch_up()
        self.connected_elsewhere = await self.services.cluster.presence(self.id)
        self.changed()
        self.schedule()

    async def _catch_up(self) -> None:
        """Catch up with what other writers stored (the caller holds the lock; the database is
        the authority): the row, and the steps after the ones held here."""
        storage = self.services.storage
        row = await storage.load_table(self.id)
        if row is None:
            return
        match = self.match
        if match is None or row.status in ("open", "starting"):
            self.row = row
            if row.status in ("playing", "over"):
                self.begin(await storage.load_actions(self.id))
            return
        self._replay(await storage.load_actions(self.id, after=match.version))
        self.row = row

    # ------------------------------------------------------------------ bots and clocks
    def schedule(self) -> None:
        """(Re)arm the one timer of this table: a bot's move or the clock of the seat to move."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current and not self._driver.done():
            self._driver.cancel()
        self._driver = None
        if not self.services.cluster.drives(self.id):
            return  # another process drives this table
        if self.row.status == "starting":
            due = (self.row.started_at or 0) + self.services.settings.contribution_seconds
            delay = max(0.0, due - self.services.now())
            self._driver = asyncio.create_task(self._deal_when_due(delay))
            return
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
        await self.services.sleep(delay)
        match = self.match
        if match is None or match.version != version or self.row.status != "playing":
            return
        if not self.services.cluster.drives(self.id):
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
            await self.services.sleep(1.0)
            if self.match is not None and self.match.version == version:
                self.schedule()

    def stop(self) -> None:
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
        self._driver = None

    # --------------------------------------------------------------------------- views
    def seats_json(self) -> list[dict[str, Any]]:
        listening = {getattr(listener, "seat", None) for listener in self.listeners}
        listening |= self.connected_elsewhere
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.kind == "bot",
                "level": s.level,
                "away": s.away,
                "connected": s.kind == "bot" or s.seat in listening,
                "contributed": s.contribution is not None,
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
            "format": self.row.format,
            "commitment": self.row.commitment,
            "fingerprint": self.fingerprint,
            "deal_by": self.deal_by(),
            "secret": self.match.revealed_secret if self.match else None,
            "seed": self.match.revealed_seed if self.match else None,
            "outcome": self.row.outcome,
            "seats": self.seats_json(),
        }

    def deal_by(self) -> float | None:
        """When a starting table deals at the latest (None unless it is waiting)."""
        if self.row.status != "starting":
            return None
        return (self.row.started_at or 0) + self.services.settings.contribution_seconds

    def record(self) -> MatchRecord:
        """The match record so far; once the match is over, revealed and signed."""
        match = self.match
        if match is None:
            raise Rejected("not_started", "the match has not been dealt yet")
        record = match.record()
        if match.over and record.format >= 2:
            self.services.keys.sign(record)
        return record

    def seat_view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The game's view for a seat and its legal action texts, computed once per version
        while the match is played. A finished match's views are not kept: the table waits in
        memory for a while, mostly unwatched, and each view is a hundred objects or so for the
        collector to walk."""
        cached = self._views.get(seat)
        if cached is None:
            match = self.match
            assert match is not None
            if self.row.status != "playing":
                return match.view(seat), []
            cached = self._views[seat] = (match.view(seat), match.legal(seat))
        return cached

    def message_for(self, seat: int | None, log_from: int) -> dict[str, Any]:
        """The ``state`` message for a seat (None = spectator), with the log since ``log_from``."""
        view, legal = self.seat_view(seat) if self.match else (None, [])
        return {
            "type": "state",
            "table": self.summary(),
            "version": self.version,
            "chain": self.match.chain[-1] if self.match else None,
            "seat": seat,
            "view": view,
            "legal": legal,
            "clock": self.clock_json(),
            "log_from": log_from,
            "log": [entry.for_seat(seat) for entry in self.log[log_from:]],
        }
