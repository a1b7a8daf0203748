"""A table's one timer: the end of a starting table's wait (its commitments close, or it deals
when reveals are late), a bot's move, or the clock of the person to move, after which the table
plays for them. Only the process holding the table's
lease drives it (``docs/cluster.md``); a timed move goes through the same ``submit`` as a
person's, marked as played by a bot or by the table."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from ludoteca.core.record import Actor
from ludoteca.server.cluster.base import NoticeKind
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status

from .bot_runner import SEARCHING_LEVELS
from .ledger import Ledger
from .views import Views

Submit = Callable[[int, str, int | None, Actor], Awaitable[None]]
"""The table's ``submit``: a seat, an action's text, the version it was chosen at, and who."""


@dataclass(slots=True, eq=False)
class Driver:
    """The timer of one table, and what it does when it fires: ``deal_if_due`` for a starting
    table, ``submit`` of a bot's choice for a bot's seat or a person's whose time ran out. A
    move the timer is storing is never cut off (``_storing``): a re-read of the table meanwhile
    would otherwise leave that step stored but neither taken here nor announced, and the table
    without a timer; the move re-arms the timer itself once stored (the table's
    ``after_change``) or refused."""

    ledger: Ledger
    views: Views
    submit: Submit
    deal_if_due: Callable[[], Awaitable[None]]
    after_change: Callable[[NoticeKind | None], Awaitable[None]]
    _task: asyncio.Task[None] | None = None
    _storing: bool = False

    def schedule(self) -> None:
        """(Re)arm the one timer of this table: the end of the wait for the people's seeds, a
        bot's move or the seat's clock."""
        ledger, services = self.ledger, self.ledger.services
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            if self._storing:
                return  # it re-arms the timer itself once stored or refused
            self._task.cancel()
        self._task = None
        if not services.cluster.drives(ledger.id):
            return  # another process drives this table
        now = services.now()
        if ledger.row.status == Status.STARTING:
            delay = max(0.0, (self.views.deal_by() or now) - now)
            self._task = asyncio.create_task(self._deal_later(delay))
            return
        seat = ledger.to_move()
        if ledger.row.status != Status.PLAYING or seat is None:
            return
        if any(s.kind == SeatKind.BOT and s.level in SEARCHING_LEVELS for s in ledger.seats):
            services.bots.warm()
        row = ledger.seats[seat]
        settings = services.settings
        by: Actor
        if row.kind == SeatKind.BOT:
            delay, by, level = settings.bot_delay, "bot", row.level or "medium"
        else:
            delay = max(0.0, ledger.deadline(seat) - now)
            by, level = "table", settings.table_level
        self._task = asyncio.create_task(self._drive(ledger.version, seat, delay, by, level))

    async def _deal_later(self, delay: float) -> None:
        await self.ledger.services.sleep(delay)
        await self.deal_if_due()

    async def _drive(self, version: int, seat: int, delay: float, by: Actor, level: str) -> None:
        ledger, services = self.ledger, self.ledger.services
        await services.sleep(delay)
        match = ledger.match
        if match is None or ledger.version != version or ledger.row.status != Status.PLAYING:
            return
        if not services.cluster.drives(ledger.id):
            return
        try:
            text = await services.bots.choose(ledger.game, match.state, seat, level)
            self._storing = True
            try:
                await self.submit(seat, text, version, by)  # re-arms the timer once stored
            finally:
                self._storing = False
            return
        except Rejected as exc:
            if exc.code == ErrorCode.STALE_VERSION:
                # the table moved meanwhile, and ``submit`` read it again: show it, arm for it
                await self.after_change(None)
                return
            log("bot_rejected", table=ledger.id, seat=seat, code=exc.code, message=exc.message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bot must never take the table down
            log("bot_failed", table=ledger.id, seat=seat, error=repr(exc))
        # retry shortly, as the table is then (a change meanwhile did not re-arm it)
        await services.sleep(1.0)
        self.schedule()

    def timer(self) -> asyncio.Task[None] | None:
        """The table's one timer, if armed."""
        return self._task

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None


__all__ = ["Driver", "Submit"]
