"""A table's state and its ledger: the seats, the match once dealt, the log of what each step
did, and the one routine that records a step, whoever stored it (this process, another process,
or the database read again after a restart).

The table is built in layers, each in its own module and each using only the ones below it:
``ledger`` (state, recording steps) ← ``views`` (what each client is sent) ← ``replication``
(other processes) ← ``driver`` (bots and clocks) ← ``table`` (the actions people send). The few
calls that go up a layer are the abstract methods at the end of :class:`TableBase`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ludoteca.core import Deal, Event, Game, Match, Player, ReplayError, Step, fingerprint
from ludoteca.core.record import Actor

from . import pacing
from .analysis import MatchOverHook, NoAnalysis
from .bots import BotRunner
from .cluster import Cluster, NoticeKind, Solo
from .keys import KeyRing
from .protocol import SeatKind, Status
from .seeding import deal_of, waiting_for
from .storage import ActionRow, SeatRow, Storage, TableRow
from .turns import NoTurnHook, TurnHook

if TYPE_CHECKING:
    from .config import Settings


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
    processes (``cluster``: who drives which table, and telling them what changed), whoever is
    told that a person's turn began (``turns``), whoever analyses a match once it is over
    (``analyses``), and the time (``now`` and ``sleep``, injected so
    tests drive clocks without waiting)."""

    storage: Storage
    bots: BotRunner
    settings: Settings
    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    keys: KeyRing = field(default_factory=KeyRing.ephemeral)
    cluster: Cluster = field(default_factory=Solo)
    turns: TurnHook = field(default_factory=NoTurnHook)
    analyses: MatchOverHook = field(default_factory=NoAnalysis)


@dataclass(slots=True, eq=False)
class TableBase(ABC):
    """A table: its seats, its match once dealt, its log, and who is listening."""

    row: TableRow
    game: Game[Any, Any]
    services: Services
    feed: Callable[[str], None] | None = None  # the lobby's feeds, told while it is listed
    match: Match | None = None
    log: list[LogEntry] = field(default_factory=list)
    listeners: set[Listener] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connected_elsewhere: set[int] = field(default_factory=set)  # seats at other processes
    _driver: asyncio.Task[None] | None = None
    _storing: bool = False  # the timer is storing its move: it re-arms itself (``driver``)
    _views: dict[int | None, tuple[dict[str, Any], list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    _present: set[int] = field(default_factory=set)  # seats at this process, as last announced

    # --------------------------------------------------------------------------- basics
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def status(self) -> Status:
        return Status(self.row.status)

    @property
    def version(self) -> int:
        """The number of steps stored; ``row.version`` is kept equal to the match's."""
        return self.row.version

    def deadline(self, seat: int) -> float:
        """When the person at ``seat``, whose turn it is, must have moved (``pacing``)."""
        started = self.row.turn_started_at or self.services.now()
        return pacing.deadline(
            self.row, self.seats[seat], started, self.services.settings.away_grace
        )

    def due(self) -> float | None:
        """When a turn-based table must next act by itself at the latest (``pacing.due``)."""
        now = self.services.now()
        started = self.row.turn_started_at or now
        delay = self.services.settings.bot_delay
        return pacing.due(self.row, self.to_move(), started, now, delay)

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
        return [Player(s.name, s.kind == SeatKind.BOT, s.level, s.bot_from) for s in self.seats]

    def to_move(self) -> int | None:
        return self.game.to_move(self.match.state) if self.match else None

    def changed(self) -> None:
        """Wake this process's clients of the table (each sends its own view when it next can)."""
        for listener in list(self.listeners):
            listener.wake()

    # --------------------------------------------------------------------------- the deal
    def deal(self) -> Deal:
        """Where this match's seed comes from (``seeding.deal_of``)."""
        return deal_of(self.row)

    def waiting_for(self) -> list[int]:
        """The seated people the deal still waits for: their commitment, then their reveal."""
        return waiting_for(self.row)

    def begin(self, steps: list[ActionRow] | None = None) -> None:
        """Deal the match and replay any stored steps (after a restart, or read from storage)."""
        match = Match(self.game, self.row.params, self.deal(), self.players())
        self.log = [LogEntry(0, None, None, None, match.opening_events, self.row.started_at or 0)]
        self.match = match
        self._views.clear()
        self.replay(steps or [])

    # ----------------------------------------------------------------------- the ledger
    def replay(self, steps: list[ActionRow]) -> None:
        """Apply steps read from storage (the row read with them holds their clock, outcome and
        away flags); a RuntimeError names a step that does not apply, and nothing of it is kept."""
        match = self.match
        assert match is not None
        try:
            replayed = match.replay_steps([Step(a.seat, a.action, actor(a.by)) for a in steps])
        except ReplayError as exc:
            raise RuntimeError(f"table {self.id}: stored {exc}") from exc
        for step, events in zip(steps, replayed, strict=True):
            self.record_step(step, events)

    def take(self, step: ActionRow) -> list[Event]:
        """Apply one step another process stored (ReplayError, and nothing changes, if it does
        not apply here)."""
        match = self.match
        assert match is not None
        (events,) = match.replay_steps([Step(step.seat, step.action, actor(step.by))])
        return events

    def record_step(
        self,
        step: ActionRow,
        events: list[Event],
        *,
        turn_started_at: float | None = None,
        outcome: dict[str, Any] | None = None,
        seat: SeatRow | None = None,
        due_at: float | None = None,
    ) -> None:
        """The bookkeeping after the match took a step, the same whoever stored it: the version,
        the turn's clock, the outcome, the acting seat as it is after the step (each None:
        unchanged), the table's due time and the log."""
        self.row.version = step.seq
        if turn_started_at is not None:
            self.row.turn_started_at = turn_started_at
            self.row.due_at = due_at
        if outcome is not None:
            self.row.status, self.row.outcome = Status.OVER, outcome
        if seat is not None:
            self.seats[step.seat] = seat
        self.log.append(LogEntry(step.seq, step.seat, actor(step.by), step.action, events, step.at))
        self._views.clear()

    # ------------------------------------------------------------- the layers above
    @abstractmethod
    def schedule(self) -> None:
        """(Re)arm the table's one timer (``driver``)."""

    @abstractmethod
    async def announce(self, kind: NoticeKind, step: ActionRow | None = None) -> None:
        """Tell the other processes the table changed (``replication``)."""

    async def after_change(
        self, kind: NoticeKind | None = "row", step: ActionRow | None = None
    ) -> None:
        """Everything that follows a change of the table, in one place: tell the other processes
        (``kind`` None when the change came from them), wake this process's clients, re-arm the
        timer, and tell the lobby feeds (each sends what changed in its list, if anything: a
        step never changes the list of open tables)."""
        if kind is not None:
            await self.announce(kind, step)
        self.changed()
        self.schedule()
        if kind != "step" and self.feed is not None:
            self.feed(self.id)


__all__ = [
    "Listener",
    "LogEntry",
    "ReplayError",
    "Services",
    "TableBase",
    "actor",
    "token_hash",
]
