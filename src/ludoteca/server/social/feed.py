"""Presence and in-page notices: the websocket ``/ws/me`` that a signed-in person's pages keep
open (docs/protocol.md#the-personal-feed-websocket-wsme).

Each process counts the feeds open to it per account and writes the counts to ``presence``
(at once when they change, and every ``PRESENCE_SECONDS`` while they stay open), so every
process sees who is online; a killed process's rows lapse after twice that time. Invitations
are rows of ``friend_invites``: each process reads those past its own cursor for the people
connected to it, once a second (and at once on the process that stored one), and sends each a
notice ``{"type": "invite"}``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from ludoteca.server.logs import log

from .service import PRESENCE_SECONDS, Social

NOTICES = 32  # a feed's outbox: a page that does not read loses the oldest notices
TICK_SECONDS = 1.0


class Feed:
    def __init__(self, social: Social, process: str) -> None:
        self.social = social
        self.process = process
        self.listeners: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}
        self.changed: set[str] = set()  # accounts whose count moved since the last write
        self.cursor: int | None = None
        self.written = 0.0
        self.delivering = asyncio.Lock()  # the loop and a route may look at once: one at a time

    # ---------------------------------------------------------------- connections
    def join(self, account_id: str) -> asyncio.Queue[dict[str, Any]]:
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=NOTICES)
        self.listeners.setdefault(account_id, set()).add(outbox)
        self.changed.add(account_id)
        return outbox

    def leave(self, account_id: str, outbox: asyncio.Queue[dict[str, Any]]) -> None:
        held = self.listeners.get(account_id)
        if held is not None:
            held.discard(outbox)
            if not held:
                del self.listeners[account_id]
        self.changed.add(account_id)

    def send(self, account_id: str, notice: dict[str, Any]) -> None:
        for outbox in self.listeners.get(account_id, ()):
            if outbox.full():
                outbox.get_nowait()
            outbox.put_nowait(notice)

    def end(self, account_id: str) -> None:
        """Close the account's feeds here (its sessions ended)."""
        self.send(account_id, {"type": "signed_out"})

    # ------------------------------------------------------------------- presence
    async def online(self, account_ids: Iterable[str]) -> set[str]:
        wanted = set(account_ids)
        here = {a for a in wanted if a in self.listeners}
        since = self.social.now() - 2 * PRESENCE_SECONDS
        return here | await self.social.run(self.social.store.online, wanted - here, since)

    async def write_presence(self, everyone: bool = False) -> None:
        who = set(self.listeners) | self.changed if everyone else set(self.changed)
        self.changed.clear()
        counts = {a: len(self.listeners.get(a, ())) for a in who}
        if counts:
            await self.social.run(
                self.social.store.present, self.process, counts, self.social.now()
            )

    # -------------------------------------------------------------------- notices
    async def deliver(self) -> int:
        """Send the invitations stored since the last look to the people connected here."""
        async with self.delivering:
            return await self._deliver()

    async def _deliver(self) -> int:
        store = self.social.store
        if self.cursor is None:
            self.cursor = await self.social.run(store.last_invite)
            return 0
        if not self.listeners:
            self.cursor = await self.social.run(store.last_invite)
            return 0
        found = await self.social.run(store.invites_after, list(self.listeners), self.cursor)
        for invite in found:
            self.cursor = max(self.cursor, invite["id"])
            self.send(
                invite["to"],
                {"type": "invite", "from": invite["from"], "table": invite["table"]},
            )
        return len(found)

    async def tick(self) -> None:
        now = self.social.now()
        everyone = now - self.written >= PRESENCE_SECONDS
        if everyone:
            self.written = now
        await self.write_presence(everyone)
        await self.deliver()

    async def run(self) -> None:
        """Presence and notices, once a second, until cancelled; the database away: next tick."""
        rounds = 0
        while True:
            try:
                await self.tick()
                rounds += 1
                if rounds % 3600 == 0:
                    await self.social.forget_old()
            except Exception as exc:
                log("feed_failed", logging.WARNING, error=repr(exc))
            await asyncio.sleep(TICK_SECONDS)

    async def close(self) -> None:
        """This process's presence ends now (not when its rows lapse)."""
        counts = dict.fromkeys(self.listeners, 0)
        self.listeners.clear()
        if counts:
            await self.social.run(
                self.social.store.present, self.process, counts, self.social.now()
            )
