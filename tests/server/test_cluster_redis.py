"""The leases and presence in a real Redis, one lease round at a time (``RedisCluster._tick``),
with a handler that records what it is told. A process's death is staged by letting its lease and
heartbeat lapse in Redis, not by waiting for them."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

from ludoteca.server.cluster.base import Notice
from ludoteca.server.cluster.redis_leases import RedisCluster


class Recorder:
    """A lobby stand-in: which tables it was given or took away, and which are in 'memory'."""

    def __init__(self) -> None:
        self.gained: list[str] = []
        self.lost: list[str] = []
        self.in_memory: set[str] = set()
        self.gate: asyncio.Event | None = None  # when set, taking a table over waits for it

    async def notice(self, notice: Notice) -> None:
        return None

    async def gained_(self, table_id: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.gained.append(table_id)
        self.in_memory.add(table_id)

    def lost_(self, table_id: str) -> None:
        self.lost.append(table_id)

    def finished(self, table_ids: Iterable[str]) -> list[str]:
        return [t for t in table_ids if t not in self.in_memory]

    def movable(self, table_ids: Iterable[str]) -> list[str]:
        return list(table_ids)

    async def live(self) -> list[str]:
        return []

    async def resync(self) -> None:
        return None


def handler(recorder: Recorder) -> Any:
    """The recorder under the handler's names (``gained``/``lost`` are also its lists)."""

    class View:
        notice = recorder.notice
        gained = recorder.gained_
        lost = recorder.lost_
        finished = recorder.finished
        movable = recorder.movable
        live = recorder.live
        resync = recorder.resync

    return View()


@asynccontextmanager
async def processes(redis_url: str, count: int) -> AsyncIterator[list[RedisCluster]]:
    prefix = f"ludoteca-test-{secrets.token_hex(4)}"
    made = [RedisCluster(redis_url, prefix, lease_seconds=3.0) for _ in range(count)]
    try:
        yield made
    finally:
        keys = await made[0].redis.keys(f"{prefix}:*")
        if keys:
            await made[0].redis.delete(*keys)
        for cluster in made:
            await cluster.redis.aclose()


async def die(cluster: RedisCluster) -> None:
    """As if killed: its leases and its heartbeat have lapsed (it renews nothing any more)."""
    leases, _, beats = cluster.keys
    for table_id in cluster.held:
        await cluster.redis.zadd(leases, {table_id: 0})
    await cluster.redis.zadd(beats, {cluster.name: 0})


async def settle(until: Callable[[], bool] = lambda: True) -> None:
    for _ in range(100):
        await asyncio.sleep(0)
        if until():
            return


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())  # type: ignore[arg-type]


def test_the_survivors_share_a_dead_processes_tables(redis_url: str) -> None:
    async def scenario() -> None:
        async with processes(redis_url, 3) as (dead, one, two):
            tables = [f"t{n}" for n in range(6)]
            for table_id in tables:
                assert await dead.claim(table_id)
                assert not await one.claim(table_id)  # held, and live
            seen: dict[str, set[str]] = {}
            records = [Recorder(), Recorder()]
            for cluster, rec in zip((one, two), records, strict=True):
                seen[cluster.name] = await cluster._tick(handler(rec), set())
            await die(dead)
            for _ in range(2):  # each survivor takes its share of what is left, each round
                for cluster, rec in zip((one, two), records, strict=True):
                    seen[cluster.name] = await cluster._tick(handler(rec), seen[cluster.name])
            await settle(lambda: len(records[0].gained) + len(records[1].gained) == 6)
            assert sorted(records[0].gained + records[1].gained) == tables
            assert 2 <= len(records[0].gained) <= 4  # shared, not all to the first to look
            assert one.held | two.held == set(tables) and not one.held & two.held

    run(scenario)


def test_a_table_being_read_is_not_let_go_as_finished(redis_url: str) -> None:
    """Taking a table over reads it beside the lease rounds; a round that comes meanwhile must not
    take the table for finished (it is not in memory yet) and drop its lease."""

    async def scenario() -> None:
        async with processes(redis_url, 2) as (dead, heir):
            assert await dead.claim("slow")
            await die(dead)
            rec = Recorder()
            rec.gate = asyncio.Event()
            await heir._tick(handler(rec), set())
            assert heir.held == {"slow"} and rec.gained == []
            await heir._tick(handler(rec), set())  # the next round, while it is still being read
            assert heir.held == {"slow"}
            holder = await heir.redis.hget(heir.keys[1], "slow")
            assert holder is not None and holder.decode() == heir.name
            rec.gate.set()
            await settle(lambda: rec.gained == ["slow"])
            assert rec.gained == ["slow"] and heir.drives("slow")

    run(scenario)


def test_a_table_is_drawn_to_its_people_but_not_away_from_them(redis_url: str) -> None:
    async def scenario() -> None:
        async with processes(redis_url, 2) as (first, second):
            for cluster in (first, second):
                await cluster._tick(handler(Recorder()), set())  # both beat
            assert await first.claim("t")
            await second.present("t", {0})
            assert await second.draw("t")  # nobody seated at the holder: drawn
            holder = await first.redis.hget(first.keys[1], "t")
            assert holder is not None and holder.decode() == second.name
            first.held.discard("t")  # as the lease notice from ``second`` makes it do
            await first.present("t", {1})
            assert not await first.draw("t")  # people at the holder now: it stays
            assert await first.presence("t") == {0} and await second.presence("t") == {1}
            await die(second)
            assert await first.presence("t") == set()  # a dead process's seats do not count

    run(scenario)


def test_a_process_over_its_share_hands_the_excess_over(redis_url: str) -> None:
    async def scenario() -> None:
        async with processes(redis_url, 2) as (busy, idle):
            rec = Recorder()
            for n in range(20):
                assert await busy.claim(f"t{n}")
                rec.in_memory.add(f"t{n}")
            await idle._tick(handler(Recorder()), set())  # a second live process appears
            await busy._tick(handler(rec), set())
            fair = 10
            assert len(busy.held) == fair + 2  # a fair share and a slack of two
            assert len(rec.lost) == 8
            idle_rec = Recorder()
            await busy._tick(handler(rec), set())  # it does not take back what it gave
            assert len(busy.held) == fair + 2
            await idle._tick(handler(idle_rec), set())  # handed over: all to the only other
            await settle(lambda: len(idle_rec.gained) == 8)
            assert sorted(idle_rec.gained) == sorted(rec.lost)

    run(scenario)


def test_the_first_to_look_takes_no_more_than_its_share_of_what_was_handed_over(
    redis_url: str,
) -> None:
    """A busy process hands its excess over while one of the others always looks first (its
    rounds come just after the busy one's): that one stops at its fair share, and the other,
    looking later, still gets tables to drive (else it would drive none, for good)."""

    async def scenario() -> None:
        async with processes(redis_url, 3) as (busy, first, late):
            recs = {c.name: Recorder() for c in (busy, first, late)}
            for cluster in (first, late):
                await cluster._tick(handler(recs[cluster.name]), set())  # all three live
            for n in range(9):  # tables arrive one by one at the busy process
                assert await busy.claim(f"t{n}")
                recs[busy.name].in_memory.add(f"t{n}")
                await busy._tick(handler(recs[busy.name]), set())
                for _ in range(3):  # the first looks again and again before the late one
                    await first._tick(handler(recs[first.name]), set())
                await settle()
            await late._tick(handler(recs[late.name]), set())
            await settle(lambda: bool(recs[late.name].gained))
            shares = [len(c.held) for c in (busy, first, late)]
            assert sum(shares) == 9 and min(shares) > 0, shares
            assert len(first.held) <= 3  # its fair share of nine among three

    run(scenario)


def test_a_process_shutting_down_hands_everything_over_at_once(redis_url: str) -> None:
    async def scenario() -> None:
        async with processes(redis_url, 3) as (one, two, leaving):
            recs = {c.name: Recorder() for c in (leaving, one, two)}
            for cluster in (one, two):
                await cluster._tick(handler(recs[cluster.name]), set())
            for n in range(6):
                assert await leaving.claim(f"t{n}")
            held = set(leaving.held)
            await leaving.close()
            for _ in range(2):  # one round each, twice: no waiting for a lease to lapse
                for cluster in (one, two):
                    await cluster._tick(handler(recs[cluster.name]), set())
            await settle(lambda: len(recs[one.name].gained) + len(recs[two.name].gained) == 6)
            assert one.held | two.held == held and one.held and two.held

    run(scenario)
