"""The lobby in process (SQLite file, an injected clock): open tables expire, finished tables
leave memory, and reading old tables does not keep them."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import insert, text

from kit.servers import server_settings
from ludoteca.core import Match, Player, commitment
from ludoteca.games import get
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected, Status
from ludoteca.server.storage import ActionRow, SeatRow, SqlStorage, TableRow, open_storage
from ludoteca.server.storage.schema import actions, seats, tables
from ludoteca.server.storage.statements import seat_values, table_values
from ludoteca.server.table.bot_runner import BotRunner
from ludoteca.server.table.services import Services


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[SqlStorage]:
    """The SQL store: some tests write rows behind the lobby's back, as a damaged database."""
    store = open_storage(f"sqlite:///{tmp_path / 'lobby.sqlite3'}")
    assert isinstance(store, SqlStorage)
    yield store
    asyncio.run(store.close())


def make_lobby(storage: SqlStorage, clock: Clock, **changes: object) -> Lobby:
    url = storage.engine.url.render_as_string(hide_password=False)
    settings = replace(server_settings(url), **changes)  # type: ignore[arg-type]
    return Lobby(Services(storage, BotRunner(processes=1), settings, clock))


async def open_table(lobby: Lobby, client: str = "") -> str:
    table, _, _ = await lobby.create(
        "heroes", players=None, seats=None, turn_seconds=None, name="A", start=False, client=client
    )
    return table.id


def test_open_tables_nobody_joins_expire_and_leave_the_lobby(storage: SqlStorage) -> None:
    clock = Clock()

    async def scenario() -> None:
        lobby = make_lobby(storage, clock, open_table_ttl=600.0)
        seen: list[str] = []

        class Watcher:
            def table_changed(self, table_id: str) -> None:
                seen.append(table_id)

        lobby.residency.watchers.add(Watcher())
        quiet = await open_table(lobby)
        two_free = [SeatRequest(), SeatRequest(), SeatRequest(bot=True)]
        busy, _, _ = await lobby.create(
            "dwarves", players=3, seats=two_free, turn_seconds=None, name=None, start=False
        )
        clock.now += 500
        await lobby.join(busy.id, "Bo", None)  # a join restarts the wait
        clock.now += 200
        assert await lobby.residency.sweep() == (1, 0)
        assert [t["id"] for t in (await lobby.residency.listing("open"))[0]] == [busy.id]
        assert seen[-1] == quiet and lobby.residency.open_summary(quiet) is None
        with pytest.raises(Rejected) as gone:
            await lobby.residency.peek(quiet)
        assert gone.value.code == "no_table"
        clock.now += 600
        assert await lobby.residency.sweep() == (1, 0)
        assert (await lobby.residency.listing("open")) == ([], 0)
        # after a restart neither comes back
        again = make_lobby(storage, clock)
        assert await again.residency.load() == 0

    asyncio.run(scenario())


def test_stale_open_tables_are_not_reloaded_at_start_up(storage: SqlStorage) -> None:
    clock = Clock()

    async def scenario() -> None:
        lobby = make_lobby(storage, clock, open_table_ttl=60.0)
        await open_table(lobby)
        clock.now += 61
        restarted = make_lobby(storage, clock, open_table_ttl=60.0)
        assert await restarted.residency.load() == 0
        assert restarted.residency.tables == {}

    asyncio.run(scenario())


def test_open_tables_per_client_are_capped(storage: SqlStorage) -> None:
    async def scenario() -> None:
        lobby = make_lobby(storage, Clock(), max_open_tables_per_client=2)
        for _ in range(2):
            await open_table(lobby, "10.0.0.1")
        with pytest.raises(Rejected) as refused:
            await open_table(lobby, "10.0.0.1")
        assert refused.value.code == "too_many_tables"
        await open_table(lobby, "10.0.0.2")
        assert (await lobby.residency.listing("open"))[1] == 3

    asyncio.run(scenario())


def test_live_tables_are_capped_and_finished_ones_do_not_count(storage: SqlStorage) -> None:
    async def scenario() -> None:
        lobby = make_lobby(storage, Clock(), max_live_tables=2)
        first = await open_table(lobby)
        await open_table(lobby)
        with pytest.raises(Rejected) as refused:
            await open_table(lobby)
        assert refused.value.code == "server_busy"
        lobby.residency.tables[
            first
        ].row.status = Status.OVER  # finished, still in memory until swept
        await open_table(lobby)
        with pytest.raises(Rejected) as again:
            await open_table(lobby)
        assert again.value.code == "server_busy"

    asyncio.run(scenario())


def finished_match(game_id: str = "heroes") -> tuple[Match, list[ActionRow]]:
    """A whole match played by the first legal action each turn."""
    game = get(game_id)
    players = [Player("A"), Player("B")]
    match = Match(game, game.spec.params({"players": 2}), "ab" * 32, players)
    steps = []
    while not game.is_over(match.state):
        seat = game.to_move(match.state)
        assert seat is not None
        text = game.legal_texts(match.state)[0]
        match.act(seat, text)
        steps.append(ActionRow(len(steps) + 1, seat, text, "bot", 1.0))
    return match, steps


def store_finished(storage: SqlStorage, count: int) -> list[str]:
    """``count`` finished tables in storage, each the same whole match (one transaction)."""
    match, steps = finished_match()
    outcome = match.game.outcome(match.state)
    assert outcome is not None
    ids = [f"done{n:05d}" for n in range(count)]
    rows = [
        TableRow(
            id=table_id,
            game="heroes",
            params={"players": 2},
            seed="ab" * 32,
            commitment=commitment("ab" * 32),
            status=Status.OVER,
            turn_seconds=60,
            created_at=float(n),
            started_at=float(n),
            version=len(steps),
            outcome=outcome.to_json(),
            format=1,  # the stored seed is the match seed: every table deals the same match
        )
        for n, table_id in enumerate(ids)
    ]
    seat_rows = [SeatRow(0, "bot", "A", "random"), SeatRow(1, "bot", "B", "random")]
    with storage.engine.begin() as conn:
        conn.execute(insert(tables), [table_values(r) for r in rows])
        conn.execute(insert(seats), [seat_values(t, s) for t in ids for s in seat_rows])
        conn.execute(
            insert(actions),
            [
                {
                    "table_id": t,
                    "seq": a.seq,
                    "seat": a.seat,
                    "action": a.action,
                    "by": a.by,
                    "at": a.at,
                }
                for t in ids
                for a in steps
            ],
        )
    return ids


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


@pytest.mark.slow
def test_reading_finished_tables_keeps_none_of_them_and_memory_flat(storage: SqlStorage) -> None:
    """Summaries and records of 1,000 finished tables are read from storage: none stays in
    memory (each used to stay, about 0.135 MB apiece), and the process grows by less than a
    tenth of what keeping them would take."""
    ids = store_finished(storage, 1000)

    async def scenario() -> None:
        lobby = make_lobby(storage, Clock())

        async def read(n: int, table_id: str) -> None:
            summary = (await lobby.residency.peek(table_id)).summary()
            assert summary["status"] == "over" and summary["seed"] == "ab" * 32
            assert summary["version"] > 0
            if n % 10 == 0:
                record = await lobby.record(table_id)
                assert record.seed == "ab" * 32 and record.outcome is not None

        for n, table_id in enumerate(ids[:100]):
            await read(n, table_id)
        gc.collect()
        before = rss_mb()
        for n, table_id in enumerate(ids[100:]):
            await read(n, table_id)
        gc.collect()
        grown = rss_mb() - before
        assert grown < 12, f"900 more finished tables kept {grown:.1f} MB"
        assert lobby.residency.tables == {}
        page, total = await lobby.residency.listing("over", offset=10, limit=5)
        assert total == 1000 and [t["id"] for t in page] == [
            f"done{n:05d}" for n in range(989, 984, -1)
        ]

    asyncio.run(scenario())


def test_watched_finished_tables_leave_memory_after_the_grace(storage: SqlStorage) -> None:
    ids = store_finished(storage, 30)
    clock = Clock()

    async def scenario() -> None:
        lobby = make_lobby(storage, clock, finished_grace=60.0, max_finished_tables=10)
        for table_id in ids:
            await lobby.residency.get(table_id)  # what a spectator's websocket does
        watched = lobby.residency.tables[ids[0]]
        watched.listeners.add(object())  # type: ignore[arg-type]
        assert len(lobby.residency.tables) == 30
        assert await lobby.residency.sweep() == (
            0,
            20,
        )  # beyond the bound: the oldest leave at once
        assert len(lobby.residency.tables) == 10 and ids[0] in lobby.residency.tables
        clock.now += 59
        assert await lobby.residency.sweep() == (0, 0)
        clock.now += 1
        assert await lobby.residency.sweep() == (0, 9)  # after the grace: all but the watched one
        assert list(lobby.residency.tables) == [ids[0]]
        watched.listeners.clear()
        assert await lobby.residency.sweep() == (0, 1)
        assert lobby.residency.tables == {}

    asyncio.run(scenario())


def test_a_match_that_does_not_replay_breaks_only_its_table(storage: SqlStorage) -> None:
    ids = store_finished(storage, 2)
    clock = Clock()
    with storage.engine.begin() as conn:
        conn.execute(text("UPDATE tables SET status = 'playing', outcome = NULL"))
        conn.execute(
            text("UPDATE actions SET action = 'fly' WHERE table_id = :t AND seq = 3"), {"t": ids[0]}
        )
        conn.execute(text("DELETE FROM actions WHERE table_id = :t AND seq > 4"), {"t": ids[1]})
        conn.execute(text("UPDATE tables SET version = 4 WHERE id = :t"), {"t": ids[1]})

    async def scenario() -> None:
        lobby = make_lobby(storage, clock)
        assert await lobby.residency.load() == 1
        assert (
            list(lobby.residency.broken) == [ids[0]]
            and "stored step 3" in lobby.residency.broken[ids[0]]
        )
        assert lobby.residency.tables[ids[1]].version == 4
        for read in (lobby.residency.get, lobby.residency.peek, lobby.record):
            with pytest.raises(Rejected) as refused:
                await read(ids[0])
            assert refused.value.code == "table_broken"
        lobby.residency.shutdown()

    asyncio.run(scenario())
