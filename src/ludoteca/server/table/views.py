"""What a table shows: its public summary, each seat's view with its legal actions, the clock,
the log as each seat may read it, and the record (signed once the match is over)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ludoteca.core import MatchRecord
from ludoteca.core.ending import aborted
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage.rows import LAPSED, OFFERED, RematchRow

from . import prelude
from .audience import Audience
from .ledger import Ledger
from .seeding import due

SeatView = tuple[dict[str, Any], list[dict[str, Any]]]


@dataclass(slots=True, eq=False)
class Views:
    """The presentation of a table, computed from its ledger and who is connected; each seat's
    view is kept until the ledger's next change."""

    ledger: Ledger
    audience: Audience
    _cache: dict[int | None, SeatView] = field(default_factory=dict)
    _revision: int = -1

    def seats_json(self) -> list[dict[str, Any]]:
        connected = self.audience.connected()
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
                "connected": s.kind == SeatKind.BOT or s.seat in connected,
                "commitment": s.commitment,
                "contributed": s.contribution is not None,
            }
            for s in self.ledger.seats
        ]

    def clock_json(self) -> dict[str, Any] | None:
        ledger = self.ledger
        seat = ledger.to_move()
        if ledger.row.status != Status.PLAYING or seat is None:
            return None
        row = ledger.seats[seat]
        now = ledger.services.now()
        started = ledger.row.turn_started_at or now
        away = row.kind == SeatKind.HUMAN and row.away
        deadline = ledger.deadline(seat)
        return {
            "seat": seat,
            "pace": ledger.row.pace,
            "turn_seconds": ledger.row.turn_seconds,
            "started_at": round(started, 3),
            "deadline": round(deadline, 3),
            "remaining": round(max(0.0, deadline - now), 3),
            "away": away,
            "bot": row.kind == SeatKind.BOT,
        }

    def summary(self) -> dict[str, Any]:
        """The public description of the table (lobby listings, the HTTP API)."""
        ledger, row, match = self.ledger, self.ledger.row, self.ledger.match
        return {
            "id": row.id,
            "game": ledger.game.spec.id,
            "params": row.params,
            "status": row.status,
            "pace": row.pace,
            "turn_seconds": row.turn_seconds,
            "reserve_seconds": row.reserve_seconds,
            "deadline": self.turn_deadline(),
            "created_at": row.created_at,
            "started_at": row.started_at,
            "version": ledger.version,
            "format": row.format,
            "commitment": row.commitment,
            "fingerprint": ledger.fingerprint,
            "revealing": row.revealing_at is not None,
            "deal_by": self.deal_by(),
            "secret": match.revealed_secret if match else None,
            "seed": match.revealed_seed if match else None,
            "outcome": row.outcome,
            "seats": self.seats_json(),
        }

    def turn_deadline(self) -> float | None:
        """When the person to move must have moved (None unless a person is to move). A row
        read for a listing, its match not replayed, says its stored due time: a sleeping table's
        is its deadline."""
        ledger = self.ledger
        if ledger.match is None and ledger.row.status == Status.PLAYING:
            return ledger.row.due_at
        seat = ledger.to_move()
        if ledger.row.status != Status.PLAYING or seat is None:
            return None
        if ledger.seats[seat].kind != SeatKind.HUMAN:
            return None
        return round(ledger.deadline(seat), 3)

    def deal_by(self) -> float | None:
        """When a starting table stops waiting at the latest: its commitments close, or it deals
        (None unless it is waiting)."""
        return due(self.ledger.row, self.ledger.services.settings.contribution_seconds)

    def record(self) -> MatchRecord:
        """The match record so far; once the match is over, revealed and signed."""
        match = self.ledger.match
        if match is None:
            raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
        record = match.record()
        record.players = self.ledger.players()  # as they are now: a bot may have taken a seat over
        if match.over and record.format >= 2:
            self.ledger.services.keys.sign(record)
        return record

    def seat_view(self, seat: int | None) -> SeatView:
        """The game's view for a seat and its legal action texts, computed once per version
        while the match is played. A finished match's views are not kept: the table waits in
        memory for a while, mostly unwatched, and each view is a hundred objects or so for the
        collector to walk."""
        ledger = self.ledger
        if self._revision != ledger.revision:
            self._cache.clear()
            self._revision = ledger.revision
        cached = self._cache.get(seat)
        if cached is None:
            match = ledger.match
            assert match is not None
            if ledger.row.status != Status.PLAYING:
                return match.view(seat), []
            cached = self._cache[seat] = (match.view(seat), match.legal_choices(seat))
        return cached

    def may_abort(self, seat: int | None) -> bool:
        """Whether the person at ``seat`` may abort now (``core.ending``: before their own first
        move; the daily limit is checked when they do)."""
        ledger, match = self.ledger, self.ledger.match
        if seat is None or match is None or ledger.row.status != Status.PLAYING:
            return False
        return match.ending_problem(aborted(seat)) is None

    def message_for(self, seat: int | None, log_from: int) -> dict[str, Any]:
        """The ``state`` message for a seat (None = spectator), with the log since ``log_from``."""
        ledger = self.ledger
        view, choices = self.seat_view(seat) if ledger.match else (None, [])
        return {
            "type": "state",
            "table": self.summary(),
            "version": ledger.version,
            "chain": ledger.match.chain[-1] if ledger.match else prelude.head(ledger.row),
            "seat": seat,
            "view": view,
            "legal": [c["text"] for c in choices],
            "legal_actions": choices,
            "abort": self.may_abort(seat),
            "clock": self.clock_json(),
            "log_from": log_from,
            "log": [entry.for_seat(seat) for entry in ledger.log[log_from:]],
            "rematch": rematch_json(ledger.rematch, ledger.services.now()),
            # format 5, until the deal: every event since the table's creation (the head binds)
            "prelude": None if ledger.match else list(ledger.row.prelude),
        }


def rotated(seat: int, players: int) -> int:
    """A seat's place at the rematch: one seat earlier, the first going last, so that the first
    player changes."""
    return (seat - 1) % players


def rematch_json(row: RematchRow | None, now: float) -> dict[str, Any] | None:
    """The rematch offer as every client at the finished table sees it (docs/protocol.md): its
    state (an offer past its time reads ``lapsed``), the new table, who offered it, each seat's
    answer and its seat at the new table."""
    if row is None:
        return None
    state = LAPSED if row.state == OFFERED and now >= row.expires_at else row.state
    players = len(row.answers)
    return {
        "state": state,
        "table": row.new_table,
        "by": row.offered_by,
        "answers": list(row.answers),
        "seats": [rotated(seat, players) for seat in range(players)],
        "rated": row.rated,
        "reason": "time" if state != row.state else row.reason,
        "expires_at": round(row.expires_at, 3),
        "expires_in": round(max(0.0, row.expires_at - now), 3) if state == OFFERED else 0.0,
        "version": row.version,
    }


__all__ = ["SeatView", "Views", "rematch_json", "rotated"]
