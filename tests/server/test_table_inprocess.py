"""The table and the lobby in process: clocks, away and back, bots, the deal's wait for the
players' seeds, version conflicts and restarts — driven by a fake clock, with no server, no
websocket and no sleep."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from kit.tables import SALT, FakeClock, commit_then_reveal, lobby_on, seated
from ludoteca.core import verify
from ludoteca.core.fairness import seat_commitment
from ludoteca.games import get
from ludoteca.server.lobby.lobby import SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.table import Table


def moved_on(table: Table, version: int) -> Callable[[], bool]:
    """True once the table is past ``version`` or over."""
    return lambda: table.version > version or table.row.status == "over"


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


@pytest.fixture
def db() -> MemoryStorage:
    """One in-memory store per test; every lobby of the test (restarts, a second process) on it."""
    return MemoryStorage()


async def two_people(lobby: Any, turn_seconds: int = 30) -> tuple[Table, list[str]]:
    """Ana and Bruno at a heroes table (started when Bruno took the last seat), each with a seed
    of their own, dealt."""
    seats = [SeatRequest(), SeatRequest()]
    table, _, ana = await lobby.create(
        "heroes", players=2, seats=seats, turn_seconds=turn_seconds, name="Ana", start=False
    )
    _, bruno = await lobby.join(table.id, "Bruno", None)
    assert ana is not None and table.row.status == "starting"
    await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
    assert table.row.status == "playing"
    return table, [ana, bruno]


def test_the_deal_waits_for_every_person_or_the_timeout(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest(bot=True, level="random")]
            table, _, ana = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            await table.commit(0, seat_commitment("ana-first", SALT))
            await table.commit(0, seat_commitment("ana-changed-her-mind", SALT))
            with pytest.raises(Rejected) as bad:
                await table.commit(0, "has a space")
            assert bad.value.code == "bad_commitment"
            assert table.seats[0].commitment == seat_commitment("ana-changed-her-mind", SALT)
            await lobby.join(table.id, "Bruno", None)  # the last free seat: it starts by itself
            assert table.row.status == "starting" and table.match is None
            with pytest.raises(Rejected) as again:
                await lobby.start(table.id, ana)
            assert again.value.code == "not_open"
            assert table.waiting_for() == [1]
            with pytest.raises(Rejected) as early:
                await table.submit(0, "roll", None)
            assert early.value.code == "not_started"
            watcher = await seated(table)
            await clock.advance(9.9)
            assert not table.summary()["revealing"], "the commitments stay open until the timeout"
            await clock.advance(0.1)
            await watcher.until(lambda: table.summary()["revealing"])
            assert table.waiting_for() == [0], "Bruno committed to nothing: only Ana reveals"
            await table.reveal(0, "ana-changed-her-mind", SALT)
            assert table.match is not None
            assert table.match.deal.contributions == ("ana-changed-her-mind", None, None)
            assert table.row.turn_started_at == clock.now()
            with pytest.raises(Rejected) as late:
                await table.commit(1, seat_commitment("too-late", SALT))
            assert late.value.code == "already_dealt"

    run(scenario)


def test_the_last_seed_deals_at_once_and_each_seed_changes_the_deal(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        deals = []
        async with lobby_on(db, clock) as lobby:
            for bruno_seed in ("b-1", "b-2"):
                table, _, _ = await lobby.create(
                    "heroes",
                    players=2,
                    seats=[SeatRequest(), SeatRequest()],
                    turn_seconds=None,
                    name="Ana",
                    start=False,
                )
                await lobby.join(table.id, "Bruno", None)  # full: it starts by itself
                await table.commit(0, seat_commitment("a-1", SALT))
                await table.commit(1, seat_commitment(bruno_seed, SALT))
                await table.reveal(0, "a-1", SALT)
                assert table.row.status == "starting"
                await table.reveal(1, bruno_seed, SALT)
                assert table.row.status == "playing" and table.match is not None
                deals.append(table.match.seed)
        assert deals[0] != deals[1]

    run(scenario)


def test_a_clock_that_runs_out_plays_for_the_seat_then_waits_only_a_grace(
    db: MemoryStorage,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, away_grace=5.0) as lobby:
            table, _ = await two_people(lobby, turn_seconds=30)
            watcher = await seated(table)
            first = table.to_move()
            assert first is not None and table.version == 0
            await clock.advance(29.9)
            assert table.version == 0
            await clock.advance(0.1)
            await watcher.until(lambda: table.version >= 1)
            assert table.log[1].by == "table" and table.log[1].seat == first
            assert table.seats[first].away
            # play on until it is the away seat's turn again: the table waits only the grace
            while table.to_move() != first:
                seat = table.to_move()
                assert seat is not None and table.match is not None
                await table.submit(seat, table.match.legal(seat)[0], table.version)
            version = table.version
            await clock.advance(4.9)
            assert table.version == version
            await clock.advance(0.1)
            await watcher.until(lambda: table.version > version)
            assert table.log[-1].by == "table"
            # the person is back: the whole turn is theirs again
            while table.to_move() != first:
                seat = table.to_move()
                assert seat is not None and table.match is not None
                await table.submit(seat, table.match.legal(seat)[0], table.version)
            await table.back(first)
            assert not table.seats[first].away
            version = table.version
            await clock.advance(5.0)
            assert table.version == version, "back: no grace any more"

    run(scenario)


def test_bots_move_after_their_delay_and_the_match_verifies(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, bot_delay=0.5) as lobby:
            seats = [SeatRequest(bot=True, level="random")] * 2
            table, _, _ = await lobby.create(
                "dwarves", players=2, seats=seats, turn_seconds=None, name=None, start=True
            )
            watcher = await seated(table)
            assert table.row.status == "playing", "bots add no seed: dealt at once"
            await clock.advance(0.4)
            assert table.version == 0
            for _ in range(2000):
                if table.row.status == "over":
                    break
                moved = moved_on(table, table.version)
                await clock.advance(0.5)
                await watcher.until(moved)
            assert table.row.status == "over"
            assert {entry.by for entry in table.log[1:]} == {"bot"}
            record = table.record()
            assert verify(record.to_json(), get).ok

    run(scenario)


def test_a_stale_version_is_refused_and_changes_nothing(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table, _ = await two_people(lobby)
            seat = table.to_move()
            assert seat is not None and table.match is not None
            legal = table.match.legal(seat)
            chain = table.match.chain[-1]
            with pytest.raises(Rejected) as stale:
                await table.submit(seat, legal[0], 7)
            assert stale.value.code == "stale_version"
            with pytest.raises(Rejected) as turn:
                await table.submit(1 - seat, "draw", 0)
            assert turn.value.code == "not_your_turn"
            with pytest.raises(Rejected) as nonsense:
                await table.submit(seat, "fly to the moon", 0)
            assert nonsense.value.code == "invalid_action"
            assert table.version == 0 and table.match.chain[-1] == chain
            await table.submit(seat, legal[0], 0)
            assert table.version == 1

    run(scenario)


def test_a_store_that_fails_refuses_the_action_and_changes_nothing(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table, _ = await two_people(lobby)
            seat = table.to_move()
            assert seat is not None and table.match is not None
            legal = table.match.legal(seat)[0]
            append = db.append

            async def unreachable(item: Any) -> None:
                raise OSError("connection refused")

            db.append = unreachable  # type: ignore[method-assign]
            with pytest.raises(Rejected) as busy:
                await table.submit(seat, legal, 0)
            assert busy.value.code == "server_busy"
            assert table.version == 0 and await db.load_actions(table.id) == []
            db.append = append  # type: ignore[method-assign]
            await table.submit(seat, legal, 0)  # sent again, stored once
            assert table.version == 1 and len(await db.load_actions(table.id)) == 1

    run(scenario)


def test_a_second_writer_of_the_same_step_is_refused_and_catches_up(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as one, lobby_on(db, clock) as two:
            table, _ = await two_people(one)
            other = await two.residency.get(table.id)
            seat = table.to_move()
            assert seat is not None and table.match is not None
            first, second = table.match.legal(seat)[:2]
            await table.submit(seat, first, 0)
            with pytest.raises(Rejected) as lost:
                await other.submit(seat, second, 0)
            assert lost.value.code == "stale_version"
            assert other.version == 1 and other.log[1].action == first

    run(scenario)


def test_a_restart_replays_the_match_and_keeps_the_clock(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table, _ = await two_people(lobby, turn_seconds=60)
            for _ in range(5):
                seat = table.to_move()
                assert seat is not None and table.match is not None
                await table.submit(seat, table.match.legal(seat)[-1], table.version)
            before = (table.version, table.row.turn_started_at, table.seat_view(0))
            chain = table.match.chain[-1] if table.match else None
        await clock.advance(20)
        async with lobby_on(db, clock) as again:
            table = again.residency.tables[table.id]
            watcher = await seated(table)
            assert (table.version, table.row.turn_started_at, table.seat_view(0)) == before
            assert table.match is not None and table.match.chain[-1] == chain
            assert await clock.pending() == [before[1] + 60]  # the same deadline, not a fresh clock
            await clock.advance(40)
            # the table plays for the seat once its clock runs out (and at once again if the
            # same seat still has a choice to make in that turn: its time is spent)
            await watcher.until(lambda: table.version > before[0])
            assert table.log[before[0] + 1].by == "table"
            assert table.log[before[0] + 1].at == before[1] + 60

    run(scenario)
