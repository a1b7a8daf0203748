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

from ludoteca.server.logs import log

from .residency import Residency

DUTY = "deadlines"
TAKE_AT_ONCE = 16  # tables read from the database at the same time
FIRING_SECONDS = 5.0  # how long a round waits for a woken table's timer before moving on


@dataclass
class Deadlines:
    """The deadline loop of one process, over its residency (the lobby)."""

    residency: Residency
    woken: dict[str, float] = field(default_factory=dict)  # tables read for a deadline: when due
    fired: int = 0  # tables read for a deadline, since start-up
    on_duty: bool = False
    _firing: set[str] = field(default_factory=set)  # being read and fired now
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _reading: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(TAKE_AT_ONCE))

    async def run(self) -> None:
        settings = self.residency.settings
        try:
            while True:
                try:
                    await self.tick()
                except Exception as exc:  # a failing round must not stop the next one
                    log("deadlines_failed", logging.ERROR, error=repr(exc))
                await self.residency.services.sleep(settings.deadline_poll)
        finally:
            for task in list(self._tasks):
                task.cancel()

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
        todo = [(t, at) for t, _, at in due if t not in self._firing and not self._driven_here(t)]
        for table_id, due_at in todo:
            self._firing.add(table_id)
            task = asyncio.create_task(self._fire(table_id, due_at))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return len(todo)

    async def _fire(self, table_id: str, due_at: float) -> None:
        """Drive the table from here and read it: its timer plays for the seat; once it has,
        the table sleeps again at once, its lease let go (else at a later round)."""
        services = self.residency.services
        try:
            async with self._reading:
                if not await services.cluster.claim(table_id):
                    return  # a live process drives it: its timer fires it
                table = await self.residency.wake(table_id)
            self.fired += 1
            late = round(services.now() - due_at, 3)
            log("deadline_due", logging.DEBUG, table=table_id, late=late)
            if table is None:
                return
            self.woken[table_id] = due_at
            timer = table.timer()
            due_now = (table.due() or 0.0) <= services.now() + 1.0
            if timer is not None and due_now:
                await asyncio.wait([timer], timeout=FIRING_SECONDS)
            if await self.residency.doze(table_id):
                self.woken.pop(table_id, None)
        except Exception as exc:  # one table must not stop the others: tried again next round
            log("deadline_failed", logging.ERROR, table=table_id, error=repr(exc))
        finally:
            self._firing.discard(table_id)

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
            elif held.table.listeners or held.table.audience.elsewhere:
                del self.woken[table_id]  # someone is at it: the sweep lets it doze later
            elif held.table.row.status != "playing":
                del self.woken[table_id]
