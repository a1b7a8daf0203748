"""A table among several processes: telling the others what changed here, taking the steps they
stored, reading the table again from the database when a notice was missed, and who is connected
where (``docs/cluster.md``)."""

from __future__ import annotations

import logging
from dataclasses import replace

from ludoteca.core import ReplayError
from ludoteca.server.cluster.base import Notice, NoticeKind
from ludoteca.server.logs import log
from ludoteca.server.messages import Status
from ludoteca.server.storage import ActionRow

from .views import Presented


class Replicated(Presented):
    """The replication layer of a table (see ``ledger`` for the layers)."""

    __slots__ = ()

    async def announce(self, kind: NoticeKind, step: ActionRow | None = None) -> None:
        """Tell the other processes this table changed (a step stored, or anything else); a
        notice that cannot be sent is logged, never fatal: what changed is stored already."""
        cluster = self.services.cluster
        if not cluster.shared:
            return
        public = None
        if step is not None:
            seat = self.seats[step.seat]
            public = {
                "seq": step.seq,
                "seat": step.seat,
                "action": step.action,
                "by": step.by,
                "at": step.at,
                "turn_started_at": self.row.turn_started_at,
                "outcome": self.row.outcome,
                "due_at": self.row.due_at,
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
        summary = self.summary() if self.row.status == Status.OPEN else None
        notice = Notice(self.id, kind, cluster.name, self.version, self.row.status, public, summary)
        try:
            await cluster.publish(notice)
        except Exception as exc:
            log("notice_not_sent", logging.WARNING, table=self.id, error=repr(exc))

    def seated_listeners(self) -> set[int]:
        """The seats with a client connected to this process."""
        return {
            s for listener in self.listeners if (s := getattr(listener, "seat", None)) is not None
        }

    async def seated_here(self) -> None:
        """A client came or went: tell the others which seats are connected here; and drive the
        table from here if the process driving it has no seated person connected."""
        cluster = self.services.cluster
        seats = self.seated_listeners()
        if cluster.shared and seats != self._present:
            self._present = seats
            try:
                await cluster.present(self.id, seats)
            except Exception as exc:
                log("notice_not_sent", logging.WARNING, table=self.id, error=repr(exc))
            await self.announce("presence")
            live = self.row.status in (Status.STARTING, Status.PLAYING)
            if seats and live and not cluster.drives(self.id) and await cluster.draw(self.id):
                # the table here is current (read when the client came, then kept by notices);
                # should it not be, its first timed move is fenced and the table read again
                log("lease_drawn", table=self.id)
                self.schedule()
        self.changed()

    async def hear(self, notice: Notice) -> None:
        """Another process changed this table: take its step, or read the table again."""
        if notice.kind == "presence":
            self.connected_elsewhere = await self.services.cluster.presence(self.id)
            self.changed()
            return
        async with self.lock:
            step = notice.step
            if (
                step is not None
                and step["by"] in ("bot", "table")
                and self.services.cluster.drives(self.id)
            ):  # a timed move stored by another process, at a table this one drives
                self.services.cluster.driven_elsewhere(self.id, notice.origin)
            if step is not None and self.match is not None and step["seq"] <= self.version:
                return  # already here
            if not self._take_step(notice):
                await self.catch_up()
        await self.after_change(None)

    def _take_step(self, notice: Notice) -> bool:
        """Apply the step of a notice if it is the next one here (the caller holds the lock);
        False if it is not, so the table is read again from the database."""
        public = notice.step
        if notice.kind != "step" or public is None or self.match is None:
            return False
        if public["seq"] != self.version + 1:
            return False
        step = ActionRow(
            public["seq"], public["seat"], public["action"], public["by"], public["at"]
        )
        try:
            events = self.take(step)
        except ReplayError as exc:
            log("notice_unusable", logging.WARNING, table=self.id, error=str(exc))
            return False
        # the acting seat as the storing process stored it (an older process sends its away flag)
        acted = public.get("acted") or ({"away": public["away"]} if "away" in public else None)
        self.record_step(
            step,
            events,
            turn_started_at=public["turn_started_at"],
            outcome=public["outcome"],
            seat=replace(self.seats[step.seat], **acted) if acted else None,
            due_at=public.get("due_at"),
        )
        return True

    async def refresh(self) -> None:
        """Read the table again from the database (notices may have been missed)."""
        async with self.lock:
            await self.catch_up()
        self.connected_elsewhere = await self.services.cluster.presence(self.id)
        await self.after_change(None)

    async def current(self) -> None:
        """Before a change that writes whole seats or decides on every seat (joining, leaving,
        starting, a seed), read the table again if another process may have changed it: its
        notice may still be on the way (the caller holds the lock)."""
        if self.services.cluster.shared:
            await self.catch_up()

    async def catch_up(self) -> None:
        """Catch up with what other writers stored (the caller holds the lock; the database is
        the authority): the row, and the steps after the ones held here up to the row's version,
        so that both describe the same moment."""
        storage = self.services.storage
        row = await storage.load_table(self.id)
        if row is None or row.version < self.version:
            return  # gone, or a read older than what this process holds
        match = self.match
        if match is None or row.status in (Status.OPEN, Status.STARTING):
            self.row = row
            if row.status in (Status.PLAYING, Status.OVER):
                self.begin(await storage.load_actions(self.id, upto=row.version))
            return
        self.replay(await storage.load_actions(self.id, after=match.version, upto=row.version))
        self.row = row
