"""Firing the deadlines of sleeping turn-based tables (``docs/turn-based.md``).

A turn-based table waiting for a person is in no process's memory; its row says when it must act
(``due_at``, indexed, written with each step). One process at a time holds the deadline duty (a
lease in Redis; alone, this process) and, every ``deadline_poll`` seconds, reads the rows due and
makes each table act: it takes the table's lease, reads the table (its one timer then fires the
timeout through the one ``submit`` path) and, once a person is to move again and nobody is
connected, lets it leave memory. A deadline is stored at most once: a second firing finds the
table's version moved and stores nothing (``pacing.FIRED_TWICE``).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from .logs import log
from .residency import Residency

DUTY = "deadlines"
TAKE_AT_ONCE = 16  # tables read from the database at the same time


@dataclass
class Deadlines:
    """The deadline loop of one process, over its residency (the lobby)."""

    residency: Residency
    woken: dict[str, float] = field(default_factory=dict)  # tables read for a deadline: when due
    fired: int = 0  # tables read for a deadline, since start-up
    on_duty: bool = False

    async def run(self) -> None:
        settings = self.residency.settings
        while True:
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a failing round must not stop the next one
                log("deadlines_failed", logging.ERROR, error=repr(exc))
            await asyncio.sleep(settings.deadline_poll)

    async def tick(self) -> int:
        """One round: keep (or take) the duty, fire what is due, let fired tables doze. Returns
        how many tables were read for their deadline."""
        services = self.residency.services
        settings = services.settings
        duty = await services.cluster.duty(DUTY, settings.duty_seconds)
        if duty != self.on_duty:
            log("deadline_duty", held=duty)
            self.on_duty = duty
        await self.doze_woken()
        if not duty:
            return 0
        now = services.now()
        due = await services.storage.due_tables(now, settings.deadline_batch)
        todo = [(tid, at) for tid, _, at in due if not self._driven_here(tid)]
        limit = asyncio.Semaphore(TAKE_AT_ONCE)

        async def wake(table_id: str, due_at: float) -> None:
            async with limit:
                if not await services.cluster.claim(table_id):
                    return  # a live process drives it: its timer fires it
                await self.residency.gained(table_id)
                self.woken[table_id] = due_at
                self.fired += 1
                log("deadline_due", logging.DEBUG, table=table_id, late=round(now - due_at, 3))

        await asyncio.gather(*(wake(tid, at) for tid, at in todo))
        return len(todo)

    def _driven_here(self, table_id: str) -> bool:
        """Held and driven here: its own timer fires it (and it is let doze afterwards)."""
        held = table_id in self.residency.held
        if held and self.residency.services.cluster.drives(table_id):
            self.woken.setdefault(table_id, 0.0)
            return True
        return False

    async def doze_woken(self) -> None:
        """Tables read for a deadline leave memory again once they may (``Residency.doze``);
        one with a bot to move, or its timeout on the way, is tried again next round."""
        for table_id in list(self.woken):
            held = self.residency.held.get(table_id)
            if held is None or await self.residency.doze(table_id):
                del self.woken[table_id]
            elif held.table.listeners or held.table.connected_elsewhere:
                del self.woken[table_id]  # someone is at it: the sweep lets it doze later
            elif held.table.row.status != "playing":
                del self.woken[table_id]
