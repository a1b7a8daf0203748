"""The operator ends a dealt table, in process: from the desk (the server's ``table_ender``) and
with ``ludoteca admin end`` beside the server (the database alone). The table stops at once with
no winner, the signed record states that the operator ended it (not who nor why: the audit log
keeps both) and verifies; an open table still expires; a finished one is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from kit.tables import FakeClock, commit_then_reveal, lobby_on, seated
from ludoteca.cli import main
from ludoteca.core import verify
from ludoteca.games import get
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.social.ending import table_ender
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.table import Table


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def playing(lobby: Lobby, start: bool = True) -> Table:
    """Ana and Bruno at a dwarves table with a bot, dealt, and its first move made."""
    seats = [SeatRequest(), SeatRequest(), SeatRequest(bot=True, level="random")]
    table, _, _ = await lobby.create(
        "dwarves", players=3, seats=seats, turn_seconds=600, name="Ana", start=False
    )
    if not start:
        return table
    await lobby.join(table.id, "Bruno", None)
    await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
    match = table.match
    assert match is not None and match.to_move is not None
    if table.seats[match.to_move].kind == "human":
        await table.submit(match.to_move, match.legal(match.to_move)[0], table.version)
    return table


def test_the_desk_ends_a_dealt_table_with_no_winner() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            end = table_ender(lobby)
            table = await playing(lobby)
            watcher = await seated(table)
            version = table.version
            assert await end(table.id) == "ended"
            await watcher.until(lambda: table.row.status == "over")
            assert table.version == version, "ending is no step"
            assert table.row.outcome == {
                "winners": [],
                "reason": "operator",
                "draw": False,
                "ended": {"by": "operator"},
            }
            assert table.message_for(0, 0)["view"]["ended"] == {"by": "operator"}
            record = table.record().to_json()
            assert record["ended"] == {"by": "operator"}
            verdict = verify(record, get)
            assert verdict.ok, verdict.problems
            with pytest.raises(Rejected) as again:
                await end(table.id)
            assert again.value.code == "not_open"
            fresh = await playing(lobby, start=False)
            assert await end(fresh.id) == "expired", "an open table expires, as before"

    run(scenario)


def test_the_command_ends_a_dealt_table_and_the_audit_log_keeps_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'end.db'}"

    async def deal() -> str:
        async with lobby_on(url, FakeClock()) as lobby:
            return (await playing(lobby)).id

    async def reread(table_id: str) -> dict[str, Any]:
        async with lobby_on(url, FakeClock()) as lobby:
            table = await lobby.residency.peek(table_id)
            assert table.match is not None and table.match.ended == {"by": "operator"}
            return table.record().to_json()

    table_id = asyncio.run(deal())
    assert main(["admin", "end", table_id, "--db", url, "--why", "a cheating ring"]) == 0
    assert capsys.readouterr().out == f"table {table_id}: ended\n"
    assert main(["admin", "end", table_id, "--db", url, "--why", "twice"]) == 1
    assert "it has ended" in capsys.readouterr().err
    assert main(["admin", "audit", "--db", url]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert line.endswith(f"end_table {table_id}: a cheating ring") and " cli:" in line
    record = asyncio.run(reread(table_id))
    assert record["ended"] == {"by": "operator"} and "cheating" not in str(record)
    assert verify(record, get).ok
