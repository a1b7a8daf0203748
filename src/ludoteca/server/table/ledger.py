"""A table's state and its ledger: the seats, the match once dealt, the log of what each step
did, and the one routine that records a step, whoever stored it (this process, another process,
or the database read again after a restart).

The ledger is the part of a :class:`~ludoteca.server.table.table.Table` every other part reads;
it does no I/O and knows nothing of clients, other processes or timers.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any

from ludoteca.core import Deal, Event, Game, Match, Player, ReplayError, Step, fingerprint
from ludoteca.core.record import Actor
from ludoteca.server.messages import SeatKind, Status
from ludoteca.server.storage import ActionRow, RematchRow, SeatRow, TableRow

from . import pacing
from .seeding import deal_of, waiting_for
from .services import Services
from .turns import TurnBegan


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


@dataclass(slots=True, eq=False)
class Ledger:
    """A table's row as stored, its match once dealt and its log. ``revision`` counts every
    change of the match or the log, so what is computed from them (``Views``) knows when to
    compute it again."""

    row: TableRow
    game: Game[Any, Any]
    services: Services
    match: Match | None = None
    log: list[LogEntry] = field(default_factory=list)
    revision: int = 0
    rematch: RematchRow | None = None  # the rematch offered once over, as last read or written

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

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.row.commitment)

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
        return self.match.to_move if self.match else None

    def turn_began(self, seat: int) -> TurnBegan:
        """The news that ``seat``'s turn began: the table, the deadline, and the last step
        (who played it, how, and its events as ``seat`` sees them), every seat named."""
        last = self.log[-1] if self.log else None
        return TurnBegan(
            self.id,
            self.game.spec.id,
            seat,
            self.version,
            self.deadline(seat),
            names=tuple(s.name for s in self.seats),
            mover=last.seat if last else None,
            by=last.by if last else None,
            events=tuple(e.for_seat(seat) for e in last.events) if last else (),
        )

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
        self.revision += 1
        self.replay(steps or [])
        self.apply_ending()

    def apply_ending(self) -> None:
        """The row says the match ended other than by the rules (stored here, at another process,
        or before a restart): the match ends the same way, its chain binding the end."""
        ended = (self.row.outcome or {}).get("ended")
        match = self.match
        if match is not None and ended is not None and match.ended is None:
            match.end(ended)
            self.revision += 1

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
            if seat.bot_from == step.seq and self.seats[step.seat].bot_from is None:
                self.take_over(seat)
            self.seats[step.seat] = seat
        self.log.append(LogEntry(step.seq, step.seat, actor(step.by), step.action, events, step.at))
        self.revision += 1

    def take_over(self, seat: SeatRow) -> None:
        """A bot took the person's seat over with the step just recorded: the match marks the
        seat the bot's from this version, and (format 4) its chain binds the takeover."""
        match = self.match
        assert match is not None
        match.take_over(seat.seat, seat.level)


__all__ = ["Ledger", "LogEntry", "actor", "token_hash"]
