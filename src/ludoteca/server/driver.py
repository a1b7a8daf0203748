"""A table's one timer: the end of a starting table's wait (its commitments close, or it deals
when reveals are late), a bot's move, or the clock of the person to move, after which the table
plays for them. Only the process holding the table's
lease drives it (``docs/cluster.md``); a timed move goes through the same ``submit`` as a
person's, marked as played by a bot or by the table."""

from __future__ import annotations

import asyncio
from abc import abstractmethod

from ludoteca.core.record import Actor

from .bots import SEARCHING_LEVELS
from .logs import log
from .protocol import ErrorCode, Rejected, SeatKind, Status
from .replication import Replicated


class Driven(Replicated):
    """The driving layer of a table (see ``ledger`` for the layers)."""

    __slots__ = ()

    @abstractmethod
    async def submit(self, seat: int, text: str, version: int | None, by: Actor = "player") -> None:
        """Apply an action, or raise Rejected (``table``)."""

    @abstractmethod
    async def deal_if_due(self) -> None:
        """End a starting table's wait: close its commitments, or deal (``table``)."""

    def schedule(self) -> None:
        """(Re)arm the one timer of this table: the end of the wait for the people's seeds, a
        bot's move or the seat's clock."""
        current = asyncio.current_task()
        if self._driver is not None and self._driver is not current and not self._driver.done():
            if self._storing:
                # cut off now, its step would be stored all the same but never taken here nor
                # announced: it re-arms the timer itself once stored or refused
                return
            self._driver.cancel()
        self._driver = None
        if not self.services.cluster.drives(self.id):
            return  # another process drives this table
        now = self.services.now()
        if self.row.status == Status.STARTING:
            delay = max(0.0, (self.deal_by() or now) - now)
            self._driver = asyncio.create_task(self._deal_later(delay))
            return
        seat = self.to_move()
        if self.row.status != Status.PLAYING or seat is None:
            return
        if any(s.kind == SeatKind.BOT and s.level in SEARCHING_LEVELS for s in self.seats):
            self.services.bots.warm()
        row = self.seats[seat]
        settings = self.services.settings
        by: Actor
        if row.kind == SeatKind.BOT:
            delay, by, level = settings.bot_delay, "bot", row.level or "medium"
        else:
            delay = max(0.0, self.deadline(seat) - now)
            by, level = "table", settings.table_level
        self._driver = asyncio.create_task(self._drive(self.version, seat, delay, by, level))

    async def _deal_later(self, delay: float) -> None:
        await self.services.sleep(delay)
        await self.deal_if_due()

    async def _drive(self, version: int, seat: int, delay: float, by: Actor, level: str) -> None:
        await self.services.sleep(delay)
        match = self.match
        if match is None or self.version != version or self.row.status != Status.PLAYING:
            return
        if not self.services.cluster.drives(self.id):
            return
        try:
            text = await self.services.bots.choose(self.game, match.state, seat, level)
            self._storing = True
            try:
                await self.submit(seat, text, version, by=by)  # re-arms the timer once stored
            finally:
                self._storing = False
            return
        except Rejected as exc:
            if exc.code == ErrorCode.STALE_VERSION:
                # the table moved meanwhile, and ``submit`` read it again: show it, arm for it
                await self.after_change(None)
                return
            log("bot_rejected", table=self.id, seat=seat, code=exc.code, message=exc.message)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bot must never take the table down
            log("bot_failed", table=self.id, seat=seat, error=repr(exc))
        # retry shortly, as the table is then (a change meanwhile did not re-arm it)
        await self.services.sleep(1.0)
        self.schedule()

    def timer(self) -> asyncio.Task[None] | None:
        """The table's one timer, if armed."""
        return self._driver

    def stop(self) -> None:
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
        self._driver = None
