"""Turn-based tables in process, on the fake clock: the pace a table is made with, whose turn
began (``Services.turns``), timeouts and the bot that takes a seat after too many of them, and
the record that says from which step (docs/turn-based.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from kit.tables import FakeClock, Hub, commit_then_reveal, lobby_on, process_on, settle
from ludoteca.core import MatchRecord
from ludoteca.server.lobby.deadlines import Deadlines
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.notify.wording import turn_message
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.pacing import FIRED_TWICE
from ludoteca.server.table.table import Table
from ludoteca.server.table.turns import TurnBegan

DAY = 24 * 3600


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


@pytest.fixture
def db() -> MemoryStorage:
    return MemoryStorage()


class Told:
    """A TurnHook that keeps what it is told."""

    def __init__(self) -> None:
        self.turns: list[TurnBegan] = []

    def turn_began(self, turn: TurnBegan) -> None:
        self.turns.append(turn)


async def two_people(lobby: Lobby, **pace: Any) -> tuple[Table, list[str]]:
    """Ana and Bruno at a turn-based heroes table, dealt."""
    table, _, ana = await lobby.create(
        "heroes",
        players=2,
        seats=[SeatRequest(), SeatRequest()],
        name="Ana",
        start=False,
        **({"pace": "turn-based", "turn_seconds": DAY} | pace),
    )
    _, bruno = await lobby.join(table.id, "Bruno", None)
    assert ana is not None
    await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
    assert table.row.status == "playing"
    return table, [ana, bruno]


async def move(table: Table) -> None:
    """The person to move plays their first legal action."""
    seat = table.to_move()
    assert seat is not None
    _, legal = table.seat_view(seat)
    await table.submit(seat, legal[0]["text"], table.version)


@pytest.mark.parametrize(
    ("pace", "turn_seconds", "reserve", "problem"),
    [
        ("turn-based", 600, None, "between 3600 and 604800"),
        ("turn-based", 604_801, None, "between 3600 and 604800"),
        ("turn-based", DAY, 8 * DAY, "reserve_seconds must be between 0 and 604800"),
        ("real-time", 7200, None, "between 1 and 3600"),
        ("real-time", 60, 600, "only a turn-based table has a reserve"),
        ("by post", DAY, None, "pace is one of real-time, turn-based"),
    ],
)
def test_a_pace_out_of_range_is_refused_and_stores_nothing(
    db: MemoryStorage, pace: str, turn_seconds: int, reserve: int | None, problem: str
) -> None:
    async def scenario() -> None:
        async with lobby_on(db, FakeClock()) as lobby:
            with pytest.raises(Rejected) as refused:
                await lobby.create(
                    "heroes",
                    players=2,
                    seats=None,
                    turn_seconds=turn_seconds,
                    name="Ana",
                    start=True,
                    pace=pace,
                    reserve_seconds=reserve,
                )
            assert problem in refused.value.message
            assert await db.count_tables() == 0

    run(scenario)


def test_the_pace_is_kept_and_shown_with_the_deadline(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table, _ = await two_people(lobby, turn_seconds=7 * DAY, reserve_seconds=DAY)
            summary = table.summary()
            assert summary["pace"] == "turn-based"
            assert summary["turn_seconds"] == 7 * DAY and summary["reserve_seconds"] == DAY
            assert summary["deadline"] == pytest.approx(clock.now() + 8 * DAY)
            stored = await db.load_table(table.id)
            assert stored is not None and stored.pace == "turn-based"
            assert stored.due_at == pytest.approx(clock.now() + 8 * DAY)
            # a real-time table keeps its bounds and its default
            rt, _, _ = await lobby.create(
                "heroes", players=2, seats=None, turn_seconds=None, name="Ana", start=True
            )
            assert rt.summary()["pace"] == "real-time" and rt.row.turn_seconds == 60
            assert (await db.load_table(rt.id)).due_at is None  # type: ignore[union-attr]

    run(scenario)


def test_each_persons_turn_is_told_once_with_its_deadline(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            told = Told()
            lobby.services.turns = told
            table, _ = await two_people(lobby)
            first = table.to_move()
            assert [(t.seat, t.version) for t in told.turns] == [(first, 0)]
            assert told.turns[0].deadline == pytest.approx(clock.now() + DAY)
            assert told.turns[0].table_id == table.id and told.turns[0].game == "heroes"
            for _ in range(6):
                clock.t += 3600
                seat_before = table.to_move()
                count = len(told.turns)
                await move(table)
                if table.row.status != "playing":
                    break
                if table.to_move() == seat_before:  # the same turn goes on: nobody is told
                    assert len(told.turns) == count
                else:
                    last = told.turns[-1]
                    assert len(told.turns) == count + 1
                    assert (last.seat, last.version) == (table.to_move(), table.version)
                    assert last.deadline == pytest.approx(clock.now() + DAY)
            # a real-time table tells nobody
            count = len(told.turns)
            await lobby.create(
                "heroes", players=2, seats=None, turn_seconds=None, name="Ana", start=True
            )
            assert len(told.turns) == count

    run(scenario)


def test_after_three_timeouts_in_a_row_a_bot_takes_the_seat(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, table_level="random") as lobby:
            told = Told()
            lobby.services.turns = told
            table, tokens = await two_people(lobby, turn_seconds=12 * 3600)
            sleeper = table.to_move()
            assert sleeper is not None
            other = 1 - sleeper
            timeouts = 0
            while table.seats[sleeper].kind == "human":
                assert table.row.status == "playing"
                if table.to_move() == other:
                    await move(table)  # the other person plays in time
                    continue
                before = table.version
                await clock.advance(12 * 3600 - 1)
                assert table.version == before  # not a second early
                await clock.advance(1)
                await settle()
                assert table.version > before and table.log[-1].by == "table"
                if table.to_move() != sleeper:
                    timeouts += 1
                    if table.seats[sleeper].kind == "human":
                        assert table.seats[sleeper].timeouts == timeouts
            assert timeouts == 3
            taken = table.seats[sleeper]
            assert taken.bot_from is not None and taken.level == "random"
            assert table.summary()["seats"][sleeper]["bot"] is True
            # the person can no longer act for it; nobody is told of its turns
            with pytest.raises(Rejected):
                await table.submit(sleeper, "x", table.version)
            assert all(t.seat != sleeper or t.version < taken.bot_from for t in told.turns)
            # a move the person makes resets the count: the other seat is still theirs
            assert table.seats[other].kind == "human" and table.seats[other].timeouts == 0
            stored = await db.load_table(table.id)
            assert stored is not None and stored.seats[sleeper].bot_from == taken.bot_from
            record = MatchRecord.from_json(table.record().to_json())
            mine = record.players[sleeper]
            assert mine.bot and mine.bot_from == taken.bot_from
            assert not record.players[other].bot and record.players[other].bot_from is None
            assert tokens

    run(scenario)


def test_a_move_after_the_turns_time_draws_on_the_reserve(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table, _ = await two_people(lobby, turn_seconds=12 * 3600, reserve_seconds=DAY)
            seat = table.to_move()
            assert seat is not None
            assert table.summary()["deadline"] == pytest.approx(clock.now() + 36 * 3600)
            await clock.advance(20 * 3600)  # 8 hours into the reserve: no timeout
            assert table.version == 0
            while table.to_move() == seat:
                await move(table)
            assert table.seats[seat].reserve_used == pytest.approx(8 * 3600)
            assert table.seats[seat].timeouts == 0
            stored = await db.load_table(table.id)
            assert stored is not None
            assert stored.seats[seat].reserve_used == pytest.approx(8 * 3600)

    run(scenario)


# ------------------------------------------------------------------ sleeping and deadlines
async def fired(lobby: Lobby, clock: FakeClock, table_id: str, version: int) -> None:
    """Let the timers run until the stored table is past ``version`` and its turn passed on
    (the table plays every step of a turn that timed out)."""
    for _ in range(300):
        await clock.advance(0)
        stored = await lobby.storage.load_table(table_id)
        if stored is not None and stored.version > version and stored.turn_started_at == clock.t:
            return
        await asyncio.sleep(0.01)  # a bot chooses on a worker thread
    raise AssertionError(f"table {table_id} did not move past {version}")


def timed_out_turns(db: MemoryStorage, table_id: str) -> list[int]:
    """The seats whose turns the table played, one entry per turn (every step by the table)."""
    steps = db._tables[table_id].actions
    assert all(a.by == "table" for a in steps), steps
    return [a.seat for n, a in enumerate(steps) if n == 0 or steps[n - 1].seat != a.seat]


def test_a_table_waiting_for_a_person_sleeps_and_its_deadline_wakes_it(
    db: MemoryStorage,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, table_level="random") as lobby:
            table, _ = await two_people(lobby, turn_seconds=12 * 3600)
            table_id, deadline = table.id, table.deadline(table.to_move() or 0)
            assert table_id in lobby.residency.held
            await lobby.residency.sweep()  # nobody is connected: it leaves memory
            assert table_id not in lobby.residency.held
            # the listing, read from the database, still says its pace and deadline
            (listed,), _ = await lobby.residency.listing("playing")
            assert listed["id"] == table_id and listed["pace"] == "turn-based"
            assert listed["deadline"] == pytest.approx(deadline)
        # a restart reads the open and real-time tables, never the sleeping ones
        async with lobby_on(db, clock, table_level="random") as lobby:
            assert table_id not in lobby.residency.held
            loop = Deadlines(lobby.residency)
            clock.t = deadline - 0.01
            assert await loop.tick() == 0  # not due yet
            clock.t = deadline
            assert await loop.tick() == 1
            await fired(lobby, clock, table_id, 0)
            await loop.tick()  # a person is to move again, nobody connected: it sleeps again
            assert table_id not in lobby.residency.held and not loop.woken
            assert len(timed_out_turns(db, table_id)) == 1
            stored = await db.load_table(table_id)
            assert stored is not None and stored.due_at == pytest.approx(deadline + 12 * 3600)
            # someone opens it: it is read (and stays while they are there)
            opened = await lobby.residency.get(table_id)
            opened.listeners.add(object())  # type: ignore[arg-type]
            await lobby.residency.sweep()
            assert table_id in lobby.residency.held
            opened.listeners.clear()
            await lobby.residency.sweep()
            assert table_id not in lobby.residency.held

    run(scenario)


def test_two_processes_fire_one_deadline_once(db: MemoryStorage) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with (
            lobby_on(db, clock, table_level="random") as first,
            lobby_on(db, clock, table_level="random") as second,
        ):
            table, _ = await two_people(first, turn_seconds=12 * 3600)
            await first.residency.sweep()
            assert table.id not in first.residency.held
            clock.t = table.row.due_at or 0
            before = sum(FIRED_TWICE.values())
            # both think they hold the duty (alone, each process does) and read it at once
            assert await first_and_second(
                Deadlines(first.residency), Deadlines(second.residency)
            ) == (1, 1)
            await fired(first, clock, table.id, 0)
            await clock.advance(0)
            await settle()
            assert len(timed_out_turns(db, table.id)) == 1
            assert sum(FIRED_TWICE.values()) >= before + 1

    run(scenario)


async def first_and_second(a: Deadlines, b: Deadlines) -> tuple[int, int]:
    return await a.tick(), await b.tick()


def test_the_deadline_duty_passes_to_a_survivor_and_fires_what_came_due(
    db: MemoryStorage,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        hub = Hub(clock)
        async with (
            process_on(hub, "a", db, table_level="random") as a,
            process_on(hub, "b", db, table_level="random") as b,
        ):
            tables = [(await two_people(a, turn_seconds=3600 * (n + 4)))[0] for n in range(3)]
            await a.residency.sweep()
            assert not any(t.id in a.residency.held for t in tables)
            duty_a, duty_b = Deadlines(a.residency), Deadlines(b.residency)
            await duty_a.tick()
            await duty_b.tick()
            assert duty_a.on_duty and not duty_b.on_duty
            clock.t = (tables[0].row.due_at or 0) + 0.1
            assert await duty_a.tick() == 1
            await fired(a, clock, tables[0].id, 0)
            clock.t = (tables[1].row.due_at or 0) - 0.5
            assert await duty_a.tick() == 0 and await duty_b.tick() == 0  # a renews its duty
            hub.kill("a")  # with its duty; the duty lapses after duty_seconds
            clock.t += 0.6
            assert await duty_b.tick() == 0  # a's duty has not lapsed yet
            clock.t += b.services.settings.duty_seconds
            assert await duty_b.tick() == 1
            await fired(b, clock, tables[1].id, 0)
            clock.t = (tables[2].row.due_at or 0) + 0.1
            assert await duty_b.tick() == 1
            await fired(b, clock, tables[2].id, 0)
            for t in tables:
                assert len(timed_out_turns(db, t.id)) == 1

    run(scenario)


class Open:
    """A page holding the table open for a seat (a Listener, as a websocket is)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def wake(self) -> None:
        return None


def test_nobody_is_told_of_a_turn_while_their_page_holds_the_table_open(
    db: MemoryStorage,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            told = Told()
            lobby.services.turns = told
            table, _ = await two_people(lobby)
            first = table.to_move()
            assert first is not None
            other = 1 - first
            page = Open(other)
            table.audience.listeners.add(page)  # the other person is looking at the table
            count = len(told.turns)
            await move(table)
            while table.to_move() == first:
                await move(table)
            assert table.to_move() == other
            assert len(told.turns) == count, "their page shows the turn: no push, no mail"
            # a person at the table through another process is there too
            table.audience.listeners.discard(page)
            table.audience.elsewhere = {first}
            await move(table)
            while table.to_move() == other:
                await move(table)
            assert len(told.turns) == count
            # the page closed: the next turn is told, naming who moved and what they did
            table.audience.elsewhere = set()
            await move(table)
            while table.to_move() == first:
                await move(table)
            assert table.to_move() == other
            [turn] = told.turns[count:]
            assert turn.seat == other and turn.names == ("Ana", "Bruno")
            assert turn.mover == first and turn.by == "player" and turn.events

    run(scenario)


def test_the_news_of_a_turn_names_who_moved_what_and_the_opponents_not_the_table() -> None:
    placed = {"kind": "placed", "seat": 0, "role": "paladin", "room": 3}
    turn = TurnBegan(
        "Ud5AWxxk", "heroes", 1, 7, 1_800_000_000.0, ("Ana", "Bruno"), 0, "player", (placed,)
    )
    en = turn_message(turn, "en", "Europe/Lisbon")
    assert en.title == "Your turn: Heroes & Relics against Ana"
    assert en.body.startswith("Ana played: ") and "Paladin" in en.body
    assert "2027-01-15 08:00 (WET)" in en.body and "Ud5AWxxk" not in en.title + en.body
    de = turn_message(turn, "de", "Europe/Berlin")
    assert de.title.endswith("gegen Ana") and de.body.startswith("Ana hat gespielt: ")
    timed_out = turn_message(
        TurnBegan(
            "t", "heroes", 1, 7, 1_800_000_000.0, ("Ana", "Bruno", "Carla"), 0, "table", (placed,)
        ),
        "pt",
        "UTC",
    )
    assert timed_out.title.endswith("contra Ana e Carla")
    assert timed_out.body.startswith("O tempo de Ana acabou")
    first = TurnBegan("t", "heroes", 1, 0, 1_800_000_000.0, ("Ana", "Bruno"))
    dealt = turn_message(first, "en", "UTC")
    assert dealt.body.startswith("The match has begun")
