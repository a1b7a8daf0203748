"""The authoritative table: validate, store, apply, tell everyone — for every registered game.

One ``asyncio.Lock`` per table orders its actions. An action is checked (match live, this seat to
act, version current, action legal), its step is committed to the database (with the seat's away
flag, in the same transaction), and only then does the in-memory match move on
(``record_step``) and everything that follows a change happen (``after_change``). A bot seat or
a seat whose clock ran out goes through the very same ``submit``, marked as played by a bot or by
the table. The layers below (``ledger``, ``views``, ``replication``, ``driver``) each have one job.
"""

from __future__ import annotations

import logging
import time

from ludoteca.core import LudotecaError
from ludoteca.core.fairness import contribution_problem
from ludoteca.core.record import Actor

from .clock import next_turn_start
from .driver import Driven
from .ledger import away_after
from .logs import log, monotonic_ms
from .protocol import ErrorCode, Rejected, SeatKind, Status
from .storage import ActionRow, Append, ConflictError


class Table(Driven):
    """A table: its seats, its match once started, its log, and who is listening."""

    __slots__ = ()

    # ---------------------------------------------------------------------------- start
    async def contribute(self, seat: int, text: object) -> None:
        """The person at ``seat`` adds their own seed to the deal (before it is dealt); when the
        last person waiting has sent theirs, the match is dealt at once."""
        problem = contribution_problem(text)
        if problem:
            raise Rejected(ErrorCode.BAD_CONTRIBUTION, problem)
        assert isinstance(text, str)
        async with self.lock:
            await self.current()
            if self.row.status not in (Status.OPEN, Status.STARTING):
                raise Rejected(ErrorCode.ALREADY_DEALT, "the match is already dealt")
            if self.row.format < 2:
                raise Rejected(
                    ErrorCode.ALREADY_DEALT,
                    "this table was made before players' seeds: its deal is fixed",
                )
            row = self.seats[seat]
            row.contribution = text
            await self.services.storage.update_seat(self.id, row)
            dealt = self.row.status == Status.STARTING and not self.waiting_for()
            if dealt:
                await self._deal()
        log("contribution", table=self.id, seat=seat, dealt=dealt)
        await self.after_change()

    async def start(self) -> None:
        """Start the match (the caller holds the lock and has seated bots in empty seats): dealt
        at once when no person's contribution is missing, else after the last one arrives or
        ``contribution_seconds`` pass, whichever is first."""
        now = self.services.now()
        waiting = self.row.format >= 2 and bool(self.waiting_for())
        status = Status.STARTING if waiting else Status.PLAYING
        await self.services.storage.start_table(self.id, self.seats, now, status)
        self.row.status, self.row.started_at, self.row.turn_started_at = status, now, now
        if not waiting:
            self.begin()

    async def _deal(self) -> None:
        """Deal a starting table now (the caller holds the lock); if another process dealt it
        meanwhile, take its deal from the database."""
        now = self.services.now()
        try:
            await self.services.storage.deal_table(self.id, now)
        except ConflictError:
            await self.catch_up()
            return
        self.row.status, self.row.turn_started_at = Status.PLAYING, now
        self.begin()
        log("match_dealt", table=self.id, missing=self.waiting_for())

    async def deal_if_due(self) -> None:
        async with self.lock:
            if self.row.status != Status.STARTING or not self.services.cluster.drives(self.id):
                return
            await self._deal()
        await self.after_change()

    # --------------------------------------------------------------------------- acting
    async def submit(self, seat: int, text: str, version: int | None, by: Actor = "player") -> None:
        """Apply ``seat``'s action if it is valid now; raise Rejected (nothing changes) if not."""
        started = time.perf_counter()
        async with self.lock:
            match = self.match
            if self.row.status in (Status.OPEN, Status.STARTING) or match is None:
                raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
            if self.row.status != Status.PLAYING:
                raise Rejected(ErrorCode.MATCH_OVER, "the match is over")
            try:
                prepared = match.prepare(seat, text, version)
            except LudotecaError as exc:
                raise Rejected.of(exc) from None
            now = self.services.now()
            outcome = self.game.outcome(prepared.state)
            result = outcome.canonical(len(self.seats)).to_json() if outcome else None
            seat_after = self.game.to_move(prepared.state)
            turn_start = next_turn_start(self.row.turn_started_at or now, seat, seat_after, now)
            step = ActionRow(match.version + 1, seat, prepared.text, by, now)
            away = away_after(self.seats[seat], by)
            try:
                await self.services.storage.append(Append(self.id, step, turn_start, result, away))
            except ConflictError:
                await self.catch_up()
                raise Rejected(
                    ErrorCode.STALE_VERSION,
                    "the table moved on meanwhile; here is the current state",
                ) from None
            except Exception as exc:  # the database is unreachable: nothing was applied
                log("store_failed", logging.ERROR, table=self.id, error=repr(exc))
                raise Rejected(
                    ErrorCode.SERVER_BUSY, "your action could not be stored just now: send it again"
                ) from None
            events = match.commit(prepared, by)
            self.record_step(step, events, turn_started_at=turn_start, outcome=result, away=away)
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
        if result is not None:
            log("match_over", table=self.id, outcome=result)
        await self.after_change("step", step)

    async def back(self, seat: int) -> None:
        """The person at ``seat`` is back: the table stops playing for them after a short grace."""
        async with self.lock:
            row = self.seats[seat]
            if row.kind != SeatKind.HUMAN or not row.away:
                return
            row.away = False
            await self.services.storage.update_seat(self.id, row)
        await self.after_change()


__all__ = ["Table"]
