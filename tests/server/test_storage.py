"""The storage contract: the in-memory, SQLite and PostgreSQL stores behave the same.

Each test runs against every store through the ``Storage`` protocol only; the last ones are about
what only the SQL store has (group commit, a second process on the same database).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ludoteca.server.storage import (
    MAX_PAGE,
    ActionRow,
    Append,
    ConflictError,
    SeatRow,
    SqlStorage,
    Storage,
    TableRow,
    open_storage,
)

Scenario = Callable[[Storage], Awaitable[None]]


def check(store_url: str, scenario: Scenario) -> None:
    """Run ``scenario`` on a store opened at ``store_url``, then close it."""

    async def run() -> None:
        store = open_storage(store_url)
        try:
            await scenario(store)
        finally:
            await store.close()

    asyncio.run(run())


def table(table_id: str, created_at: float = 0.0, **changes: Any) -> TableRow:
    row = TableRow(
        id=table_id,
        game="heroes",
        params={"players": 2, "variant": {"deck": [1, 2]}},
        seed="s",
        commitment="c",
        status="playing",
        turn_seconds=60,
        created_at=created_at,
        seats=[SeatRow(0, "human", "Ana", None, "hash", False), SeatRow(1, "bot", "B", "medium")],
    )
    return replace(row, **changes)


def step(seq: int, action: str | None = None) -> ActionRow:
    return ActionRow(seq, (seq + 1) % 2, action or f"action {seq}", "player", float(seq))


async def results(*calls: Awaitable[None]) -> list[BaseException | None]:
    return list(await asyncio.gather(*calls, return_exceptions=True))


# ------------------------------------------------------------------------------ round trips
def test_a_table_comes_back_as_stored_and_copies_are_the_callers(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        row = table(
            "t1", created_at=12.5, seats=[SeatRow(1, "open", "Seat 2"), SeatRow(0, "human", "Ana")]
        )
        await store.create_table(row)
        row.seats[0].name, row.params["players"] = "changed after", 9  # the store kept its own copy
        loaded = await store.load_table("t1")
        assert loaded is not None
        assert loaded.params == {"players": 2, "variant": {"deck": [1, 2]}}
        assert [(s.seat, s.name) for s in loaded.seats] == [(0, "Ana"), (1, "Seat 2")]
        assert (loaded.created_at, loaded.version, loaded.outcome) == (12.5, 0, None)
        assert loaded.format == 5, "a new table is format 5 unless told"
        loaded.seats[0].name = "changed on a copy"
        again = await store.load_table("t1")
        assert again is not None and again.seats[0].name == "Ana"
        assert await store.load_table("nothing") is None
        assert await store.load_actions("nothing") == []

    check(store_url, scenario)


def test_versions_say_where_each_table_stands_in_one_read(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1"))
        await store.create_table(table("t2", status="open"))
        await store.append(Append("t1", step(1), 1.0, None))
        await store.append(Append("t1", step(2), 2.0, {"winners": [0]}))
        found = await store.versions(["t1", "t2", "gone"])
        assert found == {"t1": (2, "over"), "t2": (0, "open")}
        assert await store.versions([]) == {}

    check(store_url, scenario)


def test_a_taken_id_or_a_bad_row_stores_nothing(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1"))
        with pytest.raises(ConflictError, match="already a table t1"):
            await store.create_table(table("t1", game="dwarves"))
        with pytest.raises(ValueError, match="seat twice"):
            await store.create_table(table("t2", seats=[SeatRow(0, "open", "a")] * 2))
        with pytest.raises(ValueError, match="JSON"):
            await store.create_table(table("t3", params={"players": object()}))
        kept = await store.load_table("t1")
        assert kept is not None and kept.game == "heroes"
        assert await store.load_table("t2") is None and await store.load_table("t3") is None

    check(store_url, scenario)


def test_a_seat_is_replaced_and_a_missing_seat_is_a_conflict(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1"))
        await store.update_seat("t1", SeatRow(0, "human", "Ana", None, "hash", away=True))
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.seats[0].away and loaded.seats[1].level == "medium"
        with pytest.raises(ConflictError):
            await store.update_seat("t1", SeatRow(5, "human", "Nobody"))
        with pytest.raises(ConflictError):
            await store.update_seat("gone", SeatRow(0, "human", "Nobody"))

    check(store_url, scenario)


def test_a_table_starts_once(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1", status="open", seats=[SeatRow(0, "open", "Seat 1")]))
        await store.start_table("t1", [SeatRow(0, "bot", "Bot 1", "easy")], 5.0)
        started = await store.load_table("t1")
        assert started is not None
        assert (started.status, started.started_at, started.turn_started_at) == ("playing", 5, 5)
        assert started.seats == [SeatRow(0, "bot", "Bot 1", "easy")]
        with pytest.raises(ConflictError, match="no longer open"):
            await store.start_table("t1", [SeatRow(0, "human", "Late")], 9.0)
        after = await store.load_table("t1")
        assert after == started, "a refused start stores nothing"
        with pytest.raises(ConflictError, match="not waiting to be dealt"):
            await store.deal_table("t1", 9.0)

    check(store_url, scenario)


def test_a_start_naming_a_seat_the_table_lacks_stores_nothing(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1", status="open", seats=[SeatRow(0, "open", "Seat 1")]))
        with pytest.raises(ConflictError, match="no seat"):
            await store.start_table("t1", [SeatRow(0, "bot", "B"), SeatRow(4, "bot", "C")], 5.0)
        still = await store.load_table("t1")
        assert still is not None
        assert (still.status, still.started_at, still.seats) == (
            "open",
            None,
            [SeatRow(0, "open", "Seat 1")],
        )
        assert store.dialect == store_url.split(":", 1)[0]

    check(store_url, scenario)


def test_seats_commit_then_reveal_then_the_table_is_dealt_once(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1", status="open"))
        ana, bo = "ab" * 32, "cd" * 32
        await store.commit_seat("t1", 0, "ee" * 32)  # while open, and replaced later
        people = [SeatRow(0, "human", "Ana", None, "h"), SeatRow(1, "human", "Bo", None, "i")]
        await store.start_table("t1", people, 5.0, status="starting")
        await store.commit_seat("t1", 0, ana)
        with pytest.raises(ConflictError, match="not taking reveals"):
            await store.reveal_seat("t1", 0, "ana-seed", "1" * 32)
        # a seat written as it is now (away, a name) keeps its commitment; a freed one has none
        await store.update_seat("t1", SeatRow(0, "human", "Ana", None, "h", True))
        await store.commit_seat("t1", 1, "ff" * 32)
        await store.update_seat("t1", SeatRow(1, "open", "Seat 2"))
        freed = await store.load_table("t1")
        assert freed is not None and freed.seats[1].commitment is None
        await store.update_seat("t1", SeatRow(1, "human", "Bo", None, "i"))
        await store.commit_seat("t1", 1, bo)
        await store.open_reveals("t1", 7.0)
        with pytest.raises(ConflictError, match="not taking commitments"):
            await store.open_reveals("t1", 7.5)
        with pytest.raises(ConflictError, match="not taking commitments"):
            await store.commit_seat("t1", 1, "00" * 32)
        await store.reveal_seat("t1", 0, "ana-seed", "1" * 32)
        with pytest.raises(ConflictError, match="no seat 5"):
            await store.reveal_seat("t1", 5, "x", "1" * 32)
        waiting = await store.load_table("t1")
        assert waiting is not None and (waiting.status, waiting.revealing_at) == ("starting", 7.0)
        assert [(s.commitment, s.contribution, s.salt) for s in waiting.seats] == [
            (ana, "ana-seed", "1" * 32),
            (bo, None, None),
        ]
        dealt_seats = await store.deal_table("t1", 8.0)
        assert [s.contribution for s in dealt_seats] == ["ana-seed", None]
        dealt = await store.load_table("t1")
        assert dealt is not None
        assert (dealt.status, dealt.started_at, dealt.turn_started_at) == ("playing", 5, 8)
        with pytest.raises(ConflictError, match="not waiting to be dealt"):
            await store.deal_table("t1", 9.0)
        with pytest.raises(ConflictError, match="not taking reveals"):
            await store.reveal_seat("t1", 1, "bo-seed", "2" * 32)

    check(store_url, scenario)


# -------------------------------------------------------------------------------- appends
def test_a_step_is_stored_once_and_the_version_moves_with_it(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1"))
        await store.append(Append("t1", step(1), 1.0, None))
        with pytest.raises(ConflictError):
            await store.append(Append("t1", step(1), 1.0, None))
        with pytest.raises(ConflictError):
            await store.append(Append("t1", step(3), 1.0, None))  # a step cannot skip a version
        with pytest.raises(ConflictError):
            await store.append(Append("gone", step(1), 1.0, None))
        await store.append(Append("t1", step(2), 2.5, None))
        assert await store.load_actions("t1") == [step(1), step(2)]
        assert await store.load_actions("t1", after=1) == [step(2)]
        row = await store.load_table("t1")
        assert row is not None and (row.version, row.turn_started_at, row.status) == (
            2,
            2.5,
            "playing",
        )
        outcome = {"winners": [0], "reason": "camp", "draw": False}
        await store.append(Append("t1", step(3), 3.0, outcome))
        over = await store.load_table("t1")
        assert over is not None and (over.status, over.outcome, over.version) == (
            "over",
            outcome,
            3,
        )

    check(store_url, scenario)


def test_appends_together_each_hear_their_own_result(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        for n in range(20):
            await store.create_table(table(f"t{n}"))
        await store.append(Append("t5", step(1), 0.0, None))  # t5's step 1 is already taken
        answers = await results(
            *(store.append(Append(f"t{n}", step(1), 0.0, None)) for n in range(20))
        )
        assert [a is None for a in answers] == [n != 5 for n in range(20)]
        assert isinstance(answers[5], ConflictError)
        assert [len(await store.load_actions(f"t{n}")) for n in range(20)] == [1] * 20

    check(store_url, scenario)


def test_two_writers_of_the_same_step_store_it_once(store_url: str) -> None:
    """Two stores on one database (two server processes), or two callers of the one memory store."""

    async def scenario(first: Storage) -> None:
        second = first if store_url == "memory://" else open_storage(store_url)
        try:
            await first.create_table(table("t1"))
            answers = await results(
                first.append(Append("t1", step(1, "from the first"), 0.0, None)),
                second.append(Append("t1", step(1, "from the second"), 0.0, None)),
            )
            assert sum(a is None for a in answers) == 1
            assert sum(isinstance(a, ConflictError) for a in answers) == 1
            stored = await second.load_actions("t1")
            winner = "from the first" if answers[0] is None else "from the second"
            assert [a.action for a in stored] == [winner]
        finally:
            if second is not first:
                await second.close()

    check(store_url, scenario)


# ------------------------------------------------------------------------------- listings
GAMES = ["heroes", "dwarves", "heroes", "heroes", "dwarves", "heroes", "heroes", "heroes"]
STATUSES = ["open", "open", "playing", "over", "open", "open", "open", "playing"]
# ids of equal age are ordered by code point on every store: "B" < "a"
IDS_AGES = [
    ("x1", 1.0),
    ("x2", 2.0),
    ("x3", 3.0),
    ("a", 4.0),
    ("B", 4.0),
    ("b", 4.0),
    ("x7", 7.0),
    ("x8", 8.0),
]


async def listing(store: Storage) -> None:
    for (table_id, age), game, status in zip(IDS_AGES, GAMES, STATUSES, strict=True):
        await store.create_table(table(table_id, created_at=age, game=game, status=status))


def test_pages_walk_the_tables_newest_first_without_gaps(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await listing(store)
        pages, cursor = [], None
        while True:
            page = await store.list_tables(limit=3, cursor=cursor)
            pages.append([r.id for r in page.rows])
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
            if len(pages) == 1:  # a table created while someone pages does not shift the pages
                await store.create_table(table("new", created_at=99.0))
        assert pages == [["x8", "x7", "b"], ["a", "B", "x3"], ["x2", "x1"]]
        first = (await store.list_tables(limit=2)).rows
        assert [len(r.seats) for r in first] == [2, 2], "pages carry their seats"

    check(store_url, scenario)


def test_pages_filter_by_status_and_game(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await listing(store)
        open_heroes = await store.list_tables(statuses=["open"], game="heroes", limit=2)
        assert [r.id for r in open_heroes.rows] == ["x7", "b"]
        assert open_heroes.next_cursor is not None
        rest = await store.list_tables(
            statuses=["open"], game="heroes", limit=2, cursor=open_heroes.next_cursor
        )
        assert ([r.id for r in rest.rows], rest.next_cursor) == (["x1"], None)
        active = await store.list_tables(statuses=("open", "playing"), limit=MAX_PAGE)
        assert [r.id for r in active.rows] == ["x8", "x7", "b", "B", "x3", "x2", "x1"]
        one = await store.list_tables(statuses="over")
        assert [r.id for r in one.rows] == ["a"], "a single status is one status"
        assert (await store.list_tables(game="chess")).rows == []
        reload = await store.tables_with_status(["open", "playing"], 3)
        assert [r.id for r in reload] == ["x8", "x7", "b"]

    check(store_url, scenario)


@pytest.mark.parametrize(
    ("limit", "cursor", "message"),
    [
        (0, None, "limit must be between 1 and 500"),
        (MAX_PAGE + 1, None, "limit must be between 1 and 500"),
        (10, "not-a-cursor", "not a cursor"),
        (10, "WzEsMl0", "not a cursor"),  # valid base64 of [1,2]: an id must be text
    ],
)
def test_a_bad_page_request_is_refused(
    store_url: str, limit: int, cursor: str | None, message: str
) -> None:
    async def scenario(store: Storage) -> None:
        with pytest.raises(ValueError, match=message):
            await store.list_tables(limit=limit, cursor=cursor)
        with pytest.raises(ValueError, match="offset must be 0 or more"):
            await store.list_tables(offset=-1)
        with pytest.raises(ValueError, match="at least 1"):
            await store.tables_with_status(["open"], 0)

    check(store_url, scenario)


def test_open_tables_expire_and_started_ones_stay(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await listing(store)
        expired = await store.expire_open_tables(older_than=7.0)
        assert expired == ["x1", "x2", "B", "b"], "open ones created before 7, oldest first"
        gone = await store.load_table("x1")
        assert gone is not None and gone.status == "expired" and len(gone.seats) == 2
        still_open = await store.list_tables(statuses=["open"])
        assert [r.id for r in still_open.rows] == ["x7"]
        assert await store.expire_open_tables(older_than=7.0) == []
        assert await store.count_tables(statuses=["expired"]) == 4

    check(store_url, scenario)


def test_tables_named_expire_only_while_open(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await listing(store)
        expired = await store.expire_tables(["x7", "x8", "a", "x1", "nothing"])
        assert expired == ["x1", "x7"], "the open ones among them, oldest first"
        assert await store.expire_tables(["x7"]) == [], "already expired"
        assert await store.expire_tables([]) == []
        statuses = {r.id: r.status for r in (await store.list_tables(limit=MAX_PAGE)).rows}
        assert statuses == {
            "x8": "playing",
            "x7": "expired",
            "b": "open",
            "a": "over",
            "B": "open",
            "x3": "playing",
            "x2": "open",
            "x1": "expired",
        }
        with pytest.raises(ConflictError, match="no longer open"):
            await store.start_table("x7", [SeatRow(0, "human", "Late")], 9.0)

    check(store_url, scenario)


def test_pages_by_offset_and_the_count_behind_them(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await listing(store)
        page = await store.list_tables(statuses=["open", "playing"], limit=3, offset=2)
        assert [r.id for r in page.rows] == ["b", "B", "x3"] and page.next_cursor is not None
        last = await store.list_tables(statuses=["open", "playing"], limit=3, offset=6)
        assert ([r.id for r in last.rows], last.next_cursor) == (["x1"], None)
        beyond = await store.list_tables(limit=3, offset=50)
        assert (beyond.rows, beyond.next_cursor) == ([], None)
        assert await store.count_tables(statuses=["open", "playing"]) == 7
        assert await store.count_tables(game="dwarves") == 2
        assert await store.count_tables(statuses=["open"], game="heroes") == 3
        assert await store.count_tables() == 8

    check(store_url, scenario)


def test_a_closed_store_refuses_calls(store_url: str) -> None:
    async def scenario(store: Storage) -> None:
        await store.ping()
        await store.close()
        with pytest.raises(RuntimeError, match="closed"):
            await store.load_table("t1")
        with pytest.raises(RuntimeError, match="closed"):
            await store.append(Append("t1", step(1), 0.0, None))

    check(store_url, scenario)


# ----------------------------------------------------------------------- opening a store
@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("memory://somewhere", "takes no path"),
        ("mysql://localhost/db", "unknown database URL"),
        ("sqlite:///", "needs a file"),
        ("tables.sqlite3", "unknown database URL"),
    ],
)
def test_a_url_that_names_no_store_is_refused(bad: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        open_storage(bad)


# ------------------------------------------------------------------ the SQL store's own
def test_waiting_appends_share_a_commit(tmp_path: Path) -> None:
    store = open_storage(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    assert isinstance(store, SqlStorage)
    batches: list[int] = []
    original = store.append_batch

    def counting(items: list[Append]) -> list[Exception | None]:
        batches.append(len(items))
        return original(items)

    store.append_batch = counting  # type: ignore[method-assign]

    async def scenario() -> list[BaseException | None]:
        for n in range(20):
            await store.create_table(table(f"t{n}"))
        answers = await results(
            *(store.append(Append(f"t{n}", step(1), 0.0, None)) for n in range(20))
        )
        await store.close()
        return answers

    assert asyncio.run(scenario()) == [None] * 20
    assert batches == [20], "appends waiting together go to the database together"


def test_when_the_database_fails_every_waiting_append_hears_it(tmp_path: Path) -> None:
    store = open_storage(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    assert isinstance(store, SqlStorage)

    def failing(items: list[Append]) -> list[Exception | None]:
        raise OSError("disk gone")

    store.append_batch = failing  # type: ignore[method-assign]

    async def scenario() -> list[BaseException | None]:
        answers = await results(
            *(store.append(Append(f"t{n}", step(1), 0.0, None)) for n in range(3))
        )
        await store.close()
        return answers

    answers = asyncio.run(scenario())
    assert [str(a) for a in answers] == ["disk gone"] * 3


def test_close_lets_the_waiting_appends_commit(tmp_path: Path) -> None:
    store_url = f"sqlite:///{tmp_path / 'store.sqlite3'}"

    async def scenario() -> None:
        store = open_storage(store_url)
        await store.create_table(table("t1"))
        pending = asyncio.create_task(store.append(Append("t1", step(1), 0.0, None)))
        await asyncio.sleep(0)  # the append is waiting for its commit
        await store.close()
        await pending

    asyncio.run(scenario())

    async def reopened() -> list[ActionRow]:
        store = open_storage(store_url)
        try:
            return await store.load_actions("t1")
        finally:
            await store.close()

    assert asyncio.run(reopened()) == [step(1)]


# ------------------------------------------------------------------------ turn-based tables
def test_due_tables_come_by_due_time_and_a_step_moves_the_due_time_and_the_seat(
    store_url: str,
) -> None:
    async def scenario(store: Storage) -> None:
        tb = {"pace": "turn-based", "turn_seconds": 3600}
        await store.create_table(table("late", 1.0, due_at=50.0, **tb))
        await store.create_table(table("soon", 2.0, due_at=10.0, **tb))
        await store.create_table(table("later", 3.0, due_at=500.0, **tb))
        await store.create_table(table("real", 4.0))  # real-time: never due
        await store.create_table(table("done", 5.0, due_at=1.0, **tb | {"status": "over"}))
        assert await store.due_tables(100.0) == [("soon", 0, 10.0), ("late", 0, 50.0)]
        assert await store.due_tables(100.0, limit=1) == [("soon", 0, 10.0)]
        with pytest.raises(ValueError):
            await store.due_tables(100.0, limit=0)
        # a step stores the next due time and the acting seat as it is after it (a bot now)
        seat = SeatRow(0, "bot", "Ana", "medium", "hash", False, timeouts=3, bot_from=1)
        await store.append(Append("soon", step(1), 5.0, None, seat, 600.0))
        loaded = await store.load_table("soon")
        assert loaded is not None and loaded.due_at == 600.0 and loaded.pace == "turn-based"
        taken = loaded.seats[0]
        assert (taken.kind, taken.level, taken.timeouts, taken.bot_from) == ("bot", "medium", 3, 1)
        assert taken.token_hash == "hash"  # the seat's token is not the step's to change
        assert await store.due_tables(100.0) == [("late", 0, 50.0)]
        # a due time is written again only at the version it was read at
        assert not await store.set_due("soon", 0, 20.0)
        assert await store.set_due("soon", 1, 20.0)
        assert [t for t, _, _ in await store.due_tables(100.0)] == ["soon", "late"]
        # start-up leaves the turn-based tables in play asleep in the database
        awake = await store.tables_with_status(["playing"], sleeping=False)
        assert [r.id for r in awake] == ["real"]

    check(store_url, scenario)


def test_a_prelude_is_stored_in_order_each_place_once(store_url: str) -> None:
    """Format 5: a table's events before the deal, each at its place; a place taken is a
    conflict (another writer added an event first); ``load_table`` reads them with the row."""

    async def scenario(store: Storage) -> None:
        await store.create_table(table("t1", status="open"))
        events = [{"event": "create", "table": "t1"}, {"event": "sit", "seat": 0, "name": "Ana"}]
        for seq, event in enumerate(events):
            await store.add_event("t1", seq, event)
        with pytest.raises(ConflictError):
            await store.add_event("t1", 1, {"event": "close"})
        assert await store.load_prelude("t1") == events
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded.prelude == events
        loaded.prelude.append({"event": "close"})  # a copy: the store keeps its own
        assert await store.load_prelude("t1") == events
        assert await store.load_prelude("nothing") == []

    check(store_url, scenario)
