"""A table among several processes: telling the others what changed here, taking the steps they
stored, reading the table again from the database when a notice was missed, and who is connected
where (``docs/cluster.md``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from ludoteca.core import ReplayError
from ludoteca.server.cluster.base import Notice, NoticeKind
from ludoteca.server.logs import log
from ludoteca.server.messages import Status
from ludoteca.server.storage import ActionRow

from .audience import Audience
from .ledger import Ledger
from .views import Views


@dataclass(slots=True, eq=False)
class Replica:
    """A table's side of the cluster. It changes the ledger only under the table's ``lock`` and
    then hands over to the table's ``after_change`` (told ``None``: the change came from
    elsewhere, so nobody else need be told); a client seated here may make this process draw
    the table's lease and ``schedule`` its timer."""

    ledger: Ledger
    views: Views
    audience: Audience
    lock: asyncio.Lock
    after_change: Callable[[NoticeKind | None], Awaitable[None]]
    schedule: Callable[[], None]
    _present: set[int] = field(default_factory=set)  # seats at this process, as last announced

    async def announce(self, kind: NoticeKind, step: ActionRow | None = None) -> None:
        """Tell the other processes this table changed (a step stored, or anything else); a
        notice that cannot be sent is logged, never fatal: what changed is stored already."""
        ledger = self.ledger
        cluster = ledger.services.cluster
        if not cluster.shared:
            return
        public = None
        if step is not None:
            seat = ledger.seats[step.seat]
            public = {
                "seq": step.seq,
                "seat": step.seat,
                "action": step.action,
                "by": step.by,
                "at": step.at,
                "turn_started_at": ledger.row.turn_started_at,
                "outcome": ledger.row.outcome,
                "due_at": ledger.row.due_at,
                "away": seat.away,  # what processes before revision 0007 read
                "acted": {
                    "kind": seat.kind,
                    "level": seat.level,
                    "away": seat.away,
                    "timeouts": seat.timeouts,
                    "reserve_used": seat.reserve_used,
                    "bot_from": seat.bot_from,
                },
            }
        summary = self.views.summary() if ledger.row.status == Status.OPEN else None
        notice = Notice(
            ledger.id, kind, cluster.name, ledger.version, ledger.row.status, public, summary
        )
        try:
            await cluster.publish(notice)
        except Exception as exc:
            log("notice_not_sent", logging.WARNING, table=ledger.id, error=repr(exc))

    async def seated_here(self) -> None:
        """A client came or went: tell the others which seats are connected here; and drive the
        table from here if the process driving it has no seated person connected."""
        ledger = self.ledger
        cluster = ledger.services.cluster
        seats = self.audience.seated_here()
        if cluster.shared and seats != self._present:
            self._present = seats
            try:
                await cluster.present(ledger.id, seats)
            except Exception as exc:
                log("notice_not_sent", logging.WARNING, table=ledger.id, error=repr(exc))
            await self.announce("presence")
            live = ledger.row.status in (Status.STARTING, Status.PLAYING)
            if seats and live and not cluster.drives(ledger.id) and await cluster.draw(ledger.id):
                # the table here is current (read when the client came, then kept by notices);
                # should it not be, its first timed move is fenced and the table read again
                log("lease_drawn", table=ledger.id)
                self.schedule()
        self.audience.wake()

    async def hear(self, notice: Notice) -> None:
        """Another process changed this table: take its step, or read the table again."""
        ledger = self.ledger
        cluster = ledger.services.cluster
        if notice.kind == "presence":
            self.audience.elsewhere = await cluster.presence(ledger.id)
            self.audience.wake()
            return
        async with self.lock:
            step = notice.step
            if step is not None and step["by"] in ("bot", "table") and cluster.drives(ledger.id):
                # a timed move stored by another process, at a table this one drives
                cluster.driven_elsewhere(ledger.id, notice.origin)
            if step is not None and ledger.match is not None and step["seq"] <= ledger.version:
                return  # already here
            if not self._take_step(notice):
                await self.catch_up()
        await self.after_change(None)

    def _take_step(self, notice: Notice) -> bool:
        """Apply the step of a notice if it is the next one here (the caller holds the lock);
        False if it is not, so the table is read again from the database."""
        ledger = self.ledger
        public = notice.step
        if notice.kind != "step" or public is None or ledger.match is None:
            return False
        if public["seq"] != ledger.version + 1:
            return False
        step = ActionRow(
            public["seq"], public["seat"], public["action"], public["by"], public["at"]
        )
        try:
            events = ledger.take(step)
        except ReplayError as exc:
            log("notice_unusable", logging.WARNING, table=ledger.id, error=str(exc))
            return False
        # the acting seat as the storing process stored it (an older process sends its away flag)
        acted = public.get("acted") or ({"away": public["away"]} if "away" in public else None)
        ledger.record_step(
            step,
            events,
            turn_started_at=public["turn_started_at"],
            outcome=public["outcome"],
            seat=replace(ledger.seats[step.seat], **acted) if acted else None,
            due_at=public.get("due_at"),
        )
        return True

    async def refresh(self) -> None:
        """Read the table again from the database (notices may have been missed)."""
        async with self.lock:
            await self.catch_up()
        self.audience.elsewhere = await self.ledger.services.cluster.presence(self.ledger.id)
        await self.after_change(None)

    async def current(self) -> None:
        """Before a change that writes whole seats or decides on every seat (joining, leaving,
        starting, a seed), read the table again if another process may have changed it: its
        notice may still be on the way (the caller holds the lock)."""
        if self.ledger.services.cluster.shared:
            await self.catch_up()

    async def catch_up(self) -> None:
        """Catch up with what other writers stored (the caller holds the lock; the database is
        the authority): the row, and the steps after the ones held here up to the row's version,
        so that both describe the same moment."""
        ledger = self.ledger
        storage = ledger.services.storage
        row = await storage.load_table(ledger.id)
        if row is None or row.version < ledger.version:
            return  # gone, or a read older than what this process holds
        match = ledger.match
        if match is None or row.status in (Status.OPEN, Status.STARTING):
            ledger.row = row
            if row.status in (Status.PLAYING, Status.OVER):
                ledger.begin(await storage.load_actions(ledger.id, upto=row.version))
            return
        ledger.replay(await storage.load_actions(ledger.id, after=match.version, upto=row.version))
        ledger.row = row
        if [s.bot_from for s in row.seats] != [p.bot_from for p in match.players]:
            # a seat taken over between steps (a resign) at another process: the match is dealt
            # again from the stored seats, so its chain binds the takeover where it was made
            ledger.begin(await storage.load_actions(ledger.id, upto=row.version))
        ledger.apply_ending()  # aborted, or ended by the operator, at another process
        if row.status == Status.OVER:  # a rematch offered or answered at another process
            ledger.rematch = await storage.load_rematch(ledger.id)


__all__ = ["Replica"]
