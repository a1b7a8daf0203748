"""What a table shows: its public summary, each seat's view with its legal actions, the clock,
the log as each seat may read it, and the record (signed once the match is over)."""

from __future__ import annotations

from typing import Any

from ludoteca.core import MatchRecord
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status

from .ledger import TableBase
from .seeding import due


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
                "timeouts": s.timeouts,
                "bot_from": s.bot_from,
                "connected": s.kind == SeatKind.BOT or s.seat in listening,
                "commitment": s.commitment,
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
        deadline = self.deadline(seat)
        return {
            "seat": seat,
            "pace": self.row.pace,
            "turn_seconds": self.row.turn_seconds,
            "started_at": round(started, 3),
            "deadline": round(deadline, 3),
            "remaining": round(max(0.0, deadline - now), 3),
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
            "pace": self.row.pace,
            "turn_seconds": self.row.turn_seconds,
            "reserve_seconds": self.row.reserve_seconds,
            "deadline": self.turn_deadline(),
            "created_at": self.row.created_at,
            "started_at": self.row.started_at,
            "version": self.version,
            "format": self.row.format,
            "commitment": self.row.commitment,
            "fingerprint": self.fingerprint,
            "revealing": self.row.revealing_at is not None,
            "deal_by": self.deal_by(),
            "secret": self.match.revealed_secret if self.match else None,
            "seed": self.match.revealed_seed if self.match else None,
            "outcome": self.row.outcome,
            "seats": self.seats_json(),
        }

    def turn_deadline(self) -> float | None:
        """When the person to move must have moved (None unless a person is to move). A row
        read for a listing, its match not replayed, says its stored due time: a sleeping table's
        is its deadline."""
        if self.match is None and self.row.status == Status.PLAYING:
            return self.row.due_at
        seat = self.to_move()
        if self.row.status != Status.PLAYING or seat is None:
            return None
        if self.seats[seat].kind != SeatKind.HUMAN:
            return None
        return round(self.deadline(seat), 3)

    def deal_by(self) -> float | None:
        """When a starting table stops waiting at the latest: its commitments close, or it deals
        (None unless it is waiting)."""
        return due(self.row, self.services.settings.contribution_seconds)

    def record(self) -> MatchRecord:
        """The match record so far; once the match is over, revealed and signed."""
        match = self.match
        if match is None:
            raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
        record = match.record()
        record.players = self.players()  # as they are now: a bot may have taken a seat over
        if match.over and record.format >= 2:
            self.services.keys.sign(record)
        return record

    def seat_view(self, seat: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
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
            cached = self._views[seat] = (match.view(seat), match.legal_choices(seat))
        return cached

    def message_for(self, seat: int | None, log_from: int) -> dict[str, Any]:
        """The ``state`` message for a seat (None = spectator), with the log since ``log_from``."""
        view, choices = self.seat_view(seat) if self.match else (None, [])
        return {
            "type": "state",
            "table": self.summary(),
            "version": self.version,
            "chain": self.match.chain[-1] if self.match else None,
            "seat": seat,
            "view": view,
            "legal": [c["text"] for c in choices],
            "legal_actions": choices,
            "clock": self.clock_json(),
            "log_from": log_from,
            "log": [entry.for_seat(seat) for entry in self.log[log_from:]],
        }
