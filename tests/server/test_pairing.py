"""The pairing pool in process, on a fake clock: the rules (``pool``: counts, devices, accounts,
the rating window widening as a search waits, bots after a wait) and the service (``Pairing``:
searches seated together at one started table with the tokens they were given, cancel, the
stale search dropped, the earlier search of a browser ended by its next one, two lobbies on one
database — two processes — pairing without seating anyone twice, a table whose creator died
created by the next poll). On the in-memory store and on SQLite."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit.tables import FakeClock, lobby_on
from ludoteca.games import register, unregister
from ludoteca.server.lobby import pool
from ludoteca.server.lobby.pairing import (
    MAX_POOL,
    STALE_SECONDS,
    Pairing,
    Wanted,
    search_key,
    seat_token,
)
from ludoteca.server.messages import Rejected
from ludoteca.server.storage import Storage
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.storage.pairings import Placed, SearchRow
from ludoteca.server.table.ledger import token_hash
from toygame import GAME

TOY = GAME.spec.id
T0 = 1_000_000.0


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    register(GAME)
    try:
        yield
    finally:
        unregister(TOY)


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Storage | str:
    return MemoryStorage() if request.param == "memory" else f"sqlite:///{tmp_path}/p.db"


def row(n: int, **changes: Any) -> SearchRow:
    base = SearchRow(
        f"s{n}",
        "dwarves",
        0,
        "real-time",
        False,
        None,
        "easy",
        f"P{n}",
        "h",
        T0 + n,
        T0 + n,
        device=f"d{n}",
    )
    for key, value in changes.items():
        setattr(base, key, value)
    return base


def counts(game: str) -> tuple[int, int]:
    return {"dwarves": (2, 6), "heroes": (2, 2), "dice-heroes": (2, 4)}[game]


# ------------------------------------------------------------------------------ the rules
def test_the_window_widens_in_the_documented_steps() -> None:
    assert [pool.window(s) for s in (0, 9.9, 10, 20, 39, 40, 59, 60, 3600)] == [
        100,
        100,
        200,
        300,
        300,
        500,
        500,
        math.inf,
        math.inf,
    ]


def test_a_full_table_of_people_who_want_the_same_count() -> None:
    searches = [row(i, players=3) for i in range(3)] + [row(9, players=4)]
    found = pool.groups(searches, T0 + 20, counts)
    assert [(len(g.members), g.size, g.level) for g in found] == [(3, 3, None)]
    assert [m.id for m in found[0].members] == ["s0", "s1", "s2"]


def test_any_count_takes_the_largest_table_that_fills() -> None:
    searches = [row(i) for i in range(4)] + [row(5, players=4), row(6, players=2)]
    found = pool.groups(searches, T0 + 20, counts)
    # no six or five fill; four "any" make a table of four, then "4" and "2" wait alone
    assert [([m.id for m in g.members], g.size) for g in found] == [(["s0", "s1", "s2", "s3"], 4)]


def test_nobody_alone_is_seated_without_bots_and_nobody_twice() -> None:
    searches = [row(0, players=2), row(1, players=3), row(2, players=2)]
    found = pool.groups(searches, T0 + 5, counts)
    assert [[m.id for m in g.members] for g in found] == [["s0", "s2"]]


def test_one_browser_and_one_account_never_sit_together() -> None:
    same_device = [row(0, players=2), row(1, players=2, device="d0")]
    assert pool.groups(same_device, T0 + 5, counts) == []
    same_account = [row(0, players=2, account="a"), row(1, players=2, account="a")]
    assert pool.groups(same_account, T0 + 5, counts) == []
    apart = [row(0, players=2, account="a"), row(1, players=2, account="b")]
    assert len(pool.groups(apart, T0 + 5, counts)) == 1


def test_accounts_kept_apart_never_sit_together_but_sit_with_others() -> None:
    ana, bia, caio = (row(i, players=2, account=a) for i, a in enumerate("abc"))
    apart = frozenset({frozenset(("a", "b"))})
    found = pool.groups([ana, bia, caio], T0 + 5, counts, apart)
    assert [[m.id for m in g.members] for g in found] == [["s0", "s2"]]
    assert pool.groups([ana, bia], T0 + 5, counts, apart) == []
    assert len(pool.groups([ana, bia], T0 + 5, counts)) == 1


def test_pace_and_rated_keep_searches_apart() -> None:
    pair = [row(0, players=2), row(1, players=2, pace="turn-based")]
    assert pool.groups(pair, T0 + 5, counts) == []
    pair = [row(0, players=2), row(1, players=2, rated=True, rating=1500.0)]
    assert pool.groups(pair, T0 + 5, counts) == []


def test_a_rated_search_widens_its_window_as_it_waits() -> None:
    ana = row(0, players=2, rated=True, rating=1500.0, created_at=T0)
    bruno = row(1, players=2, rated=True, rating=1750.0, created_at=T0)
    assert pool.groups([ana, bruno], T0 + 5, counts) == []  # 250 apart, window 100
    assert pool.groups([ana, bruno], T0 + 10, counts) == []  # window 200
    assert len(pool.groups([ana, bruno], T0 + 20, counts)) == 1  # window 300
    late = row(2, players=2, rated=True, rating=1750.0, created_at=T0 + 19)
    # the newcomer's own window is still 100: both must accept each other
    assert pool.groups([ana, late], T0 + 20.5, counts) == []
    far = row(3, players=2, rated=True, rating=2900.0, created_at=T0)
    assert pool.groups([ana, far], T0 + 59, counts) == []
    assert len(pool.groups([ana, far], T0 + 60, counts)) == 1


def test_bots_after_a_wait_with_everyone_who_agreed_to_bots() -> None:
    ana = row(0, players=4, bots_after=30.0, bot_level="hard", created_at=T0)
    bruno = row(1, players=4, bots_after=10.0, created_at=T0 + 5)
    waits = row(2, players=4, created_at=T0 + 6)  # keeps waiting for people
    assert pool.groups([ana, bruno, waits], T0 + 14.9, counts) == []
    # Bruno's wait ran out: he is seated with Ana, who agreed to bots too (at her seat order)
    (group,) = pool.groups([ana, bruno, waits], T0 + 15, counts)
    assert [m.id for m in group.members] == ["s0", "s1"]
    assert (group.size, group.level) == (4, "easy")
    alone = row(3, players=4, created_at=T0)
    assert pool.groups([alone], T0 + 3600, counts) == []  # keeps waiting, for ever


def test_an_any_search_with_bots_gets_the_game_s_smallest_table() -> None:
    (group,) = pool.groups([row(0, bots_after=0.0, created_at=T0)], T0, counts)
    assert (len(group.members), group.size, group.level) == (1, 2, "easy")


# ----------------------------------------------------------------------- the service
def wanted(name: str, device: str, **changes: Any) -> Wanted:
    base: dict[str, Any] = {
        "game": TOY,
        "players": 2,
        "pace": "real-time",
        "rated": False,
        "bots_after": None,
        "bot_level": "random",
        "name": name,
        "device": device,
    }
    return Wanted(**(base | changes))


def test_two_searches_are_seated_at_one_started_table(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            pairing = Pairing(lobby)
            ana_id, ana = await pairing.search(wanted("Ana", "da"))
            assert ana.state == "waiting"
            first = await pairing.state(ana_id)
            assert first["state"] == "waiting" and first["looking"] == 1
            await clock.advance(3.0)
            assert (await pairing.state(ana_id))["waited"] == 3.0
            bruno_id, bruno = await pairing.search(wanted("Bruno", "db"))
            assert bruno.state == "seated"
            a, b = await pairing.state(ana_id), await pairing.state(bruno_id)
            assert a["state"] == b["state"] == "seated" and a["table"] == b["table"]
            assert {a["seat"], b["seat"]} == {0, 1}
            assert a["token"] == seat_token(ana_id) and a["looking"] == 0
            table = await lobby.residency.peek(a["table"])
            assert table.row.status in {"starting", "playing"}
            assert table.seat_for_token(a["token"]) == a["seat"]
            assert table.seat_for_token(b["token"]) == b["seat"]
            assert [s.name for s in table.seats] == ["Ana", "Bruno"]
            stored = await lobby.storage.load_search(search_key(ana_id))
            assert stored is not None and stored.seat_hash == token_hash(a["token"])

    asyncio.run(scenario())


def test_cancel_stale_and_a_browser_s_next_search(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            pairing = Pairing(lobby)
            ana_id, _ = await pairing.search(wanted("Ana", "da"))
            await pairing.cancel(ana_id)
            assert (await pairing.state(ana_id))["state"] == "cancelled"
            await pairing.cancel(ana_id)  # again: nothing changes
            bruno_id, _ = await pairing.search(wanted("Bruno", "db"))
            assert (await pairing.state(bruno_id))["state"] == "waiting"
            again_id, _ = await pairing.search(wanted("Bruno", "db"))  # the same browser
            assert (await pairing.state(bruno_id))["state"] == "cancelled"
            await clock.advance(STALE_SECONDS + 1)
            assert await pairing.match() == []
            assert (await pairing.state(again_id))["state"] == "expired"
            with pytest.raises(Rejected) as refused:
                await pairing.state("no-such-search")
            assert refused.value.code == "no_search"

    asyncio.run(scenario())


def test_bad_searches_are_refused_and_change_nothing(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            pairing = Pairing(lobby)
            bad = [
                (wanted("A", "d", game="nope"), "no_game"),
                (wanted("A", "d", players=3), "bad_request"),
                (wanted("A", "d", pace="slow"), "bad_request"),
                (wanted("A", "d", bot_level="god"), "bad_request"),
                (wanted("A", "d", rated=True), "not_signed_in"),
            ]
            for search, code in bad:
                with pytest.raises(Rejected) as refused:
                    await pairing.search(search)
                assert refused.value.code == code
            assert await lobby.storage.waiting_searches() == []

    asyncio.run(scenario())


def test_the_pool_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(MemoryStorage(), clock) as lobby:
            pairing = Pairing(lobby)
            monkeypatch.setattr("ludoteca.server.lobby.pairing.MAX_POOL", 2)
            await pairing.search(wanted("A", "d1", pace="turn-based"))
            await pairing.search(wanted("B", "d2"))
            with pytest.raises(Rejected) as refused:
                await pairing.search(wanted("C", "d3"))
            assert refused.value.code == "server_busy"
            assert len(await lobby.storage.waiting_searches()) == 2

    assert MAX_POOL >= 1000
    asyncio.run(scenario())


def test_bots_fill_the_table_once_the_wait_runs_out(store: Storage | str) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            pairing = Pairing(lobby)
            ana_id, _ = await pairing.search(wanted("Ana", "da", bots_after=30.0))
            await clock.advance(15.0)
            assert (await pairing.state(ana_id))["state"] == "waiting"  # the page polls
            await clock.advance(14.0)
            assert await pairing.match() == []
            await clock.advance(1.0)
            (made,) = await pairing.match()
            answer = await pairing.state(ana_id)
            assert answer["state"] == "seated" and answer["table"] == made
            table = await lobby.residency.peek(made)
            kinds = [s.kind for s in table.seats]
            assert kinds[answer["seat"]] == "human" and kinds.count("bot") == 1
            bot = next(s for s in table.seats if s.kind == "bot")
            assert bot.level == "random" and "Bot" in bot.name

    asyncio.run(scenario())


def test_two_processes_pair_once_and_a_lost_creation_is_made_by_a_poll(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        url = f"sqlite:///{tmp_path}/two.db"
        async with lobby_on(url, clock) as one, lobby_on(url, clock) as other:
            here, there = Pairing(one), Pairing(other)
            ana_id, _ = await here.search(wanted("Ana", "da"))
            # Bruno's search is stored at the other process, which dies before pairing
            bruno_id = "bruno-search-id-0000000000"
            await other.storage.add_search(
                SearchRow(
                    search_key(bruno_id),
                    TOY,
                    2,
                    "real-time",
                    False,
                    None,
                    "random",
                    "Bruno",
                    token_hash(seat_token(bruno_id)),
                    clock.now(),
                    clock.now(),
                    device="db",
                )
            )
            # both processes pair at once: one seats them, the other finds them gone
            made = await asyncio.gather(here.match(), there.match())
            assert sorted(len(m) for m in made) == [0, 1]
            a, b = await there.state(ana_id), await here.state(bruno_id)
            assert a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}
            assert await here.create(a["table"]) is False  # it exists: no second table

    asyncio.run(scenario())


def test_a_seated_group_whose_table_was_not_created_gets_it_on_the_next_poll(
    store: Storage | str,
) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(store, clock) as lobby:
            pairing = Pairing(lobby)
            ana_id, _ = await pairing.search(wanted("Ana", "da"))
            bruno_id, _ = await pairing.search(wanted("Bruno", "db", bots_after=None))
            # (Bruno's search paired them and created the table.) Seat two more by hand, as a
            # process that died after the write and before the creation leaves them
            cara_id, _ = await pairing.search(wanted("Cara", "dc", pace="turn-based"))
            dan = await lobby.storage.load_search(search_key(cara_id))
            assert dan is not None
            assert await lobby.storage.seat_searches(
                "lost-table", 2, "random", [Placed(dan.id, dan.version, 0)], clock.now()
            )
            assert await lobby.storage.load_table("lost-table") is None
            answer = await pairing.state(cara_id)
            assert answer["state"] == "seated" and answer["table"] == "lost-table"
            table = await lobby.residency.peek("lost-table")
            assert table.seat_for_token(answer["token"]) == 0
            assert table.row.pace == "turn-based"
            assert (await pairing.state(ana_id))["state"] == "seated"
            assert (await pairing.state(bruno_id))["state"] == "seated"

    asyncio.run(scenario())
