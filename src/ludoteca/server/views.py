"""What a table shows: its public summary, each seat's view with its legal actions, the clock,
the log as each seat may read it, and the record (signed once the match is over)."""

from __future__ import annotations

from typing import Any

from ludoteca.core import MatchRecord

from .ledger import TableBase
from .protocol import ErrorCode, Rejected, SeatKind, Status


class Presented(TableBase):
    """The presentation layer of a table (see ``ledger`` for the layers)."""

    __slots__ = ()

    def seats_json(self) -> list[dict[str, Any]]:
        listening = {getattr(listener, "seat", None) for listener in self.listeners}
        listening |= self.connected_elsewhere
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "kind": s.kind,
                "bot": s.kind == SeatKind.BOT,
                "level": s.level,
                "away": s.away,
                "connected": s.kind == SeatKind.BOT or s.seat in listening,
                "contributed": s.contribution is not None,
            }
            for s in self.seats
        ]

    def clock_json(self) -> dict[str, Any] | None:
        seat = self.to_move()
        if self.row.status != Status.PLAYING or seat is None:
            return None
        row = self.seats[seat]
        now = self.services.now()
        started = self.row.turn_started_at or now
        away = row.kind == SeatKind.HUMAN and row.away
        return {
            "seat": seat,
            "turn_seconds": self.row.turn_seconds,
            "started_at": round(started, 3),
            "deadline": round(self.clock.deadline(started, away), 3),
            "remaining": round(self.clock.remaining(started, now, away), 3),
            "away": away,
            "bot": row.kind == SeatKind.BOT,
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
        if self.row.status != Status.STARTING:
            return None
        return (self.row.started_at or 0) + self.services.settings.contribution_seconds

    def record(self) -> MatchRecord:
        """The match record so far; once the match is over, revealed and signed."""
        match = self.match
        if match is None:
            raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
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
            if self.row.status != Status.PLAYING:
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
