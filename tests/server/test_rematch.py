"""Rematches, in process: an offer's states (offered, accepted, declined, lapsed), the new
table (same game and options, seats rotated, bots where bots sat, each person's token), every
bad request refused with nothing changed, and the races — double taps, two last answers at two
processes at once, an offer and a decline together — that leave one new table only. On the
in-memory store and on SQLite (two lobbies on one file are two processes)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from kit.tables import FakeClock, commit_then_reveal, lobby_on, seated, settle
from ludoteca.games import register, unregister
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.lobby.rematch import REMATCH_SECONDS, Rematches, rematch_token
from ludoteca.server.messages import Rejected
from ludoteca.server.storage import Storage
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.resign import hand_over, resign
from ludoteca.server.table.table import Table
from toygame import GAME

GAME_ID = GAME.spec.id


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(GAME)
    try:
        yield
    finally:
        unregister(GAME_ID)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Storage | str:
    return MemoryStorage() if request.param == "memory" else f"sqlite:///{tmp_path}/r.db"


async def finished(lobby: Lobby, clock: FakeClock, *, bot: bool = False) -> tuple[Table, list[str]]:
    """A High Card match played to its end: Ana and Bruno (or Ana and a random bot), each
    standing on every turn; the table and the people's tokens."""
    seats = [SeatRequest(), SeatRequest(bot=True, level="random") if bot else SeatRequest()]
    table, _, ana = await lobby.create(
        GAME_ID, players=2, seats=seats, turn_seconds=60, name="Ana", start=bot
    )
    assert ana is not None
    tokens = [ana]
    if not bot:
        tokens.append((await lobby.join(table.id, "Bruno", None))[1])
    await commit_then_reveal(table, {0: "ana-seed"} if bot else {0: "ana", 1: "bruno"})
    watcher = await seated(table)
    while table.row.status != "over":
        seat = table.to_move()
        if seat is not None and table.seats[seat].kind == "human":
            await table.submit(seat, "stand", table.version)
        else:
            moved = table.version
            await clock.advance(1.0)  # the bot's timer
            await watcher.until(lambda v=moved: table.version > v or table.row.status == "over")
    return table, tokens


@asynccontextmanager
async def two(store: Storage | str, clock: FakeClock) -> AsyncIterator[tuple[Lobby, Lobby]]:
    """Two lobbies on one store, as two server processes are."""
    async with lobby_on(store, clock, bot_delay=0.0) as one, lobby_on(store, clock) as other:
        yield one, other


def test_an_offer_accepted_by_everyone_makes_one_table_seats_rotated(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            table, (ana, bruno) = await finished(lobby, clock)
            offers = Rematches(lobby)
            watcher = await seated(table)
            offered = await offers.want(table.id, ana, rated=False)
            row = offered.row
            assert (row.state, row.answers, row.offered_by) == ("offered", ["yes", None], 0)
            assert offered.seat == 1 and offered.token == rematch_token(ana, row.new_table)
            assert watcher.changes == 1, "everyone at the table is told at once"
            shown = table.message_for(1, 0)["rematch"]
            assert shown["state"] == "offered" and shown["by"] == 0
            assert shown["seats"] == [1, 0] and shown["expires_in"] == REMATCH_SECONDS
            assert await lobby.storage.load_table(row.new_table) is None, "not before everyone"
            again = await offers.want(table.id, ana, rated=False)  # a double tap
            assert again.token == offered.token and again.row.version == row.version
            accepted = await offers.want(table.id, bruno, rated=False)
            assert accepted.row.state == "accepted" and accepted.created
            assert accepted.seat == 0 and accepted.row.new_table == row.new_table
            new = await lobby.residency.get(row.new_table)
            assert new.row.status == "starting", "dealt once the people's seeds are in"
            assert [s.name for s in new.seats] == ["Bruno", "Ana"]
            assert new.seat_for_token(accepted.token) == 0
            assert new.seat_for_token(offered.token) == 1
            assert new.seat_for_token(ana) is None, "the old token holds no seat there"
            assert (new.row.game, new.row.params, new.row.turn_seconds, new.row.pace) == (
                table.row.game,
                table.row.params,
                table.row.turn_seconds,
                table.row.pace,
            )
            assert new.row.commitment != table.row.commitment, "a fresh secret"
            late = await offers.want(table.id, bruno, rated=False)  # tapped once more
            assert late.token == accepted.token and not late.created
            assert table.message_for(None, 0)["rematch"]["state"] == "accepted"
            assert await offers.state(table.id) == table.message_for(0, 0)["rematch"]

    asyncio.run(scenario())


def test_bots_sit_where_bots_sat_and_a_lone_person_starts_at_once(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock, bot_delay=0.0) as lobby:
            table, (ana,) = await finished(lobby, clock, bot=True)
            done = await Rematches(lobby).want(table.id, ana, rated=False)
            assert done.row.state == "accepted" and done.row.answers == ["yes", "bot"]
            new = await lobby.residency.get(done.row.new_table)
            bot = new.seats[0]
            assert (bot.kind, bot.level, bot.name) == ("bot", "random", "Bot 1 (random)")
            assert new.seats[1].name == "Ana" and new.seat_for_token(done.token) == 1

    asyncio.run(scenario())


def test_a_decline_a_leave_or_the_time_lapses_the_offer(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            table, (ana, bruno) = await finished(lobby, clock)
            offers = Rematches(lobby)
            first = await offers.want(table.id, ana, rated=False)
            await offers.decline(table.id, bruno)
            row = await lobby.storage.load_rematch(table.id)
            assert row is not None and (row.state, row.answers) == ("declined", ["yes", "no"])
            assert table.message_for(0, 0)["rematch"]["reason"] == "declined"
            with pytest.raises(Rejected) as twice:
                await offers.decline(table.id, bruno)
            assert twice.value.code == "no_rematch"
            # asked again, it is a new offer, to a new table
            second = await offers.want(table.id, bruno, rated=False)
            assert second.row.state == "offered" and second.row.offered_by == 1
            assert second.row.new_table != first.row.new_table
            await offers.decline(table.id, ana, reason="left")
            assert (await offers.state(table.id) or {})["reason"] == "left"
            third = await offers.want(table.id, ana, rated=False)
            await clock.advance(REMATCH_SECONDS)
            shown = await offers.state(table.id)
            assert shown is not None and (shown["state"], shown["reason"]) == ("lapsed", "time")
            with pytest.raises(Rejected) as late:
                await offers.decline(table.id, bruno)
            assert late.value.code == "no_rematch"
            fourth = await offers.want(table.id, bruno, rated=False)  # a lapsed offer: anew
            assert fourth.row.state == "offered" and fourth.row.new_table != third.row.new_table
            for gone in (first, second, third):
                assert await lobby.storage.load_table(gone.row.new_table) is None

    asyncio.run(scenario())


def test_bad_requests_are_refused_and_change_nothing(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            offers = Rematches(lobby)
            seats = [SeatRequest(), SeatRequest()]
            playing, _, ana = await lobby.create(
                GAME_ID, players=2, seats=seats, turn_seconds=60, name="Ana", start=False
            )
            with pytest.raises(Rejected) as early:
                await offers.want(playing.id, ana, rated=False)
            assert early.value.code == "not_over"
            table, (ana, _) = await finished(lobby, clock)
            for token in (None, "nobody", rematch_token(ana, "x")):
                with pytest.raises(Rejected) as bad:
                    await offers.want(table.id, token, rated=False)
                assert bad.value.code == "bad_token"
            with pytest.raises(Rejected) as none:
                await offers.decline(table.id, ana)
            assert none.value.code == "no_rematch"
            with pytest.raises(Rejected) as missing:
                await offers.want("no-such-table", ana, rated=False)
            assert missing.value.code == "no_table"
            assert await lobby.storage.load_rematch(table.id) is None
            assert await lobby.storage.load_rematch(playing.id) is None
            assert table.message_for(0, 0)["rematch"] is None

    asyncio.run(scenario())


def test_races_at_two_processes_make_one_table(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with two(store, clock) as (one, other):
            for _ in range(3):
                table, (ana, bruno) = await finished(one, clock)
                here, there = Rematches(one), Rematches(other)
                # both offer at once, each at its own process, each twice (double taps)
                answers = await asyncio.gather(
                    here.want(table.id, ana, rated=False),
                    there.want(table.id, bruno, rated=False),
                    here.want(table.id, ana, rated=False),
                    there.want(table.id, bruno, rated=False),
                )
                await settle()
                new_tables = {a.row.new_table for a in answers if a.row.state == "accepted"}
                assert len(new_tables) == 1, answers
                (new_id,) = new_tables
                assert sum(a.created for a in answers) == 1, "one answer created it"
                assert {a.token for a in answers} == {
                    rematch_token(ana, new_id),
                    rematch_token(bruno, new_id),
                }
                new = await one.residency.get(new_id)
                assert new.seat_for_token(rematch_token(ana, new_id)) == 1
                assert new.seat_for_token(rematch_token(bruno, new_id)) == 0
                row = await one.storage.load_rematch(table.id)
                assert row is not None and row.state == "accepted"

    asyncio.run(scenario())


def test_an_accept_and_a_decline_together_leave_one_answer(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with two(store, clock) as (one, other):
            table, (ana, bruno) = await finished(one, clock)
            await Rematches(one).want(table.id, ana, rated=False)
            results = await asyncio.gather(
                Rematches(other).want(table.id, bruno, rated=False),
                Rematches(one).decline(table.id, bruno),
                return_exceptions=True,
            )
            row = await one.storage.load_rematch(table.id)
            assert row is not None
            made = await one.storage.load_table(row.new_table)
            if row.state == "accepted":  # the accept came first: the decline found none live
                assert isinstance(results[1], Rejected) and results[1].code == "no_rematch"
                assert made is not None
            else:  # the decline came first: the accept found none live and offered anew
                assert results[1] is None and made is None
                assert (row.state, row.offered_by, row.answers) == ("offered", 1, [None, "yes"])

    asyncio.run(scenario())


def test_a_person_who_resigned_is_asked_and_sits_again_as_a_person(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock, bot_delay=0.0) as lobby:
            seats = [SeatRequest(), SeatRequest()]
            table, _, ana = await lobby.create(
                GAME_ID, players=2, seats=seats, turn_seconds=60, name="Ana", start=False
            )
            assert ana is not None
            _, bruno = await lobby.join(table.id, "Bruno", None)
            await commit_then_reveal(table, {0: "ana", 1: "bruno"})
            await hand_over(table, 1)  # as a resign at 3 seats: a bot plays Bruno's seat
            watcher = await seated(table)
            while table.row.status != "over":
                if table.to_move() == 0:
                    await table.submit(0, "stand", table.version)
                else:
                    moved = table.version
                    await clock.advance(1.0)
                    await watcher.until(lambda v=moved: table.version > v or table.status == "over")
            assert table.seats[1].kind == "bot" and table.seats[1].bot_from is not None
            offers = Rematches(lobby)
            offered = await offers.want(table.id, ana, rated=False)
            assert offered.row.answers == ["yes", None], "Bruno is asked: a person sat there"
            done = await offers.want(table.id, bruno, rated=False)
            new = await lobby.residency.get(done.row.new_table)
            assert [(s.kind, s.name) for s in new.seats] == [("human", "Bruno"), ("human", "Ana")]
            assert new.seats[0].bot_from is None

    asyncio.run(scenario())


def test_a_person_who_resigned_a_two_seat_match_is_asked_again(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock, bot_delay=0.0) as lobby:
            seats = [SeatRequest(), SeatRequest()]
            table, _, ana = await lobby.create(
                GAME_ID, players=2, seats=seats, turn_seconds=60, name="Ana", start=False
            )
            assert ana is not None
            _, bruno = await lobby.join(table.id, "Bruno", None)
            await commit_then_reveal(table, {0: "ana", 1: "bruno"})
            await resign(table, 1)  # at two seats the match ends: Ana wins
            assert table.row.status == "over" and table.seats[1].kind == "human"
            assert table.row.outcome is not None and table.row.outcome["winners"] == [0]
            offers = Rematches(lobby)
            offered = await offers.want(table.id, bruno, rated=False)
            assert offered.row.answers == [None, "yes"], "the one who resigned may ask"
            done = await offers.want(table.id, ana, rated=False)
            new = await lobby.residency.get(done.row.new_table)
            assert [(s.kind, s.name) for s in new.seats] == [("human", "Bruno"), ("human", "Ana")]

    asyncio.run(scenario())
