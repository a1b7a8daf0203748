"""The authoritative table: validate, store, apply, tell everyone — for every registered game.

A :class:`Table` is built from parts that each own their state (``docs/server.md``): its
``ledger`` (the row, the match and the log, and ``record_step``, the one bookkeeping after a
step), its ``audience`` (who is connected), its ``views`` (what each seat is sent), its ``replica``
(the other processes) and its ``driver`` (its one timer: bots and clocks). This module holds the
actions people send and ``after_change``, the one routine after any change.

One ``asyncio.Lock`` per table orders its actions. An action is checked (match live, this seat to
act, version current, action legal), its step is committed to the database (with the seat's away
flag, in the same transaction), and only then does the in-memory match move on
(``record_step``) and everything that follows a change happen (``after_change``). A bot seat or
a seat whose clock ran out goes through the very same ``submit``, marked as played by a bot or by
the table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ludoteca.core import Game, LudotecaError, Match, MatchRecord
from ludoteca.core.prelude import commit_event, reveal_event
from ludoteca.core.record import Actor
from ludoteca.server.cluster.base import Notice, NoticeKind
from ludoteca.server.logs import log, monotonic_ms
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ActionRow, Append, ConflictError, SeatRow, TableRow

from . import pacing, prelude
from .audience import Audience, Listener
from .clock import next_turn_start
from .driver import Driver
from .ledger import Ledger, LogEntry
from .replication import Replica
from .seeding import commitment_problem, repeated_reveal, reveal_problem
from .services import Services
from .views import SeatView, Views


class Table:
    """A table: its seats, its match once started, its log, and who is listening. The parts
    are built here and wired to each other; the properties and methods that only hand a call to
    one part say so in one line."""

    __slots__ = ("audience", "driver", "feed", "ledger", "lock", "replica", "views")

    def __init__(
        self,
        row: TableRow,
        game: Game[Any, Any],
        services: Services,
        feed: Callable[[str], None] | None = None,
    ) -> None:
        self.ledger = Ledger(row, game, services)
        self.audience = Audience()
        self.views = Views(self.ledger, self.audience)
        self.lock = asyncio.Lock()
        self.driver = Driver(
            self.ledger, self.views, self.submit, self.deal_if_due, self.after_change
        )
        self.replica = Replica(
            self.ledger, self.views, self.audience, self.lock, self.after_change, self.schedule
        )
        self.feed = feed  # the lobby's feeds, told while the table is listed

    # ------------------------------------------------------------------- the ledger's
    @property
    def row(self) -> TableRow:
        return self.ledger.row

    @property
    def game(self) -> Game[Any, Any]:
        return self.ledger.game

    @property
    def services(self) -> Services:
        return self.ledger.services

    @property
    def match(self) -> Match | None:
        return self.ledger.match

    @property
    def log(self) -> list[LogEntry]:
        return self.ledger.log

    @property
    def id(self) -> str:
        return self.ledger.id

    @property
    def seats(self) -> list[SeatRow]:
        return self.ledger.seats

    @property
    def status(self) -> Status:
        return self.ledger.status

    @property
    def version(self) -> int:
        return self.ledger.version

    @property
    def fingerprint(self) -> str:
        return self.ledger.fingerprint

    def to_move(self) -> int | None:
        return self.ledger.to_move()

    def seat_for_token(self, token: str | None) -> int | None:
        return self.ledger.seat_for_token(token)

    def waiting_for(self) -> list[int]:
        return self.ledger.waiting_for()

    def deadline(self, seat: int) -> float:
        return self.ledger.deadline(seat)

    def due(self) -> float | None:
        return self.ledger.due()

    # ------------------------------------------------------- the audience's and views'
    @property
    def listeners(self) -> set[Listener]:
        return self.audience.listeners

    def summary(self) -> dict[str, Any]:
        return self.views.summary()

    def seat_view(self, seat: int | None) -> SeatView:
        return self.views.seat_view(seat)

    def message_for(self, seat: int | None, log_from: int) -> dict[str, Any]:
        return self.views.message_for(seat, log_from)

    def deal_by(self) -> float | None:
        return self.views.deal_by()

    def record(self) -> MatchRecord:
        return self.views.record()

    # ---------------------------------------------------- the replica's and driver's
    async def hear(self, notice: Notice) -> None:
        await self.replica.hear(notice)

    async def refresh(self) -> None:
        await self.replica.refresh()

    async def current(self) -> None:
        await self.replica.current()

    async def catch_up(self) -> None:
        await self.replica.catch_up()

    async def seated_here(self) -> None:
        await self.replica.seated_here()

    def schedule(self) -> None:
        self.driver.schedule()

    def timer(self) -> asyncio.Task[None] | None:
        return self.driver.timer()

    def stop(self) -> None:
        self.driver.stop()

    # ----------------------------------------------------------------- after a change
    async def after_change(
        self, kind: NoticeKind | None = "row", step: ActionRow | None = None
    ) -> None:
        """Everything that follows a change of the table, in one place: tell the other processes
        (``kind`` None when the change came from them), wake this process's clients, re-arm the
        timer, and tell the lobby feeds (each sends what changed in its list, if anything: a
        step never changes the list of open tables)."""
        if kind is not None:
            await self.replica.announce(kind, step)
        self.audience.wake()
        self.driver.schedule()
        if kind != "step" and self.feed is not None:
            self.feed(self.id)

    # ---------------------------------------------------------------------------- start
    async def commit(self, seat: int, text: object) -> None:
        """The person at ``seat`` commits to a seed of their own (``SHA-256(seed + "\\n" +
        salt)``), or replaces their commitment, while the commitments are open; when the table
        has started and every person has committed, the commitments close and the reveals open."""
        problem = commitment_problem(text)
        if problem:
            raise Rejected(ErrorCode.BAD_COMMITMENT, problem)
        assert isinstance(text, str)
        async with self.lock:
            await self.current()  # clustered: the row as stored, not a copy behind it
            self._refuse_once_dealt()
            if self.row.revealing_at is not None:
                raise Rejected(
                    ErrorCode.COMMITMENTS_CLOSED,
                    "the commitments are closed: every seat now reveals what it committed to",
                )
            try:
                await self.services.storage.commit_seat(self.id, seat, text)
            except ConflictError:  # another process closed the commitments or dealt meanwhile
                await self.catch_up()
                raise Rejected(
                    ErrorCode.COMMITMENTS_CLOSED, "the commitments closed meanwhile"
                ) from None
            row = self.seats[seat]
            row.commitment, row.contribution, row.salt = text, None, None
            await prelude.extend(self.services.storage, self.row, commit_event(seat, text))
            closed = self.row.status == Status.STARTING and not self.waiting_for()
            if closed:
                await self._close_commitments()
        log("commitment", table=self.id, seat=seat, closed=closed)
        await self.after_change()

    async def reveal(self, seat: int, seed: object, salt: object) -> None:
        """The person at ``seat`` reveals the seed and salt they committed to, once the
        commitments are closed; when the last person waiting has revealed, the match is dealt.
        The same reveal again (a client that sent it twice, a retry) is accepted and changes
        nothing, before or after the deal; a different one is ``bad_reveal``."""
        async with self.lock:
            await self.current()  # clustered: the row as stored, not a copy behind it
            if repeated_reveal(self.row, seat, seed, salt):
                return
            self._refuse_once_dealt()
            if self.row.revealing_at is None:
                raise Rejected(
                    ErrorCode.NOT_REVEALING,
                    "the commitments are still open: reveal once every seat has committed",
                )
            row = self.seats[seat]
            problem = reveal_problem(row, seed, salt)
            if problem:
                raise Rejected(*problem)
            assert isinstance(seed, str) and isinstance(salt, str)
            try:
                await self.services.storage.reveal_seat(self.id, seat, seed, salt)
            except ConflictError:  # another process dealt meanwhile
                await self.catch_up()
                raise Rejected(ErrorCode.ALREADY_DEALT, "the match was dealt meanwhile") from None
            row.contribution, row.salt = seed, salt
            await prelude.extend(self.services.storage, self.row, reveal_event(seat, seed, salt))
            dealt = not self.waiting_for()
            if dealt:
                await self._deal()
        log("reveal", table=self.id, seat=seat, dealt=dealt)
        await self.after_change()

    def _refuse_once_dealt(self) -> None:
        prelude.refuse_once_dealt(self.row)

    async def start(self) -> None:
        """Start the match (the caller holds the lock and has seated bots in empty seats). A
        table with people waits for their commitments, then for their reveals (each until every
        one is in, or ``contribution_seconds``), then deals; one without deals at once."""
        now = self.services.now()
        waiting = self.row.format >= 2 and any(s.kind == SeatKind.HUMAN for s in self.seats)
        status = Status.STARTING if waiting else Status.PLAYING
        await self.services.storage.start_table(self.id, self.seats, now, status)
        self.row.status, self.row.started_at, self.row.turn_started_at = status, now, now
        self.row.due_at = now if pacing.turn_based(self.row) else None
        await prelude.extend(self.services.storage, self.row, *prelude.seated_at_start(self.row))
        if not waiting:
            await prelude.extend(self.services.storage, self.row, *prelude.at_deal(self.row))
            await self.services.publog.closed(self.row)  # no one to wait for: fixed at once
            self.ledger.begin()
            await self._turn_began()
        elif not self.waiting_for():
            await self._close_commitments()

    async def _close_commitments(self) -> None:
        """Close a starting table's commitments and open its reveals (the caller holds the
        lock); with nobody to wait for, deal at once."""
        now = self.services.now()
        try:
            await self.services.storage.open_reveals(self.id, now)
        except ConflictError:  # another process closed them (or dealt) meanwhile
            await self.catch_up()
            return
        self.row.revealing_at = now
        await prelude.extend(self.services.storage, self.row, *prelude.closing(self.row))
        await self.services.publog.closed(self.row)  # public before anyone reveals
        log("commitments_closed", table=self.id, missing=self.waiting_for())
        if not self.waiting_for():
            await self._deal()

    async def _deal(self) -> None:
        """Deal a starting table now (the caller holds the lock), from its seats as the database
        holds them at that moment; if another process dealt it meanwhile, take its deal."""
        now = self.services.now()
        try:
            stored = await self.services.storage.deal_table(self.id, now)
        except ConflictError:
            await self.catch_up()
            return
        self.row.seats = stored
        await prelude.extend(self.services.storage, self.row, *prelude.at_deal(self.row))
        self.row.status, self.row.turn_started_at = Status.PLAYING, now
        self.row.due_at = now if pacing.turn_based(self.row) else None
        self.ledger.begin()
        await self._turn_began()
        log("match_dealt", table=self.id, withheld=self.waiting_for())

    async def _turn_began(self) -> None:
        """The first turn of a turn-based match began (the caller stored the deal): its due time
        is stored (the deal stored it as due at once) and a person to move is told."""
        due_at = self.due()
        if due_at is None:
            return
        if await self.services.storage.set_due(self.id, self.version, due_at):
            self.row.due_at = due_at
        self._tell_turn()

    def _tell_turn(self) -> None:
        """A person's turn began at this turn-based table, stored by this process: tell
        ``Services.turns`` (exactly once per turn: only the process that stored the step)."""
        seat = self.to_move()
        if not pacing.turn_based(self.row) or self.row.status != Status.PLAYING or seat is None:
            return
        if self.seats[seat].kind != SeatKind.HUMAN or seat in self.audience.connected():
            return  # a bot's turn, or the person has the table open: their page tells them
        try:
            self.services.turns.turn_began(self.ledger.turn_began(seat))
        except Exception as exc:  # whoever listens must not stop the table
            log("turn_hook_failed", logging.ERROR, table=self.id, error=repr(exc))

    async def deal_if_due(self) -> None:
        """A starting table's wait is over: close its commitments, or deal."""
        async with self.lock:
            if self.row.status != Status.STARTING or not self.services.cluster.drives(self.id):
                return
            if self.row.revealing_at is None:
                await self._close_commitments()
            else:
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
            if by == "player" and self.seats[seat].kind != SeatKind.HUMAN:
                raise Rejected(
                    ErrorCode.NOT_YOUR_TURN, "a bot plays this seat now: the table took it over"
                )
            try:
                prepared = match.prepare(seat, text, version)
            except LudotecaError as exc:
                raise Rejected.of(exc) from None
            now = self.services.now()
            outcome = self.game.outcome(prepared.state)
            result = outcome.to_json() if outcome else None
            seat_after = self.game.to_move(prepared.state)
            turn_start = next_turn_start(self.row.turn_started_at or now, seat, seat_after, now)
            step = ActionRow(match.version + 1, seat, prepared.text, by, now)
            acted = pacing.acted(
                self.row,
                self.seats[seat],
                by,
                turn_over=seat_after != seat,
                now=now,
                seq=step.seq,
                takeover_after=self.services.settings.takeover_after,
                level=self.services.settings.table_level,
            )
            due_at = self._due_after(acted or self.seats[seat], seat_after, turn_start, now, result)
            item = Append(self.id, step, turn_start, result, acted, due_at)
            try:
                await self.services.storage.append(item)
            except ConflictError:
                await self.catch_up()
                if by == "table" and self.log[-1].by == "table" and self.version >= step.seq:
                    # two processes fired this deadline: the second stored nothing
                    pacing.FIRED_TWICE[self.id] += 1
                    log("fired_twice", logging.WARNING, table=self.id, version=step.seq - 1)
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
            self.ledger.record_step(
                step, events, turn_started_at=turn_start, outcome=result, seat=acted, due_at=due_at
            )
            if acted is not None and acted.bot_from is not None:
                log("seat_taken_over", table=self.id, seat=seat, after=step.seq)
            if turn_start == now and seat_after is not None:
                self._tell_turn()
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
            self.services.analyses.match_over(self.id)  # queued in the background
            self.services.publog.ended(self.id, Status.OVER, step.seq)
        await self.after_change("step", step)

    def _due_after(
        self,
        acted: SeatRow,
        seat_after: int | None,
        turn_start: float,
        now: float,
        result: dict[str, object] | None,
    ) -> float | None:
        """The table's due time once a step is stored (``pacing.due``, with the acting seat as
        the step leaves it)."""
        if result is not None or not pacing.turn_based(self.row):
            return None
        seats = list(self.seats)
        seats[acted.seat] = acted
        row = replace(self.row, seats=seats)
        return pacing.due(row, seat_after, turn_start, now, self.services.settings.bot_delay)

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
