"""In-process tables: a fake clock that tests move by hand, and a lobby on real storage without
any server, websocket or sleep. What a timer does happens when the test advances the clock."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from kit.env import seconds
from kit.servers import server_settings
from ludoteca.core.fairness import seat_commitment
from ludoteca.server.cluster.base import Notice
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.storage import Storage, open_storage
from ludoteca.server.table.bot_runner import BotRunner
from ludoteca.server.table.services import Services
from ludoteca.server.table.table import Table


@dataclass
class FakeClock:
    """``now`` and ``sleep`` for Services: time stands still until ``advance`` moves it, and
    every sleeper whose time has come wakes in deadline order."""

    t: float = 1_000_000.0
    _sleepers: list[tuple[float, int, asyncio.Future[None]]] = field(default_factory=list)
    _order: itertools.count[int] = field(default_factory=itertools.count)

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.t + max(0.0, seconds), next(self._order), waiter))
        await waiter

    async def pending(self) -> list[float]:
        """When the live sleepers wake (cancelled ones left out)."""
        await settle()
        return sorted(when for when, _, w in self._sleepers if not w.done())

    async def advance(self, seconds: float) -> None:
        await settle()  # timers armed just now register their sleep first
        target = self.t + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, waiter = heapq.heappop(self._sleepers)
            if waiter.done():
                continue
            self.t = max(self.t, when)
            waiter.set_result(None)
            await settle()
        self.t = target
        await settle()


async def settle() -> None:
    """Let every task that is ready run (no time passes)."""
    for _ in range(20):
        await asyncio.sleep(0)


@dataclass(eq=False)
class Watcher:
    """A listener that counts the table's changes, as a connection would be woken."""

    seat: int | None = None
    changes: int = 0
    event: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self) -> None:
        self.changes += 1
        self.event.set()

    async def until(self, condition: Callable[[], bool], timeout: float = 20.0) -> None:
        """Wait for the table's changes until ``condition`` holds. Nothing here waits on the
        clock: the timeout only stops a broken test (bots think on worker threads)."""
        async with asyncio.timeout(seconds(timeout)):
            while not condition():
                self.event.clear()
                await self.event.wait()


SALT = "5" * 32


async def commit_then_reveal(table: Table, seeds: dict[int, str]) -> None:
    """As each person's client does: every seat commits to its seed, then (the commitments
    closed once all are in, on a started table) reveals it."""
    for seat, seed in seeds.items():
        await table.commit(seat, seat_commitment(seed, SALT))
    for seat, seed in seeds.items():
        await table.reveal(seat, seed, SALT)


async def seated(table: Table) -> Watcher:
    """A watcher listening to ``table``."""
    watcher = Watcher()
    table.listeners.add(watcher)
    return watcher


@asynccontextmanager
async def lobby_on(store: Storage | str, clock: FakeClock, **changes: Any) -> AsyncIterator[Lobby]:
    """A lobby on a store (shared, and left open: a restart or a second process is another
    lobby on the same one) or on a database URL, whose clocks and timers follow ``clock``; it
    loads the stored tables."""
    storage = open_storage(store) if isinstance(store, str) else store
    bots = BotRunner(processes=1)
    url = store if isinstance(store, str) else "memory://"
    services = Services(
        storage,
        bots,
        server_settings(url, fake_clock=True, **changes),
        now=clock.now,
        sleep=clock.sleep,
    )
    lobby = Lobby(services)
    await lobby.residency.load()
    try:
        yield lobby
    finally:
        lobby.residency.shutdown()
        await settle()
        bots.close()
        if isinstance(store, str):
            await storage.close()


# --------------------------------------------------------------------- several processes
@dataclass
class Hub:
    """What Redis is between processes, for lobbies in one process on the fake clock: leases
    that lapse ``lease_seconds`` after their last renewal, and notices to every other member.
    A member stops (as if killed) with ``kill``; ``tick`` is one member's lease round."""

    clock: FakeClock
    lease_seconds: float = 3.0
    leases: dict[str, tuple[str, float]] = field(default_factory=dict)  # table -> holder, expiry
    members: dict[str, tuple[HubCluster, Lobby]] = field(default_factory=dict)
    presence_of: dict[str, dict[str, set[int]]] = field(default_factory=dict)
    duties: dict[str, tuple[str, float]] = field(default_factory=dict)  # name -> holder, expiry

    def join(self, name: str) -> HubCluster:
        return HubCluster(self, name)

    def kill(self, name: str) -> None:
        _, lobby = self.members.pop(name)
        lobby.residency.shutdown()  # its timers die with it; its leases lapse in time

    async def tick(self, name: str) -> None:
        """Renew the member's leases, let go of finished tables, take lapsed ones."""
        cluster, lobby = self.members[name]
        now = self.clock.now()
        for table_id in lobby.residency.finished(cluster.held):
            await cluster.release(table_id)
        for table_id in list(cluster.held):
            if not await cluster.claim(table_id):
                cluster.held.discard(table_id)
                lobby.residency.lost(table_id)
        lapsed = [t for t, (_, expiry) in self.leases.items() if expiry < now]
        for table_id in lapsed:
            if await cluster.claim(table_id):
                await lobby.residency.gained(table_id)


@dataclass(eq=False)
class HubCluster:
    hub: Hub
    name: str
    held: set[str] = field(default_factory=set)
    shared: bool = True
    doubled: list[tuple[str, str]] = field(default_factory=list)  # (table, the other driver)

    def drives(self, table_id: str) -> bool:
        return table_id in self.held

    def driven_elsewhere(self, table_id: str, origin: str) -> None:
        self.doubled.append((table_id, origin))

    def doubles(self) -> list[str]:
        return sorted({table_id for table_id, _ in self.doubled})

    async def claim(self, table_id: str) -> bool:
        now = self.hub.clock.now()
        holder, expiry = self.hub.leases.get(table_id, ("", float("-inf")))
        if holder != self.name and expiry >= now:
            return False
        self.hub.leases[table_id] = (self.name, now + self.hub.lease_seconds)
        self.held.add(table_id)
        return True

    async def draw(self, table_id: str) -> bool:
        now = self.hub.clock.now()
        holder, expiry = self.hub.leases.get(table_id, ("", float("-inf")))
        seated = self.hub.presence_of.get(table_id, {}).get(holder)
        if holder not in ("", self.name) and expiry >= now and seated:
            return False
        self.hub.leases[table_id] = (self.name, now + self.hub.lease_seconds)
        self.held.add(table_id)
        if holder in self.hub.members and holder != self.name:
            previous, lobby = self.hub.members[holder]
            previous.held.discard(table_id)
            lobby.residency.lost(table_id)
        return True

    async def release(self, table_id: str) -> None:
        self.held.discard(table_id)
        if self.hub.leases.get(table_id, ("", 0.0))[0] == self.name:
            del self.hub.leases[table_id]

    async def duty(self, name: str, seconds: float) -> bool:
        """The duty as Redis keeps it: free, ours (renewed), or another live member's."""
        now = self.hub.clock.now()
        holder, expiry = self.hub.duties.get(name, ("", float("-inf")))
        if holder not in ("", self.name) and expiry >= now:
            return False
        self.hub.duties[name] = (self.name, now + seconds)
        return True

    async def publish(self, notice: Notice) -> None:
        for name, (_, lobby) in list(self.hub.members.items()):
            if name != self.name:
                await lobby.residency.notice(notice)

    async def present(self, table_id: str, seats: set[int]) -> None:
        self.hub.presence_of.setdefault(table_id, {})[self.name] = set(seats)

    async def presence(self, table_id: str) -> set[int]:
        found = self.hub.presence_of.get(table_id, {})
        return {
            s
            for n, seats in found.items()
            if n != self.name and n in self.hub.members
            for s in seats
        }

    async def ping(self) -> str | None:
        return None

    async def run(self, handler: Any) -> None:
        return None

    async def close(self) -> None:
        return None


@asynccontextmanager
async def process_on(hub: Hub, name: str, store: Storage, **changes: Any) -> AsyncIterator[Lobby]:
    """A lobby as one of several processes on one store, its leases and notices in ``hub``."""
    bots = BotRunner(processes=1)
    services = Services(
        store,
        bots,
        server_settings("memory://", fake_clock=True, **changes),
        now=hub.clock.now,
        sleep=hub.clock.sleep,
        cluster=hub.join(name),
    )
    lobby = Lobby(services)
    hub.members[name] = (services.cluster, lobby)  # type: ignore[assignment]
    await lobby.residency.load()
    try:
        yield lobby
    finally:
        hub.members.pop(name, None)
        lobby.residency.shutdown()
        await settle()
        bots.close()
