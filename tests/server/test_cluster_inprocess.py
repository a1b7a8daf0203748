"""Several processes in one: lobbies on one in-memory store, their leases and notices in a hub
on a fake clock. The logic of driving, hearing and taking over, with no server and no sleep."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from test_table_inprocess import two_people

from kit.tables import FakeClock, Hub, Watcher, commit_then_reveal, process_on, seated, settle
from ludoteca.core import verify
from ludoteca.games import get
from ludoteca.server.messages import Rejected
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.resign import resign
from ludoteca.server.table.table import Table


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def first_legal(table: Table, seat: int) -> str:
    _, legal = table.seat_view(seat)
    text: str = legal[0]["text"]
    return text


def test_a_step_stored_at_one_process_reaches_the_other_and_its_driver_answers() -> None:
    async def scenario() -> None:
        hub, store = Hub(FakeClock()), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, seat, _ = await a.play_now(
                "heroes", players=2, level="random", name="Ana", turn_seconds=60
            )
            assert seat == 0
            await commit_then_reveal(table_a, {0: "ana-seed"})
            table_b = await b.residency.get(table_a.id)
            assert table_b.version == 0 and table_b.match is not None
            assert hub.members["a"][0].drives(table_a.id)
            assert not hub.members["b"][0].drives(table_a.id)
            while table_a.to_move() != 0:  # the bot (driven at a) moves first if it must
                await hub.clock.advance(1.0)
                await seated(table_a)
            version = table_b.version
            assert version == table_a.version
            # Ana acts at b; a hears it and its bot answers; b hears that
            watcher = await seated(table_b)
            await table_b.submit(0, first_legal(table_b, 0), version)
            assert table_a.version == version + 1  # heard at once
            await hub.clock.advance(0.5)  # the bot's delay, at the driving process
            await watcher.until(lambda: table_b.version > version + 1 or table_b.to_move() == 0)
            assert table_b.version == table_a.version
            for seat_ in (0, 1, None):
                assert table_b.seat_view(seat_) == table_a.seat_view(seat_)
            assert [e.action for e in table_b.log] == [e.action for e in table_a.log]

    run(scenario)


def test_a_table_driven_by_two_processes_is_noticed() -> None:
    """Two processes that both believe they drive a table (as two that disagree about the Redis
    prefix would) used to go unnoticed; now the one that hears the other's bot move says so."""

    async def scenario() -> None:
        hub, store = Hub(FakeClock()), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, _, _ = await a.play_now(
                "heroes", players=2, level="random", name="Ana", turn_seconds=60
            )
            await commit_then_reveal(table_a, {0: "ana-seed"})
            await b.residency.get(table_a.id)
            cluster_a, cluster_b = hub.members["a"][0], hub.members["b"][0]
            assert cluster_a.drives(table_a.id) and not cluster_b.drives(table_a.id)
            assert cluster_b.doubles() == []
            cluster_b.held.add(table_a.id)  # b believes it drives the table too
            version = table_a.version
            await hub.clock.advance(61.0)  # the bot moves, or Ana's clock runs out: a moves
            await seated(table_a)
            assert table_a.version > version
            assert cluster_b.doubles() == [table_a.id]
            assert {origin for _, origin in cluster_b.doubled} == {"a"}

    run(scenario)


def test_a_dead_processes_tables_are_taken_over_with_their_clocks() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        hub, store = Hub(clock), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table, _ = await two_people(a, turn_seconds=30)
            dealt = clock.now()
            assert hub.members["a"][0].drives(table.id)
            await clock.advance(10)
            await hub.tick("a")
            hub.kill("a")  # as by SIGKILL: its timers stop, its lease is no longer renewed
            await clock.advance(2)
            await hub.tick("b")
            assert table.id not in b.residency.tables  # the lease has not lapsed yet
            await clock.advance(1.5)
            await hub.tick("b")  # lapsed: b takes the table over
            taken = b.residency.tables[table.id]
            assert hub.members["b"][0].drives(table.id)
            assert taken.version == 0
            await clock.advance(30 - 13.5 - 0.01)
            assert taken.version == 0, "the clock kept its start: not run out yet"
            await clock.advance(0.02)
            watcher = await seated(taken)
            await watcher.until(lambda: taken.version == 1)
            step = (await store.load_actions(table.id))[0]
            assert step.by == "table" and step.at == dealt + 30  # no reset, no double expiry
            assert len(await store.load_actions(table.id)) == 1

    run(scenario)


def test_a_stale_driver_cannot_store_a_step_another_process_took() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        hub, store = Hub(clock), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, _ = await two_people(a, turn_seconds=30)
            table_b = await b.residency.get(table_a.id)
            mover = table_a.to_move()
            assert mover is not None
            # a stops hearing b (a blip), and b stores the mover's step
            hearing = hub.members.pop("a")
            await table_b.submit(mover, first_legal(table_b, mover), 0)
            hub.members["a"] = hearing
            assert table_a.version == 0
            try:
                await table_a.submit(mover, first_legal(table_a, mover), 0, by="table")
            except Rejected as exc:
                assert exc.code == "stale_version"
            else:
                raise AssertionError("a stale driver stored a step another process took")
            assert table_a.version == 1  # and it caught up from the store
            assert len(await store.load_actions(table_a.id)) == 1
            assert table_a.log[-1].by == "player"

    run(scenario)


def test_a_table_is_driven_where_its_people_are_connected() -> None:
    """Made at a, Ana plays from b: b draws the lease (nobody is seated at a), so the table's
    clock runs where its person is, and a stops its timer at once. Bruno then connects at a: a
    cannot draw the table back while Ana is at b, so it does not move back and forth."""

    async def scenario() -> None:
        clock = FakeClock()
        hub, store = Hub(clock), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, _ = await two_people(a, turn_seconds=30)
            assert hub.members["a"][0].drives(table_a.id) and table_a.timer() is not None
            table_b = await b.residency.get(table_a.id)
            table_b.listeners.add(Watcher(seat=0))
            await table_b.seated_here()
            assert hub.members["b"][0].drives(table_a.id) and table_b.timer() is not None
            assert not hub.members["a"][0].drives(table_a.id) and table_a.timer() is None
            assert (
                table_a.id not in a.residency.tables
            )  # nobody follows it at a: it left memory there
            table_a = await a.residency.get(table_a.id)
            table_a.listeners.add(Watcher(seat=1))
            await table_a.seated_here()
            assert hub.members["b"][0].drives(table_a.id)
            assert not hub.members["a"][0].drives(table_a.id)
            await clock.advance(30)  # the clock, driven at b, runs out once
            await settle()
            assert len(await store.load_actions(table_a.id)) == 1
            assert table_a.version == table_b.version == 1

    run(scenario)


def test_a_move_made_while_a_table_is_being_read_is_not_missed() -> None:
    """b reads the table for a client; a stores a move after b's read but before b holds the
    table in memory, so b drops that move's notice: b must read the table again."""

    async def scenario() -> None:
        clock = FakeClock()
        hub, store = Hub(clock), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, _ = await two_people(a, turn_seconds=30)
            read, move_made = asyncio.Event(), asyncio.Event()
            load_actions = store.load_actions

            async def slow_read(table_id: str, after: int = 0, upto: int | None = None) -> Any:
                found = await load_actions(table_id, after, upto)
                read.set()
                await move_made.wait()  # the snapshot is taken; the move comes meanwhile
                return found

            store.load_actions = slow_read  # type: ignore[method-assign]
            reading = asyncio.create_task(b.residency.get(table_a.id))
            await read.wait()
            store.load_actions = load_actions  # type: ignore[method-assign]
            mover = table_a.to_move()
            assert mover is not None
            await table_a.submit(mover, first_legal(table_a, mover), 0)
            move_made.set()
            table_b = await reading
            assert table_b.version == table_a.version == 1

    run(scenario)


def test_a_re_read_after_a_process_lost_does_not_cut_off_a_timed_move_being_stored() -> None:
    """Hearing that another process died, a process reads every table it holds again, and
    re-arms each one's timer. A bot's move at one of them was being stored meanwhile (the re-read
    had let go of the table's lock and waited for Redis): cut off there, the move was stored all
    the same but never taken here nor announced, the timer armed in its place was refused as
    stale, and the table stood still while its lease was renewed (issue 34)."""

    async def scenario() -> None:
        clock = FakeClock()
        hub, store = Hub(clock), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table, _, _ = await a.play_now(
                "heroes", players=2, level="random", name="Ana", turn_seconds=60
            )
            await commit_then_reveal(table, {0: "ana-seed"})
            table_b = await b.residency.get(table.id)
            watcher = await seated(table)
            while table.to_move() != 1:  # Ana moves (after the bot, if it begins): the bot's turn
                if table.to_move() == 0:
                    await table.submit(0, first_legal(table, 0), table.version)
                else:
                    await clock.advance(1.0)
                    await watcher.until(lambda: table.to_move() != 1)
            version = table.version
            cluster = hub.members["a"][0]
            presence, append = cluster.presence, store.append
            asked, answered = asyncio.Event(), asyncio.Event()
            stored, acknowledged = asyncio.Event(), asyncio.Event()

            async def redis_presence(table_id: str) -> set[int]:  # a round trip to Redis
                asked.set()
                await answered.wait()
                return await presence(table_id)

            async def group_commit(item: Any) -> None:  # committed; its answer on the way
                await append(item)
                stored.set()
                await acknowledged.wait()

            cluster.presence = redis_presence  # type: ignore[method-assign]
            store.append = group_commit  # type: ignore[method-assign]
            resync = asyncio.create_task(a.residency.resync())  # as on hearing ``process_lost``
            await asked.wait()  # the table is read again, its lock let go
            await clock.advance(0.5)  # the bot's delay: it chooses its move and stores it
            async with asyncio.timeout(20):  # the bot thinks on a worker thread
                await stored.wait()
            answered.set()  # the re-read goes on, and re-arms the table
            await resync
            acknowledged.set()
            await settle()
            cluster.presence, store.append = presence, append  # type: ignore[method-assign]
            assert len(await store.load_actions(table.id)) == version + 1
            assert table.version == version + 1, "the bot's stored move is held here"
            assert table_b.version == version + 1, "and announced to the other process"
            # the table goes on: the bot moves again if its turn goes on (a random bot's move
            # need not end it), else Ana's clock runs out a minute after and the table plays
            await clock.advance(60.5)
            await watcher.until(lambda: table.version > version + 1)

    run(scenario)


def test_a_resign_at_one_process_is_bound_in_the_chain_at_the_other() -> None:
    """A resign at 3 seats stores no step: the other process hears the seat change, deals its
    match again from the stored seats, and its chain binds the takeover where it was made."""

    async def scenario() -> None:
        hub, store = Hub(FakeClock()), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, _, _ = await a.play_now(
                "dice-heroes", players=3, level="random", name="Ana", turn_seconds=60
            )
            await commit_then_reveal(table_a, {0: "ana-seed"})
            table_b = await b.residency.get(table_a.id)
            watcher = await seated(table_a)
            version = table_b.version
            await resign(table_b, 0)
            await watcher.until(lambda: table_a.seats[0].kind == "bot")
            match_a, match_b = table_a.match, table_b.match
            assert match_a is not None and match_b is not None
            assert match_a.players[0].bot_from == version
            assert match_a.chain == match_b.chain, "both bind the takeover at its version"
            for _ in range(2000):  # bots play both seats to the end, driven at a
                if table_a.row.status == "over":
                    break
                moved = table_a.version
                await hub.clock.advance(0.5)
                await watcher.until(
                    lambda v=moved: table_a.version > v or table_a.row.status == "over"
                )
            assert table_a.row.status == "over"
            assert verify(table_a.record().to_json(), get).ok

    run(scenario)


def test_a_resign_at_two_seats_at_one_process_ends_the_match_at_the_other() -> None:
    """At 2 seats a resign ends the match: the other process hears it, ends its match the same
    way (its chain binding the end) and both give the same record, the bot the winner."""

    async def scenario() -> None:
        hub, store = Hub(FakeClock()), MemoryStorage()
        async with process_on(hub, "a", store) as a, process_on(hub, "b", store) as b:
            table_a, _, _ = await a.play_now(
                "heroes", players=2, level="random", name="Ana", turn_seconds=60
            )
            await commit_then_reveal(table_a, {0: "ana-seed"})
            table_b = await b.residency.get(table_a.id)
            watcher = await seated(table_a)
            await resign(table_b, 0)
            await watcher.until(lambda: table_a.row.status == "over")
            match_a, match_b = table_a.match, table_b.match
            assert match_a is not None and match_b is not None
            assert match_a.ended == match_b.ended == {"by": "resign", "seat": 0}
            assert match_a.chain == match_b.chain, "both bind the end"
            assert table_a.row.outcome == table_b.row.outcome
            assert table_a.seats[0].kind == "human", "no bot took the seat"
            record = table_a.record().to_json()
            assert record["outcome"] == {"winners": [1], "reason": "resigned", "draw": False}
            unsigned = {k: v for k, v in record.items() if k != "signature"}
            assert unsigned == {  # each process signs with its own key in this test
                k: v for k, v in table_b.record().to_json().items() if k != "signature"
            }
            assert verify(record, get).ok

    run(scenario)
