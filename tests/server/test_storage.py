"""Storage: each step is stored once; group commit keeps each caller's own result."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ludoteca.server.storage import (
    ActionRow,
    Append,
    ConflictError,
    SeatRow,
    Storage,
    TableRow,
)


def new_table(storage: Storage, table_id: str) -> None:
    storage.create_table(
        TableRow(
            id=table_id,
            game="heroes",
            params={"players": 2},
            seed="s",
            commitment="c",
            status="playing",
            turn_seconds=60,
            created_at=0.0,
            seats=[SeatRow(0, "human", "A"), SeatRow(1, "bot", "B", "medium")],
        )
    )


def step(seq: int) -> ActionRow:
    return ActionRow(seq, (seq + 1) % 2, f"action {seq}", "player", float(seq))


@pytest.fixture(params=["sqlite", "postgres"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Storage:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")
    store = Storage(url)
    request.addfinalizer(store.close)
    return store


def test_a_step_is_stored_once_and_the_version_moves_with_it(storage: Storage) -> None:
    new_table(storage, "t1")
    assert storage.append_batch([Append("t1", step(1), 1.0, None)]) == [None]
    again = storage.append_batch([Append("t1", step(1), 1.0, None)])
    assert isinstance(again[0], ConflictError)
    skipped = storage.append_batch([Append("t1", step(3), 1.0, None)])
    assert isinstance(skipped[0], ConflictError), "a step cannot skip a version"
    assert [a.seq for a in storage.load_actions("t1")] == [1]
    row = storage.load_table("t1")
    assert row is not None and row.version == 1 and row.turn_started_at == 1.0


def test_a_conflict_in_a_batch_fails_only_its_own_step(storage: Storage) -> None:
    for table_id in ("a", "b", "c"):
        new_table(storage, table_id)
    storage.append_batch([Append("b", step(1), 0.0, None)])
    results = storage.append_batch(
        [
            Append("a", step(1), 0.0, None),
            Append("b", step(1), 0.0, None),  # already there
            Append("c", step(1), 0.0, {"winners": [0], "reason": "camp", "draw": False}),
        ]
    )
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], ConflictError)
    assert [len(storage.load_actions(t)) for t in "abc"] == [1, 1, 1]
    finished = storage.load_table("c")
    assert finished is not None and finished.status == "over" and finished.outcome is not None


def test_waiting_appends_share_a_commit_and_each_hears_its_own_result(storage: Storage) -> None:
    for n in range(20):
        new_table(storage, f"t{n}")
    storage.append_batch([Append("t5", step(1), 0.0, None)])  # t5's step 1 is already taken
    calls: list[int] = []
    original = storage.append_batch

    def counting(items: list[Append]) -> list[Exception | None]:
        calls.append(len(items))
        return original(items)

    storage.append_batch = counting  # type: ignore[method-assign]

    async def scenario() -> list[BaseException | None]:
        results = await asyncio.gather(
            *(storage.append(Append(f"t{n}", step(1), 0.0, None)) for n in range(20)),
            return_exceptions=True,
        )
        return list(results)

    results = asyncio.run(scenario())
    assert calls[0] == 20, "appends waiting together go to the database together"
    assert [r is None for r in results] == [n != 5 for n in range(20)]
    assert isinstance(results[5], ConflictError)
    assert [len(storage.load_actions(f"t{n}")) for n in range(20)] == [1] * 20
