"""Several server processes serving one set of tables: who drives each table, and telling others.

The database is the authority on what happened; this module only says *who acts* and *who should
look*. One process at a time **drives** a table (arms its deal timer, its turn clock and its bot
seats) under a lease; any process may store a person's action, and whoever stores a step or
changes a table publishes a :class:`Notice` so that every other process holding that table catches
up and sends each of its clients their own view.

- :class:`Solo` is one process on its own: it drives every table and tells nobody.
- :class:`RedisCluster` keeps the leases in Redis (a sorted set of expiry times and a hash of
  holders, changed only by Lua scripts, on Redis's own clock) and publishes notices on one pub/sub
  channel. A holder renews its leases every second; a lease it stops renewing lapses after
  ``lease_seconds``, and the surviving processes share the lapsed tables out among themselves. A
  stale holder cannot store a step that was taken: the step's key ``(table, seq)`` fences it.

Pub/sub may drop a notice only when a process dies between storing and publishing, or when the
subscription breaks; in both cases every process re-reads the tables it holds from the database
(``Handler.resync``), so nothing is missed for longer than one lease tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from .logs import log

if TYPE_CHECKING:
    from .config import Settings


NoticeKind = Literal["step", "row", "presence", "lease"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A table changed at process ``origin``: a step was stored (``kind`` "step", with the step's
    public fields), something else changed (``kind`` "row": seats, status, deal), who is connected
    changed ("presence"), or ``origin`` took over driving it ("lease"). ``summary`` is
    the table's public summary while it is open, for the lobby feeds of every process."""

    table: str
    kind: NoticeKind
    origin: str
    version: int
    status: str
    step: dict[str, Any] | None = None
    summary: dict[str, Any] | None = None

    def encode(self) -> bytes:
        return orjson.dumps(self)  # a dataclass, as orjson writes it (asdict cost 2% of an action)

    @classmethod
    def decode(cls, data: bytes | str) -> Notice:
        fields = orjson.loads(data)
        return cls(**fields)


class Handler(Protocol):
    """What a cluster tells the process (the lobby) about its tables."""

    async def notice(self, notice: Notice) -> None:
        """Another process changed a table."""
        ...

    async def gained(self, table_id: str) -> None:
        """This process now drives the table (it took over a lapsed lease)."""
        ...

    def lost(self, table_id: str) -> None:
        """This process no longer drives the table: stop its timers now."""
        ...

    def finished(self, table_ids: Iterable[str]) -> list[str]:
        """Of these driven tables, those with nothing left to drive (over, expired, gone)."""
        ...

    def movable(self, table_ids: Iterable[str]) -> list[str]:
        """Of these driven tables, those no seated person is connected to here (so another
        process may drive them as well as this one)."""
        ...

    async def live(self) -> list[str]:
        """Every table in storage that needs a driver (starting or playing)."""
        ...

    async def resync(self) -> None:
        """Notices may have been missed: re-read every table held from the database."""
        ...

    async def poll(self) -> None:
        """Re-read the tables held whose version or status moved in the database."""
        ...


class Cluster(Protocol):
    name: str
    shared: bool

    def drives(self, table_id: str) -> bool:
        """Whether this process drives the table now."""
        ...

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it or it lapsed; True if this process holds it."""
        ...

    async def draw(self, table_id: str) -> bool:
        """Take the table's lease also from a live holder that has no seated person connected
        (this process has one): the table is then driven where its people are, with no hop
        through Redis for each move. True if this process holds it now."""
        ...

    async def release(self, table_id: str) -> None: ...

    async def publish(self, notice: Notice) -> None:
        """Send the notice to the other processes (in order; it may leave a moment later)."""
        ...

    async def present(self, table_id: str, seats: set[int]) -> None:
        """Which seats of the table have a client connected to this process."""
        ...

    async def presence(self, table_id: str) -> set[int]:
        """The seats with a client connected to some *other* live process."""
        ...

    async def ping(self) -> str | None:
        """None if the other processes can be reached, else what is wrong."""
        ...

    async def run(self, handler: Handler) -> None:
        """Keep the leases and listen for notices until cancelled."""
        ...

    async def close(self) -> None: ...


class Solo:
    """One process on its own: it drives every table, and there is nobody to tell."""

    shared = False

    def __init__(self) -> None:
        self.name = "solo"

    def drives(self, table_id: str) -> bool:
        return True

    async def claim(self, table_id: str) -> bool:
        return True

    async def draw(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None

    async def publish(self, notice: Notice) -> None:
        return None

    async def present(self, table_id: str, seats: set[int]) -> None:
        return None

    async def presence(self, table_id: str) -> set[int]:
        return set()

    async def ping(self) -> str | None:
        return None

    async def run(self, handler: Handler) -> None:
        return None

    async def close(self) -> None:
        return None


SEARCH_SECONDS = 30.0
"""How often each process looks in storage for live tables that no process drives."""
POLL_SECONDS = 2.0
"""How often each process checks that the tables it holds did not move unheard (while Redis
answers: notices are only lost when a process dies, or it is cut off from Redis)."""

# Lua scripts: every lease change is atomic and uses Redis's clock, never a process's.
_NOW = (
    "local t = redis.call('TIME')\n"
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"
)

CLAIM = (
    _NOW
    + """
-- KEYS: leases (zset table -> expiry ms), holders (hash table -> process)
-- ARGV: process, ttl ms, table...: take or renew each lease that is ours, free or lapsed
local got = {}
for i = 3, #ARGV do
  local t = ARGV[i]
  local holder = redis.call('HGET', KEYS[2], t)
  local expiry = tonumber(redis.call('ZSCORE', KEYS[1], t))
  if holder == ARGV[1] or not expiry or expiry < now then
    redis.call('HSET', KEYS[2], t, ARGV[1])
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), t)
    got[#got + 1] = t
  end
end
return got
"""
)

TAKE_LAPSED = (
    _NOW
    + """
-- KEYS: leases, holders, processes (zset process -> heartbeat expiry ms)
-- ARGV: process, ttl ms: beat, then take a fair share of the lapsed leases: of those a live
-- process handed over, a share among the others (never back to the giver unless it is alone);
-- of those whose holder died, a share among all. Returns {taken, leases in all, live processes}.
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
local alive = math.max(1, redis.call('ZCOUNT', KEYS[3], now, '+inf'))
local total = redis.call('ZCARD', KEYS[1])
local mine = 'from:' .. ARGV[1]
local handed, orphaned = {}, {}
for _, t in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - 1)) do
  local holder = redis.call('HGET', KEYS[2], t)
  if holder and string.sub(holder, 1, 5) == 'from:' then
    if holder ~= mine or alive == 1 then handed[#handed + 1] = t end
  else
    orphaned[#orphaned + 1] = t
  end
end
local got = {}
local function take(list, share)
  for i = 1, math.min(share, #list) do
    local t = list[i]
    redis.call('HSET', KEYS[2], t, ARGV[1])
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), t)
    got[#got + 1] = t
  end
end
take(handed, math.ceil(#handed / math.max(1, alive - 1)))
take(orphaned, math.ceil(#orphaned / alive))
return {got, total, alive}
"""
)

DRAW = (
    _NOW
    + """
-- KEYS: leases, holders, presence of the table (hash process -> seats connected there)
-- ARGV: process, ttl ms, table: take the lease unless a live holder has people connected
local holder = redis.call('HGET', KEYS[2], ARGV[3])
local expiry = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[3]))
if holder and holder ~= ARGV[1] and expiry and expiry >= now
   and redis.call('HEXISTS', KEYS[3], holder) == 1 then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
return 1
"""
)

PRESENCE = (
    _NOW
    + """
-- KEYS: presence of a table (hash process -> seats), processes; ARGV: process
-- The seats connected at the other live processes (a dead process's entry is ignored).
local found = {}
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local beat = tonumber(redis.call('ZSCORE', KEYS[2], entries[i]))
  if entries[i] ~= ARGV[1] and beat and beat >= now then found[#found + 1] = entries[i + 1] end
end
return found
"""
)

RELEASE = """
-- KEYS: leases, holders; ARGV: process, table...: give up the leases that are ours
for i = 2, #ARGV do
  local t = ARGV[i]
  if redis.call('HGET', KEYS[2], t) == ARGV[1] then
    redis.call('HDEL', KEYS[2], t)
    redis.call('ZREM', KEYS[1], t)
  end
end
return 0
"""

HAND_OFF = """
-- KEYS: leases, holders; ARGV: process, table...: let our leases lapse now, for the others
-- to take at their next round (a clean shutdown, or more than a fair share), marked as given
-- by us so that we do not take them back ourselves
for i = 2, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
    redis.call('HSET', KEYS[2], ARGV[i], 'from:' .. ARGV[1])
    redis.call('ZADD', KEYS[1], 0, ARGV[i])
  end
end
return 0
"""

PEERS = (
    _NOW
    + """
-- KEYS: processes; ARGV: forget after ms. The live processes; forget long-dead ones.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')
"""
)


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
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url)
        self.channel = f"{prefix}:tables"
        self.keys = [f"{prefix}:leases", f"{prefix}:holders", f"{prefix}:processes"]
        self.lease_ms = int(lease_seconds * 1000)
        self.tick = lease_seconds / 3  # renew three times within a lease
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
        self._renewed = time.monotonic()
        # taking tables over reads them from the database: done beside the lease rounds, a
        # few at a time, so that taking many never delays renewing the leases already held
        self._loading = asyncio.Semaphore(16)
        self._background: set[asyncio.Task[None]] = set()
        self._arriving: set[str] = set()  # tables taken over, being read: not finished yet

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
                            await self._hand_off(keys=self.keys[:2], args=[self.name, table_id])
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

    async def release(self, table_id: str) -> None:
        self.held.discard(table_id)
        await self._release(keys=self.keys[:2], args=[self.name, table_id])

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
        helpers = [asyncio.create_task(self._listen(handler)), asyncio.create_task(self._send())]
        try:
            await self._keep(handler)
        finally:
            for task in [*helpers, *self._background]:
                task.cancel()
            for task in [*helpers, *self._background]:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    # ------------------------------------------------------------------------ the leases
    async def _keep(self, handler: Handler) -> None:
        peers: set[str] = set()
        search_due = 0.0  # search for undriven tables at once, then every ``SEARCH_SECONDS``
        poll_due = 0.0
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
                if self._renewed >= search_due:
                    await self._adopt(handler, await handler.live())
                    search_due = self._renewed + SEARCH_SECONDS
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                log("cluster_unreachable", logging.WARNING, error=repr(exc))
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
        taken, total, processes = await self._take(keys=self.keys, args=[self.name, self.lease_ms])
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
        await self._hand_off(keys=self.keys[:2], args=[self.name, *given])
        log("leases_handed_off", tables=len(given), held=len(self.held), fair=fair)

    # ----------------------------------------------------------------------- the notices
    async def _listen(self, handler: Handler) -> None:
        first = True
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
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
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        """Hand the tables this process drives to the others at once, then disconnect."""
        held, self.held = list(self.held), set()
        with contextlib.suppress(RedisError, OSError):
            await self._flush()
        if held:
            with contextlib.suppress(RedisError, OSError):
                await self._hand_off(keys=self.keys[:2], args=[self.name, *held])
        await self.redis.aclose()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def open_cluster(settings: Settings) -> Cluster:
    """The cluster for these settings: Redis when a URL is given, else one process on its own."""
    if not settings.redis_url:
        return Solo()
    return RedisCluster(settings.redis_url, settings.redis_prefix, settings.lease_seconds)
