"""The public log of tables (docs/log.md), in process: the store's contract on every store, the
service's heads and proofs for 10,000 tables, consistency between two heads, a forked log caught
by a client that saw both heads, the end of every table logged (finished, expired by the
operator, gone), a table logged when its commitments close and before anyone reveals, and
appends from several writers at once on PostgreSQL keeping the indexes dense."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor

import pytest
from sqlalchemy import select

from kit.tables import FakeClock, lobby_on
from ludoteca.core.fairness import seat_commitment
from ludoteca.core.merkle import MerkleTree, leaf_hash
from ludoteca.core.publog import HeadBook, TreeHead, inclusion_problem, parse_entry, status_entry
from ludoteca.server.lobby.lobby import SeatRequest
from ludoteca.server.publog import Entry, LogStore, MemoryLogStore, PublicLog, SqlLogStore
from ludoteca.server.signing import KeyRing
from ludoteca.server.storage import SeatRow, SqlStorage, Storage, TableRow, open_storage
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.storage.schema import publog_entries


def run_on(store_url: str, scenario: Callable[[LogStore, Storage], Awaitable[None]]) -> None:
    async def go() -> None:
        storage = open_storage(store_url)
        log: LogStore = (
            SqlLogStore(storage.engine) if isinstance(storage, SqlStorage) else MemoryLogStore()
        )
        try:
            await scenario(log, storage)
        finally:
            log.close()
            await storage.close()

    asyncio.run(go())


def leaf(i: int) -> tuple[str, str]:
    text = status_entry(f"t{i:05d}", "over", i, 1000.0 + i)
    return text, leaf_hash(text.encode()).hex()


def test_the_store_appends_densely_once_per_table_and_kind(store_url: str) -> None:
    async def scenario(log: LogStore, _: Storage) -> None:
        for i in range(5):
            text, hashed = leaf(i)
            entry = await log.append(f"t{i}", "table", text, hashed, 1.0)
            assert entry.index == i
        again = await log.append("t2", "table", "other text", leaf(9)[1], 2.0)
        assert (again.index, again.leaf) == (2, leaf(2)[0])  # the first one stands
        assert (await log.append("t2", "over", *leaf(5), 3.0)).index == 5
        assert await log.hashes(0, 100) == [bytes.fromhex(leaf(i)[1]) for i in range(6)]
        assert await log.hashes(4, 1) == [bytes.fromhex(leaf(4)[1])]
        assert [e.index for e in await log.entries(3, 10)] == [3, 4, 5]
        found = await log.entry("t2", "over")
        assert found is not None and found.index == 5
        assert await log.entry("t9", "table") is None
        assert await log.logged(["t1", "t9", "t2"]) == {"t1", "t2"}
        assert await log.logged([]) == set()
        assert [e.table_id for e in await log.unfinished(-1, 10)] == ["t0", "t1", "t3", "t4"]
        assert [e.index for e in await log.unfinished(-1, 2)] == [0, 1]
        assert [e.table_id for e in await log.unfinished(1, 10)] == ["t3", "t4"]
        first = TreeHead(3, "a" * 64, "b" * 128, "c" * 16)
        assert await log.keep_head(first, 1.0) == first
        assert await log.keep_head(TreeHead(3, "d" * 64, "e" * 128, "c" * 16), 2.0) == first
        assert await log.head(3) == first and await log.head(4) is None

    run_on(store_url, scenario)


def service(keys: KeyRing | None = None) -> PublicLog:
    return PublicLog(MemoryLogStore(), keys or KeyRing.ephemeral(), time.time)


def fill(log: PublicLog, start: int, end: int) -> Awaitable[None]:
    async def go() -> None:
        for i in range(start, end):
            await log.add(f"t{i:05d}", "table", leaf(i)[0])

    return go()


@pytest.mark.slow
def test_every_one_of_10000_tables_is_proved_included_in_the_signed_head() -> None:
    async def scenario() -> None:
        keys = KeyRing.ephemeral()
        log = service(keys)
        await fill(log, 0, 10_000)
        head = await log.head()
        assert head.size == 10_000
        assert head.problem(keys.current.public_key) is None
        assert head.problem(KeyRing.ephemeral().current.public_key) is not None
        assert await log.head() == head  # one head per size
        started = time.perf_counter()
        for i in range(10_000):
            entry, size, path = await log.inclusion(f"t{i:05d}", None)
            assert (entry.index, size) == (i, 10_000)
            assert inclusion_problem(entry.leaf, entry.index, path, head) is None
        elapsed = time.perf_counter() - started
        assert elapsed < 30, f"10,000 proofs took {elapsed:.1f} s"
        # a proof against an older size, and the wrong entry or index, do not pass
        entry, size, path = await log.inclusion("t00042", 100)
        assert size == 100 and inclusion_problem(entry.leaf, 42, path, head) is not None
        entry, _, path = await log.inclusion("t00042", None)
        assert inclusion_problem(leaf(43)[0], 42, path, head) is not None
        assert inclusion_problem(entry.leaf, 43, path, head) is not None
        with pytest.raises(ValueError, match="not 42"):
            await log.inclusion("t00042", 42)  # too small to hold entry 42
        with pytest.raises(ValueError):
            await log.inclusion("t00042", 10_001)
        with pytest.raises(LookupError):
            await log.inclusion("nobody", None)

    asyncio.run(scenario())


def prover(log: PublicLog) -> Callable[[int, int], list[str]]:
    """What a client asks the server for (``GET /api/log/consistency``), from its tree as it is."""

    def prove(first: int, second: int) -> list[str]:
        return [h.hex() for h in log.tree.consistency_path(first, second)]

    return prove


def test_two_heads_are_proved_consistent_and_a_forked_log_is_caught() -> None:
    async def scenario() -> None:
        keys = KeyRing.ephemeral()
        honest = service(keys)
        await fill(honest, 0, 4000)
        small = await honest.head()
        await fill(honest, 4000, 10_000)
        large = await honest.head()
        path = await honest.consistency(4000, 10_000)
        assert path == prover(honest)(4000, 10_000) and len(path) > 1
        book = HeadBook()
        for head in (small, large):
            assert head.problem(keys.current.public_key) is None
            assert book.see(head, prover(honest)) is None
        assert book.fork is None
        with pytest.raises(ValueError):
            await honest.consistency(5, 4)
        with pytest.raises(ValueError):
            await honest.consistency(1, 10_001)

        # the same server (same key) shows another client a log where table 17 is missing
        forked = service(keys)
        await fill(forked, 0, 17)
        await fill(forked, 18, 10_001)
        other = await forked.head()
        assert other.size == large.size and other.root != large.root
        assert other.problem(keys.current.public_key) is None  # signed all the same
        problem = book.see(other)
        assert problem is not None and "forked" in problem
        assert book.fork == (large, other)

        # a client that saw only the small honest head, then a larger head of the forked log:
        # no consistency proof the server can give joins them
        late = HeadBook()
        assert late.see(small) is None
        await forked.add("t10001", "table", leaf(10_001)[0])
        larger = await forked.head()
        problem = late.see(larger, prover(forked))
        assert problem is not None and "does not extend" in problem
        assert late.fork == (small, larger)

    asyncio.run(scenario())


def test_a_table_is_logged_when_its_commitments_close_and_its_end_when_it_ends() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        storage = MemoryStorage()
        async with lobby_on(storage, clock) as lobby:
            log = PublicLog(MemoryLogStore(), lobby.services.keys, clock.now)
            lobby.services.publog = log
            table, _, _ = await lobby.create(
                "heroes",
                players=2,
                seats=[SeatRequest(), SeatRequest()],
                turn_seconds=None,
                name="Ana",
                start=False,
            )
            await table.commit(0, seat_commitment("ana", "a" * 32))
            assert await log.sync() == 0  # still open: nothing public yet
            await lobby.join(table.id, "Bob", None)
            await table.commit(1, seat_commitment("bob", "b" * 32))
            assert table.row.revealing_at is not None and table.row.status == "starting"
            entry, _, _ = await log.inclusion(table.id, None)  # logged before any reveal
            fields = parse_entry(entry.leaf)
            assert fields["server_commitment"] == table.row.commitment
            assert [s["commitment"] for s in fields["seats"]] == [
                seat_commitment("ana", "a" * 32),
                seat_commitment("bob", "b" * 32),
            ]
            assert fields["game"] == "heroes" and fields["status"] == "starting"

            # the operator marks the table expired in the reveal window (no record, ever)
            stored = storage._tables[table.id].row
            stored.status = "expired"
            assert await log.sweep(storage) == 1
            ended = await log.store.entry(table.id, "expired")
            assert ended is not None and parse_entry(ended.leaf)["status"] == "expired"
            assert await log.sweep(storage) == 0  # logged once
            # a table the database lost is logged as gone
            await log.add("lost", "table", leaf(1)[0])
            assert await log.sweep(storage) == 1
            assert await log.store.entry("lost", "gone") is not None

    asyncio.run(scenario())


def test_a_table_dealt_while_its_entry_was_lost_is_logged_by_the_sweep() -> None:
    """The process closed the commitments and stopped before appending (here: no log at all);
    the table is held again (a restart, another process): the sweep appends its entry, with the
    commitments as they closed."""

    async def scenario() -> None:
        clock = FakeClock()
        storage = MemoryStorage()
        async with lobby_on(storage, clock) as lobby:
            table, _, _ = await lobby.create(
                "heroes",
                players=2,
                seats=[SeatRequest(), SeatRequest()],
                turn_seconds=None,
                name="Ana",
                start=False,
            )
            await lobby.join(table.id, "Bob", None)
            await table.commit(0, seat_commitment("ana", "a" * 32))
            await table.commit(1, seat_commitment("bob", "b" * 32))
            open_table, _, _ = await lobby.create(
                "heroes",
                players=2,
                seats=[SeatRequest(), SeatRequest()],
                turn_seconds=None,
                name="Cy",
                start=False,
            )
            log = PublicLog(MemoryLogStore(), lobby.services.keys, clock.now)
            held = [t.row for t in lobby.residency.tables.values()]
            assert await log.sweep(storage, held) == 1  # not the table still open
            entry, _, _ = await log.inclusion(table.id, None)
            assert [s["commitment"] for s in parse_entry(entry.leaf)["seats"]] == [
                seat_commitment("ana", "a" * 32),
                seat_commitment("bob", "b" * 32),
            ]
            assert await log.store.entry(open_table.id, "table") is None
            assert await log.sweep(storage, held) == 0

    asyncio.run(scenario())


def test_a_failed_append_is_retried_by_the_sweep() -> None:
    class Flaky(MemoryLogStore):
        down = True

        async def append(self, table_id: str, kind: str, leaf: str, h: str, at: float) -> Entry:
            if self.down:
                raise OSError("database away")
            return await super().append(table_id, kind, leaf, h, at)

    async def scenario() -> None:
        store = Flaky()
        log = PublicLog(store, KeyRing.ephemeral(), time.time)
        storage = MemoryStorage()
        row = _row("t1")
        await log.closed(row)
        assert log.pending and await log.sync() == 0
        store.down = False
        assert await log.sweep(storage) >= 1
        assert not log.pending and await log.store.entry("t1", "table") is not None

    asyncio.run(scenario())


def _row(table_id: str) -> TableRow:
    return TableRow(
        table_id,
        "heroes",
        {},
        "s" * 64,
        "c" * 64,
        "starting",
        30,
        0.0,
        seats=[SeatRow(0, "human", "Ana", commitment="d" * 64), SeatRow(1, "bot", "bot")],
        revealing_at=5.0,
    )


def append_from_a_process(url: str, writer: int, start_at: float) -> int:
    """One server process's appends (run in a process of its own): 50 tables of its own and,
    every tenth, the next writer's table too (two processes logging one table)."""
    storage = open_storage(url)
    assert isinstance(storage, SqlStorage)
    store = SqlLogStore(storage.engine)
    time.sleep(max(0.0, start_at - time.time()))  # every writer starts at the same moment
    try:
        for i in range(50):
            for w in (writer, (writer + 1) % 4) if i % 10 == 0 else (writer,):
                text = status_entry(f"w{w}-{i}", "over", i, 1.0)
                store.append_now(f"w{w}-{i}", "table", text, leaf_hash(text.encode()).hex(), 1.0)
    finally:
        store.close()
        asyncio.run(storage.close())
    return writer


@pytest.mark.slow  # four processes start
def test_processes_appending_at_once_on_postgresql_get_dense_unique_indexes(
    postgres_url: str,
) -> None:
    """Four processes append 50 tables each at once, some tables from two of them: 200 entries,
    indexes exactly 0-199, each table once; the log's root is the one of those entries."""
    storage = open_storage(postgres_url)  # the schema, made before the writers start
    assert isinstance(storage, SqlStorage)
    start_at = time.time() + 3
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(4, mp_context=context) as pool:
        done = list(pool.map(append_from_a_process, [postgres_url] * 4, range(4), [start_at] * 4))
    assert done == [0, 1, 2, 3]
    try:
        with storage.engine.connect() as conn:
            rows = conn.execute(
                select(
                    publog_entries.c.idx, publog_entries.c.table_id, publog_entries.c.leaf
                ).order_by(publog_entries.c.idx)
            ).all()
        assert [r.idx for r in rows] == list(range(200))
        assert len({r.table_id for r in rows}) == 200
        log = PublicLog(SqlLogStore(storage.engine), KeyRing.ephemeral(), time.time)
        head = asyncio.run(log.head())
        tree = MerkleTree([leaf_hash(r.leaf.encode()) for r in rows])
        assert (head.size, head.root) == (200, tree.root().hex())
        log.close()
    finally:
        asyncio.run(storage.close())


def test_the_sweep_goes_round_every_table_without_an_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """More tables play for long (turn-based) than one sweep looks at: the sweeps go on from
    where the last stopped, so a newer table the operator ended is still found."""
    monkeypatch.setattr("ludoteca.server.publog.service.SWEEP", 2)

    async def scenario() -> None:
        storage = MemoryStorage()
        log = PublicLog(MemoryLogStore(), KeyRing.ephemeral(), time.time)
        for i in range(5):
            row = _row(f"t{i}")
            row.status = "expired" if i == 4 else "playing"
            await storage.create_table(row)
            await log.add(row.id, "table", leaf(i)[0])
        assert [await log.sweep(storage) for _ in range(3)] == [0, 0, 1]
        assert await log.store.entry("t4", "expired") is not None
        assert [await log.sweep(storage) for _ in range(3)] == [0, 0, 0]

    asyncio.run(scenario())
