"""Seeks in process, on a fake clock (``lobby/seeks.py``): a seek is an open table its poster
sits at, listed with what everyone sees of it; taking it seats you and the last seat starts the
match; the last seat taken at once by two people (at two processes) goes to one; the rules
(rated needs an account, limits per person, one's own seek from a second account of the same
browser, blocked pairs, suspended accounts) refuse with a clear code and change nothing; a seek
whose poster is not connected for the grace, or who left the seat, ends with its table; the
counts of people looking reach the lobby pages. On the in-memory store and on SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit.tables import FakeClock, Hub, lobby_on, process_on
from ludoteca.games import register, unregister
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.pairing import Pairing
from ludoteca.server.lobby.seeks import GRACE_SECONDS, MAX_EACH, Seeker, Seeks, seek_key
from ludoteca.server.messages import Rejected
from ludoteca.server.storage import Storage
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.storage.pairings import POSTED
from toygame import GAME

TOY = GAME.spec.id


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(GAME)
    try:
        yield
    finally:
        unregister(TOY)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Storage | str:
    return MemoryStorage() if request.param == "memory" else f"sqlite:///{tmp_path}/s.db"


class Rules:
    """What the accounts and the social part answer, as the test sets it."""

    def __init__(self) -> None:
        self.blocked: set[frozenset[str]] = set()
        self.suspended: set[str] = set()
        self.rated: list[str] = []

    async def apart(self, accounts: list[str]) -> frozenset[frozenset[str]]:
        return frozenset(p for p in self.blocked if p <= set(accounts))

    async def may(self, account: str) -> bool:
        return account not in self.suspended

    async def mark(self, table_id: str, game: str) -> None:
        self.rated.append(table_id)


def seeks_of(lobby: Lobby, rules: Rules) -> Seeks:
    return Seeks(
        lobby,
        Pairing(lobby),
        kept_apart=rules.apart,
        may_post=rules.may,
        mark_rated=rules.mark,
        online=lambda: 7,
    )


def ana(**changes: Any) -> Seeker:
    return Seeker(**({"name": "Ana", "device": "da"} | changes))


def bruno(**changes: Any) -> Seeker:
    return Seeker(**({"name": "Bruno", "device": "db"} | changes))


class Page:
    """A lobby page following the counts."""

    def __init__(self) -> None:
        self.told = 0

    def counts_changed(self) -> None:
        self.told += 1


def test_a_seek_is_listed_with_its_poster_and_one_take_starts_the_match(
    store: Storage | str,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            rules = Rules()
            seeks = seeks_of(lobby, rules)
            page = Page()
            seeks.watchers.add(page)
            mine = ana(account="acc-a", rating=1612.4)
            table, seat, token = await seeks.post(
                TOY, players=2, pace="real-time", turn_seconds=30, rated=True, seeker=mine
            )
            assert seat == 0 and table.seat_for_token(token) == 0
            assert rules.rated == [table.id]
            listed = seeks.decorate(table.summary())
            assert listed["seek"] == {
                "rated": True,
                "by": "Ana",
                "rating": 1612,
                "since": clock.now(),
            }
            assert listed["turn_seconds"] == 30 and listed["pace"] == "real-time"
            assert (await seeks.looking())["games"] == {TOY: 1}
            assert seeks.counts()["games"] == {TOY: 1} and page.told == 1
            assert seeks.counts()["online"] == 7
            await clock.advance(4.0)
            seat_b, token_b = await seeks.take(table.id, bruno(account="acc-b", rating=1500.0))
            assert seat_b == 1 and table.seat_for_token(token_b) == 1
            assert table.row.status in {"starting", "playing"}
            assert [s.name for s in table.seats] == ["Ana", "Bruno"]
            stored = await lobby.storage.load_search(seek_key(table.id))
            assert stored is not None and stored.state == "seated"
            assert seeks.decorate(table.summary())["seek"] is None
            assert (await seeks.looking())["games"] == {}
            with pytest.raises(Rejected) as again:
                await seeks.take(table.id, Seeker("Carla", device="dc"))
            assert again.value.code == "seek_taken"

    asyncio.run(scenario())


def test_the_last_seat_taken_at_two_processes_at_once_goes_to_one() -> None:
    async def scenario() -> None:
        hub, store = Hub(FakeClock()), MemoryStorage()
        async with process_on(hub, "one", store) as one, process_on(hub, "two", store) as two:
            rules = Rules()
            here, there = seeks_of(one, rules), seeks_of(two, rules)
            table, _, _ = await here.post(
                "dwarves",
                players=3,
                pace="real-time",
                turn_seconds=None,
                rated=False,
                seeker=ana(),
            )
            await there.tick()
            assert there.seek_of(table.id) is not None  # every process reads the seeks
            await there.take(table.id, bruno())
            takes = await asyncio.gather(
                here.take(table.id, Seeker("Carla", device="dc")),
                there.take(table.id, Seeker("Dora", device="dd")),
                return_exceptions=True,
            )
            won = [t for t in takes if not isinstance(t, BaseException)]
            lost = [t for t in takes if isinstance(t, Rejected)]
            assert len(won) == 1 and len(lost) == 1 and lost[0].code == "seek_taken"
            stored = await store.load_table(table.id)
            assert stored is not None and stored.status != "open"
            names = [s.name for s in stored.seats]
            assert names[:2] == ["Ana", "Bruno"] and names[2] in {"Carla", "Dora"}
            row = await store.load_search(seek_key(table.id))
            assert row is not None and row.state == "seated" and row.size == 2

    asyncio.run(scenario())


def test_bad_posts_and_takes_are_refused_and_change_nothing(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            rules = Rules()
            seeks = seeks_of(lobby, rules)
            rules.suspended.add("acc-s")
            bad: list[tuple[dict[str, Any], str]] = [
                ({"game_id": "nope"}, "no_game"),
                ({"players": 3}, "bad_request"),
                ({"players": 1}, "bad_request"),
                ({"pace": "slow"}, "bad_request"),
                ({"rated": True}, "not_signed_in"),
                ({"seeker": ana(account="acc-s")}, "suspended"),
            ]
            for changes, code in bad:
                asked: dict[str, Any] = {
                    "game_id": TOY,
                    "players": 2,
                    "pace": "real-time",
                    "turn_seconds": None,
                    "rated": False,
                    "seeker": ana(),
                } | changes
                with pytest.raises(Rejected) as refused:
                    await seeks.post(**asked)
                assert refused.value.code == code, changes
            assert await lobby.storage.waiting_searches(state=POSTED) == []
            assert await lobby.storage.count_tables(statuses=["open"]) == 0

            async def post(who: Seeker, rated: bool = False) -> str:
                table, _, _ = await seeks.post(
                    TOY, players=2, pace="turn-based", turn_seconds=None, rated=rated, seeker=who
                )
                return table.id

            mine = [await post(ana()) for _ in range(MAX_EACH)]
            with pytest.raises(Rejected) as too_many:
                await post(ana(device="another-browser"))  # not this browser: allowed
                await post(ana())
            assert too_many.value.code == "too_many_seeks"
            for _ in range(MAX_EACH):
                await post(bruno(device=None, account="acc-b", name="B"))
            with pytest.raises(Rejected) as by_account:
                await post(bruno(device="db2", account="acc-b"))
            assert by_account.value.code == "too_many_seeks"
            posted = len(await lobby.storage.waiting_searches(state=POSTED))

            rated = await post(ana(device="dr", account="acc-r"), rated=True)
            rules.blocked.add(frozenset({"acc-b", "acc-a"}))
            blocked = await post(ana(device="dx", account="acc-a"))
            refusals = [
                (mine[0], ana(account="acc-2"), "own_seek"),  # the same browser, another account
                (rated, Seeker("Guest", device="dg"), "not_signed_in"),
                (blocked, bruno(account="acc-b"), "blocked"),
                (mine[0], Seeker("S", device="ds", account="acc-s"), "suspended"),
                ("nothere", bruno(), "no_seek"),
            ]
            for table_id, who, code in refusals:
                with pytest.raises(Rejected) as refused:
                    await seeks.take(table_id, who)
                assert refused.value.code == code
            for table_id in (mine[0], rated, blocked):
                table = await lobby.residency.peek(table_id)
                assert [s.kind for s in table.seats] == ["human", "open"]
            assert len(await lobby.storage.waiting_searches(state=POSTED)) == posted + 2
            assert seeks.hidden(blocked, frozenset({"acc-a"}))
            assert not seeks.hidden(mine[0], frozenset({"acc-a"}))

    asyncio.run(scenario())


class Seat:
    """A seat's connection to this process."""

    def __init__(self, seat: int) -> None:
        self.seat = seat

    def wake(self) -> None:
        pass


def test_a_seek_lives_while_its_poster_is_connected_and_ends_with_its_table(
    store: Storage | str,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            seeks = seeks_of(lobby, Rules())
            kept, _, _ = await seeks.post(
                TOY, players=2, pace="real-time", turn_seconds=None, rated=False, seeker=ana()
            )
            gone, _, _ = await seeks.post(
                TOY, players=2, pace="real-time", turn_seconds=None, rated=False, seeker=bruno()
            )
            left, _, left_token = await seeks.post(
                TOY,
                players=2,
                pace="real-time",
                turn_seconds=None,
                rated=False,
                seeker=Seeker("Carla", device="dc"),
            )
            kept.listeners.add(Seat(0))
            await lobby.leave(left.id, left_token)  # the poster left the seat: the seek ends
            await seeks.tick()
            assert seeks.seek_of(left.id) is None and left.row.status == "expired"
            for _ in range(int(GRACE_SECONDS) + 2):
                await clock.advance(1.0)
                await seeks.tick()
            assert seeks.seek_of(kept.id) is not None and kept.row.status == "open"
            assert seeks.seek_of(gone.id) is None
            row = await lobby.storage.load_search(seek_key(gone.id))
            assert row is not None and row.state == "expired"
            assert (await lobby.storage.load_table(gone.id)).status == "expired"  # type: ignore[union-attr]
            kept.listeners.clear()  # the poster closed the page
            for _ in range(int(GRACE_SECONDS) + 2):
                await clock.advance(1.0)
                await seeks.tick()
            assert seeks.seek_of(kept.id) is None and kept.row.status == "expired"

    asyncio.run(scenario())


def test_the_poster_withdraws_with_the_seat_token(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            seeks = seeks_of(lobby, Rules())
            table, _, token = await seeks.post(
                TOY, players=2, pace="real-time", turn_seconds=None, rated=False, seeker=ana()
            )
            with pytest.raises(Rejected) as refused:
                await seeks.cancel(table.id, "not-the-token")
            assert refused.value.code == "bad_token" and seeks.seek_of(table.id) is not None
            await seeks.cancel(table.id, token)
            assert seeks.seek_of(table.id) is None and table.row.status == "expired"
            row = await lobby.storage.load_search(seek_key(table.id))
            assert row is not None and row.state == "cancelled"
            with pytest.raises(Rejected) as taken:
                await seeks.take(table.id, bruno())
            assert taken.value.code == "seek_taken"

    asyncio.run(scenario())
