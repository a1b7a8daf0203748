"""Resigning at a table of 3 or more, in process: a bot of the table's level takes the person's
seat from the next step (marked ``bot_from``, stored, kept over a restart, the record verifies),
every bad request is refused and changes nothing, and a rated seat a bot took over is placed
last. (At 2 players a resign ends the match: ``test_resign_ends``.)"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from kit.tables import FakeClock, commit_then_reveal, lobby_on, seated
from ludoteca.core import verify
from ludoteca.games import get
from ludoteca.server.accounts.play import _compute
from ludoteca.server.accounts.ratings import Rating
from ludoteca.server.accounts.rows import SeatRating
from ludoteca.server.lobby.lobby import SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.storage import ConflictError, SeatRow, TableRow
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.resign import resign


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def test_a_resigned_seat_is_played_by_a_bot_to_the_end() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, bot_delay=0.5) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest(bot=True, level="random")]
            table, _, _ = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=600, name="Ana", start=False
            )
            with pytest.raises(Rejected) as early:
                await resign(table, 0)
            assert early.value.code == "not_started"
            await lobby.join(table.id, "Bruno", None)
            await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
            assert table.row.status == "playing"
            watcher = await seated(table)
            version = table.version
            await resign(table, 1)
            bruno = table.seats[1]
            assert (bruno.kind, bruno.level, bruno.bot_from) == ("bot", "medium", version)
            assert bruno.name == "Bruno", "the seat keeps the person's name, marked as a bot's"
            stored = await db.load_table(table.id)
            assert stored is not None and stored.seats[1].bot_from == version
            assert stored.seats[1].commitment is not None, "the seed's commitment is kept"
            with pytest.raises(Rejected) as twice:
                await resign(table, 1)
            assert twice.value.code == "not_your_turn"
            assert table.version == version, "resigning is no step"
            with pytest.raises(Rejected) as same_move:
                await resign(table, 0)  # a second takeover at one version: after the next step
            assert same_move.value.code == "resign_later"
            assert table.seats[0].kind == "human" and table.version == version
            match = table.match
            assert match is not None
            if match.to_move == 0:  # Ana moves; otherwise a bot does, after its delay
                await table.submit(0, match.legal(0)[0], version)
            else:
                await clock.advance(0.5)
            await watcher.until(lambda: table.version > version)
            ana_from = table.version
            await resign(table, 0)  # Ana too: bots play the match to its end
            for _ in range(3000):
                if table.row.status == "over":
                    break
                moved = table.version
                await clock.advance(0.5)
                await watcher.until(lambda v=moved: table.version > v or table.row.status == "over")
            assert table.row.status == "over"
            # every step after Ana's own last one (the log's entry k is the step to version k)
            assert {e.by for e in table.log[ana_from + 1 :]} == {"bot"}
            record = table.record().to_json()
            assert [p.get("bot_from") for p in record["players"]] == [ana_from, version, None]
            assert verify(record, get).ok, "the chain's header holds the seats as dealt"
            with pytest.raises(Rejected) as over:
                await resign(table, 0)
            assert over.value.code == "match_over"
        async with lobby_on(db, clock) as again:  # a restart reads the takeover back
            table = await again.residency.peek(table.id)
            assert [s.kind for s in table.seats] == ["bot", "bot", "bot"]

    run(scenario)


def test_a_stale_resign_changes_nothing() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            seats = [SeatRequest(), SeatRequest()]
            table, _, _ = await lobby.create(
                "heroes", players=2, seats=seats, turn_seconds=60, name="Ana", start=False
            )
            await lobby.join(table.id, "Bruno", None)
            await commit_then_reveal(table, {0: "a", 1: "b"})
            # another process stored a takeover at a version this table no longer is at
            with pytest.raises(ConflictError):
                await db.take_over(table.id, 0, "medium", table.version + 3)
            with pytest.raises(ConflictError):
                await db.take_over(table.id, 5, "medium", table.version)
            assert [s.kind for s in table.seats] == ["human", "human"]
            stored = await db.load_table(table.id)
            assert stored is not None and [s.kind for s in stored.seats] == ["human", "human"]

    run(scenario)


def test_a_rated_seat_a_bot_took_over_is_placed_last() -> None:
    seats = [
        SeatRow(0, "bot", "Ana", "medium", token_hash="a", bot_from=7),
        SeatRow(1, "human", "Bruno", token_hash="b"),
    ]
    # Ana resigned, then the bot at her seat won: for the ratings, Bruno won
    row = TableRow("t", "heroes", {"players": 2}, "s", "c", "over", 60, 1.0, seats=seats)
    row.outcome = {"winners": [0], "draw": False}
    people = [SeatRating("ana", 0, Rating(), 1), SeatRating("bruno", 1, Rating(), 1)]
    moved = _compute(row)(people)
    assert [(s.account_id, place) for s, _, place in moved] == [("ana", 3), ("bruno", 2)]
    ana, bruno = (after for _, after, _ in moved)
    assert ana.mu < 25 < bruno.mu


def test_the_sql_store_takes_a_seat_over_only_at_the_version_it_was_asked(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'resign.db'}"

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(url, clock) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest(bot=True, level="random")]
            table, _, _ = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=60, name="Ana", start=False
            )
            await lobby.join(table.id, "Bruno", None)
            await commit_then_reveal(table, {0: "a", 1: "b"})
            storage = table.services.storage
            with pytest.raises(ConflictError):
                await storage.take_over(table.id, 0, "medium", table.version + 1)
            await resign(table, 0)
            stored = await storage.load_table(table.id)
            assert stored is not None
            assert [(s.kind, s.bot_from) for s in stored.seats][:2] == [("bot", 0), ("human", None)]
            assert stored.seats[0].commitment is not None and stored.seats[0].token_hash
        async with lobby_on(url, clock) as again:  # a restart deals and replays it the same
            table = await again.residency.peek(table.id)
            assert table.match is not None and table.seats[0].bot_from == 0

    run(scenario)
