"""The leases and notices of several processes in Redis (``docs/cluster.md``): a sorted set of
lease expiry times and a hash of holders, changed only by Lua scripts on Redis's own clock, and one
pub/sub channel for notices. A holder renews its leases every round; a lease it stops renewing
lapses after ``lease_seconds`` and the surviving processes share the lapsed tables out."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ludoteca.server.logs import log

if TYPE_CHECKING:
    from ludoteca.server.config import Settings

from .base import Cluster, Handler, Notice, Solo
from .redis_scripts import CLAIM, DRAW, DUTY, HAND_OFF, PEERS, PRESENCE, RELEASE, TAKE_LAPSED

SEARCH_SECONDS = 30.0
"""How often each process looks in storage for live tables that no process drives."""
POLL_SECONDS = 2.0
"""How often each process checks that the tables it holds did not move unheard (while Redis
answers: notices are only lost when a process dies, or it is cut off from Redis)."""


class RedisCluster:
    """Leases and notices in one Redis shared by every process (see the module's docstring)."""

    shared = True

    def __init__(
        self,
        url: str,
        prefix: str = "ludoteca",
        lease_seconds: float = 3.0,
    ) -> None:
        self.name = f"{secrets.token_hex(6)}"
        self.tick = lease_seconds / 3  # renew three times within a lease
        # a command that gets no answer within a round fails (Redis paused, or the network
        # gone quiet) rather than hold the lease round and every request behind it
        timeout = max(0.2, self.tick)
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_timeout=timeout, socket_connect_timeout=timeout
        )
        # the subscription waits for notices as long as it takes: no read timeout, but a
        # bounded connect and TCP keepalives; it is started afresh when Redis comes back
        self.listener: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_keepalive=True
        )
        self.channel = f"{prefix}:tables"
        self.keys = [f"{prefix}:leases", f"{prefix}:holders", f"{prefix}:processes"]
        self.lease_ms = int(lease_seconds * 1000)
        self.held: set[str] = set()
        self._outgoing: deque[bytes] = deque()
        self._pending = asyncio.Event()
        self.prefix = prefix
        self._claim = self.redis.register_script(CLAIM)
        self._take = self.redis.register_script(TAKE_LAPSED)
        self._release = self.redis.register_script(RELEASE)
        self._hand_off = self.redis.register_script(HAND_OFF)
        self._draw = self.redis.register_script(DRAW)
        self._presence = self.redis.register_script(PRESENCE)
        self._peers = self.redis.register_script(PEERS)
        self._duty = self.redis.register_script(DUTY)
        self._renewed = time.monotonic()
        # taking tables over reads them from the database: done beside the lease rounds, a
        # few at a time, so that taking many never delays renewing the leases already held
        self._loading = asyncio.Semaphore(16)
        self._background: set[asyncio.Task[None]] = set()
        self._arriving: set[str] = set()  # tables taken over, being read: not finished yet
        self._doubles: deque[tuple[float, str]] = deque()  # (when, table) seen driven twice

    def _beside(self, work: Coroutine[Any, Any, None], table_id: str | None = None) -> None:
        """Run ``work`` beside the lease rounds; if it takes a table over and fails (say, the
        database did not answer), let the lease lapse for another try rather than sit on it."""

        async def limited() -> None:
            async with self._loading:
                try:
                    await work
                except Exception as exc:
                    log("take_over_failed", logging.ERROR, table=table_id, error=repr(exc))
                    if table_id is not None and table_id in self.held:
                        self.held.discard(table_id)
                        with contextlib.suppress(RedisError, OSError):
                            await self._give([table_id], share=False)
                finally:
                    self._arriving.discard(table_id or "")

        if table_id is not None:
            self._arriving.add(table_id)

        task = asyncio.create_task(limited())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def drives(self, table_id: str) -> bool:
        return table_id in self.held

    async def claim(self, table_id: str) -> bool:
        """As the protocol says; False (logged) when Redis cannot be reached: the table is then
        claimed by the periodic search for undriven tables once Redis is back."""
        try:
            got = await self._claim(keys=self.keys[:2], args=[self.name, self.lease_ms, table_id])
        except (RedisError, OSError) as exc:
            log("cluster_unreachable", logging.WARNING, error=repr(exc))
            return False
        if got:
            self.held.add(table_id)
        return bool(got)

    async def draw(self, table_id: str) -> bool:
        if table_id in self.held:
            return True
        keys = [*self.keys[:2], f"{self.prefix}:presence:{table_id}"]
        try:
            got = await self._draw(keys=keys, args=[self.name, self.lease_ms, table_id])
        except (RedisError, OSError) as exc:
            log("cluster_unreachable", logging.WARNING, error=repr(exc))
            return False
        if not got:
            return False
        self.held.add(table_id)
        # the previous holder stops at once rather than at its next renewal
        await self.publish(Notice(table_id, "lease", self.name, 0, ""))
        return True

    async def duty(self, name: str, seconds: float) -> bool:
        """As the protocol says: a key with a TTL, taken when free, renewed by its holder; False
        (logged) when Redis cannot be reached, so two processes never both think they hold it
        for longer than its TTL."""
        try:
            got = await self._duty(
                keys=[f"{self.prefix}:duty:{name}"], args=[self.name, int(seconds * 1000)]
            )
        except (RedisError, OSError) as exc:
            log("cluster_unreachable", logging.WARNING, error=repr(exc))
            return False
        return bool(got)

    async def release(self, table_id: str) -> None:
        self.held.discard(table_id)
        await self._release(keys=self.keys[:2], args=[self.name, table_id])

    def driven_elsewhere(self, table_id: str, origin: str) -> None:
        log("driven_twice", logging.WARNING, table=table_id, by=origin, here=self.name)
        self._doubles.append((time.monotonic(), table_id))

    def doubles(self) -> list[str]:
        recent = time.monotonic() - DOUBLES_SECONDS
        while self._doubles and self._doubles[0][0] < recent:
            self._doubles.popleft()
        return sorted({table_id for _, table_id in self._doubles})

    async def publish(self, notice: Notice) -> None:
        """Queued, and sent in order by one task in pipelines: measured, a round trip to Redis
        per notice cost a tenth of the CPU of every action under load."""
        self._outgoing.append(notice.encode())
        self._pending.set()

    async def _send(self) -> None:
        while True:
            await self._pending.wait()
            self._pending.clear()
            await self._flush()

    async def _flush(self) -> None:
        while self._outgoing:
            batch = [self._outgoing.popleft() for _ in range(min(500, len(self._outgoing)))]
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for data in batch:
                        pipe.publish(self.channel, data)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                # the others miss these: they read their tables again once Redis is back
                log("notices_not_sent", logging.WARNING, count=len(batch), error=repr(exc))

    async def present(self, table_id: str, seats: set[int]) -> None:
        key = f"{self.prefix}:presence:{table_id}"
        async with self.redis.pipeline(transaction=True) as pipe:
            if seats:
                pipe.hset(key, self.name, orjson.dumps(sorted(seats)))
                pipe.expire(key, 7 * 24 * 3600)
            else:
                pipe.hdel(key, self.name)
            await pipe.execute()

    async def presence(self, table_id: str) -> set[int]:
        keys = [f"{self.prefix}:presence:{table_id}", self.keys[2]]
        try:
            found = await self._presence(keys=keys, args=[self.name])
        except (RedisError, OSError):
            return set()  # who is connected elsewhere is unknown for now: shown as not
        seats: set[int] = set()
        for value in found:
            seats.update(orjson.loads(value))
        return seats

    async def ping(self) -> str | None:
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            return repr(exc)
        return None

    async def run(self, handler: Handler) -> None:
        self._listening = asyncio.create_task(self._listen(handler, first=True))
        sender = asyncio.create_task(self._send())
        try:
            await self._keep(handler)
        finally:
            helpers = [self._listening, sender, *self._background]
            for task in helpers:
                task.cancel()
            for task in helpers:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def _listen_again(self, handler: Handler) -> None:
        """Redis answers again after it did not: subscribe afresh (a subscription that lived
        through the outage may be dead without knowing it), and read every table held again."""
        self._listening.cancel()
        self._listening = asyncio.create_task(self._listen(handler, first=False))

    # ------------------------------------------------------------------------ the leases
    async def _keep(self, handler: Handler) -> None:
        peers: set[str] = set()
        search_due = 0.0  # search for undriven tables at once, then every ``SEARCH_SECONDS``
        poll_due = 0.0
        failing = False
        while True:
            if time.monotonic() >= poll_due:
                try:
                    await handler.poll()
                except Exception as exc:  # the database is out of reach: the next round tries
                    log("poll_failed", logging.WARNING, error=repr(exc))
                # cut off from Redis, nothing is heard: look every round, not every 2 s
                cut_off = time.monotonic() - self._renewed > self.tick * 1.5
                poll_due = time.monotonic() + (self.tick if cut_off else POLL_SECONDS)
            try:
                peers = await self._tick(handler, peers)
                self._renewed = time.monotonic()
                if failing:
                    failing = False
                    log("cluster_reachable", held=len(self.held))
                    self._listen_again(handler)
                if self._renewed >= search_due:
                    await self._adopt(handler, await handler.live())
                    search_due = self._renewed + SEARCH_SECONDS
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log("cluster_unreachable", logging.WARNING, error=repr(exc))
                failing = True
                search_due = 0.0  # once back, look for tables started meanwhile
                if time.monotonic() - self._renewed > self.lease_ms / 1000 and self.held:
                    # our leases may have lapsed: stop driving rather than drive beside another
                    for table_id in list(self.held):
                        self.held.discard(table_id)
                        handler.lost(table_id)
            except Exception as exc:  # a bug here must not stop the leases being kept
                log("cluster_tick_failed", logging.ERROR, error=repr(exc))
            await asyncio.sleep(self.tick)

    async def _tick(self, handler: Handler, peers: set[str]) -> set[str]:
        done = [t for t in handler.finished(self.held) if t not in self._arriving]
        if done:
            self.held.difference_update(done)
            await self._release(keys=self.keys[:2], args=[self.name, *done])
        if self.held:
            held = list(self.held)
            kept = await self._claim(keys=self.keys[:2], args=[self.name, self.lease_ms, *held])
            kept_ids = {_text(t) for t in kept}
            for table_id in held:
                if table_id not in kept_ids:
                    self.held.discard(table_id)
                    log("lease_lost", logging.WARNING, table=table_id)
                    handler.lost(table_id)
        taken, total, processes = await self._take(
            keys=self.keys, args=[self.name, self.lease_ms, len(self.held)]
        )
        await self._balance(handler, int(total), int(processes))
        alive = {_text(p) for p in await self._peers(keys=self.keys[2:], args=[60_000])}
        if peers - alive:
            log("process_lost", processes=sorted(peers - alive))
            self._beside(handler.resync())
        for raw in taken:
            table_id = _text(raw)
            self.held.add(table_id)
            log("lease_taken", table=table_id)
            self._beside(handler.gained(table_id), table_id)
        return alive

    async def _adopt(self, handler: Handler, live: list[str]) -> None:
        """Claim the live tables nobody drives: started while Redis could not be reached, or left
        by a process that died before anybody held their lease."""
        for start in range(0, len(live), 500):
            batch = [t for t in live[start : start + 500] if t not in self.held]
            if not batch:
                continue
            got = await self._claim(keys=self.keys[:2], args=[self.name, self.lease_ms, *batch])
            for raw in got:
                table_id = _text(raw)
                self.held.add(table_id)
                log("lease_taken", table=table_id, undriven=True)
                self._beside(handler.gained(table_id), table_id)

    async def _balance(self, handler: Handler, total: int, processes: int) -> None:
        """Drive no more than a fair share (with some slack): hand the excess to the others, a
        few at a time, so a process that starts or restarts gets tables to drive."""
        fair = -(-total // max(1, processes))
        excess = len(self.held) - fair - max(2, fair // 10)
        if excess <= 0:
            return
        given = sorted(handler.movable(self.held))[: min(excess, 50)]
        if not given:
            return
        for table_id in given:
            self.held.discard(table_id)
            handler.lost(table_id)
        await self._give(given, share=True)
        log("leases_handed_off", tables=len(given), held=len(self.held), fair=fair)

    async def _give(self, table_ids: list[str], share: bool) -> None:
        """Let these leases lapse for the others: ``share`` (more than a fair share) to be taken by
        those under theirs; else (shutting down, a failed take-over) by anyone at once."""
        age = 0 if share else self.lease_ms + 1
        await self._hand_off(keys=self.keys[:2], args=[self.name, age, *table_ids])

    # ----------------------------------------------------------------------- the notices
    async def _listen(self, handler: Handler, first: bool) -> None:
        while True:
            pubsub = self.listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if not first:  # notices sent while we were away are gone: read the tables again
                    await handler.resync()
                first = False
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    notice = Notice.decode(message["data"])
                    if notice.kind == "lease" and notice.table in self.held:
                        if notice.origin != self.name:
                            self.held.discard(notice.table)
                            handler.lost(notice.table)
                        continue
                    if notice.origin != self.name and notice.kind != "lease":
                        try:
                            await handler.notice(notice)
                        except Exception as exc:
                            log("notice_failed", logging.ERROR, table=notice.table, error=repr(exc))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log("cluster_unreachable", logging.WARNING, error=repr(exc))
                await asyncio.sleep(self.tick)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed in newer redis

    async def close(self) -> None:
        """Hand the tables this process drives to the others at once, then disconnect."""
        held, self.held = list(self.held), set()
        with contextlib.suppress(RedisError, OSError):
            await self._flush()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.zrem(self.keys[2], self.name)  # no longer a live process
            if held:
                await self._give(held, share=False)
        await self.redis.aclose()
        await self.listener.aclose()


DOUBLES_SECONDS = 60.0  # how long /healthz shows a table seen driven twice


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def open_cluster(settings: Settings) -> Cluster:
    """The cluster for these settings: Redis when a URL is given, else one process on its own."""
    if not settings.redis_url:
        return Solo()
    return RedisCluster(settings.redis_url, settings.redis_prefix, settings.lease_seconds)
