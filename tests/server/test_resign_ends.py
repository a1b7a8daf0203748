"""Resigning a 2-player match, in process: the match ends at once, the other seat the winner
(``ended``: ``{"by": "resign", "seat": S}``, bound by the chain and the signature); the record
verifies with every verifier and fails when its ending is changed; a bot's seat, a resign before
the deal or after the end is refused and changes nothing; a restart reads the ending back; and a
rated resign moves the ratings, the resigner down and the other up (docs/protocol.md#resigning).
"""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from test_accounts_service import PASSWORD, Clock, accounts

from kit.tables import FakeClock, commit_then_reveal, lobby_on, seated
from ludoteca.core import MatchRecord, SigningKey, verify
from ludoteca.core.ending import ended_outcome, log_status, resigned
from ludoteca.games import get
from ludoteca.server.accounts.play import _result, _unrated
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.storage import ActionRow, Append, SeatRow, TableRow
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.resign import resign
from ludoteca.server.table.table import Table

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "verify_deal.py"
CLEAN_ROOM = ROOT / "tests" / "cleanroom" / "verifier.py"  # written from docs/records.md alone
FORGER = SigningKey.generate()


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def refused(code: str, call: Coroutine[Any, Any, None]) -> str:
    with pytest.raises(Rejected) as caught:
        await call
    assert caught.value.code == code, caught.value.message
    return caught.value.message


async def dealt(lobby: Lobby, bot: bool = False) -> Table:
    """Ana and Bruno (or a bot) at a two-seat heroes table, dealt."""
    seats = [SeatRequest(), SeatRequest(bot=True, level="random") if bot else SeatRequest()]
    table, _, _ = await lobby.create(
        "heroes", players=2, seats=seats, turn_seconds=600, name="Ana", start=bot
    )
    await refused("not_started", resign(table, 0))
    if not bot:
        await lobby.join(table.id, "Bruno", None)
    await commit_then_reveal(table, {0: "ana-seed"} | ({} if bot else {1: "bruno-seed"}))
    assert table.row.status == "playing" and table.match is not None
    return table


def test_a_resign_at_two_ends_the_match_and_the_other_seat_wins(tmp_path: Path) -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table = await dealt(lobby)
            watcher = await seated(table)
            match = table.match
            assert match is not None and match.to_move is not None
            first = match.to_move
            await table.submit(first, match.legal(first)[0], table.version)
            version = table.version
            await resign(table, first)  # after a move of their own: a resign, not an abort
            await watcher.until(lambda: table.row.status == "over")
            other = 1 - first
            ended = {"by": "resign", "seat": first}
            assert table.row.outcome == {
                "winners": [other],
                "reason": "resigned",
                "draw": False,
                "ended": ended,
            }
            assert [s.kind for s in table.seats] == ["human", "human"], "no bot took a seat"
            assert table.version == version, "a resign is no step"
            view = table.message_for(other, 0)["view"]
            assert view["over"] and view["ended"] == ended and view["to_move"] is None
            assert view["outcome"] == {"winners": [other], "reason": "resigned", "draw": False}
            await refused("match_over", resign(table, other))
            await refused("match_over", resign(table, first))
            await refused("match_over", table.submit(other, "pass", table.version))
            assert log_status(table.row.outcome) == "over", "the public log: a finished match"
            stored = await db.load_table(table.id)
            assert stored is not None and (stored.status, stored.outcome) == (
                "over",
                table.row.outcome,
            )
            record = table.record().to_json()
        assert record["ended"] == ended and record["players"][first]["bot"] is False
        verdict = verify(record, get)
        assert verdict.ok, verdict.problems
        assert verdict.outcome is not None and verdict.outcome.winners == (other,)
        path = tmp_path / "resigned.json"
        path.write_text(json.dumps(record))
        script = subprocess.run(
            [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
        )
        assert script.returncode == 0, script.stdout
        assert f"OK: seat {first + 1} resigned the match: seat {other + 1} wins" in script.stdout
        clean = subprocess.run(
            [sys.executable, str(CLEAN_ROOM), str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert clean.returncode == 0, clean.stdout
        said = f'outcome {{"draw": false, "reason": "resigned", "winners": [{other}]}}'
        assert ": ok: heroes match, 1 actions replayed, " + said in clean.stdout, clean.stdout
        async with lobby_on(db, clock) as again:  # a restart reads the ending back
            table = await again.residency.peek(table.id)
            assert table.match is not None and table.match.ended == ended
            assert table.record().to_json()["chain"] == record["chain"]

    run(scenario)


def test_a_resigned_record_whose_ending_changed_fails() -> None:
    db = MemoryStorage()

    async def scenario() -> dict[str, Any]:
        async with lobby_on(db, FakeClock()) as lobby:
            table = await dealt(lobby)
            await resign(table, 0)
            return table.record().to_json()

    record = asyncio.run(scenario())

    def changed(edit: Callable[[dict[str, Any]], None], sign: bool = True) -> list[str]:
        copied = copy.deepcopy(record)
        edit(copied)
        if sign:  # signed again (only the key's holder could), the chain left as it was
            copied = MatchRecord.from_json(copied).sign(FORGER).to_json()
        return [f"{p.check}: {p.message}" for p in verify(copied, get).problems]

    other = {"by": "resign", "seat": 1}
    assert changed(lambda r: r.__setitem__("ended", other), sign=False)[0].startswith("signature: ")
    assert changed(lambda r: r.pop("ended"))[0].startswith("chain: "), "the chain binds it"
    assert changed(lambda r: r.__setitem__("ended", other))[0].startswith("chain: ")
    abort = {"by": "abort", "seat": 0}
    assert changed(lambda r: r.__setitem__("ended", abort))[0].startswith("chain: ")
    lost = {"winners": [0], "reason": "resigned", "draw": False}
    (problem,) = changed(lambda r: r.__setitem__("outcome", lost))
    assert problem.startswith("outcome: outcome differs"), problem
    (problem,) = changed(lambda r: r.__setitem__("ended", {"by": "resign"}), sign=False)
    assert problem.startswith("record: field 'ended' must be"), problem


def test_a_bots_seat_may_not_resign_and_nothing_changes() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        async with lobby_on(db, FakeClock()) as lobby:
            table = await dealt(lobby, bot=True)
            match = table.match
            assert match is not None
            version, head = table.version, match.chain[-1]
            message = await refused("not_your_turn", resign(table, 1))
            assert "only a person may resign" in message
            assert (table.row.status, table.version, match.chain[-1]) == ("playing", version, head)
            assert match.ended is None
            await resign(table, 0)  # the person may: the bot wins
            assert table.row.outcome is not None and table.row.outcome["winners"] == [1]

    run(scenario)


def test_a_rated_resign_moves_the_ratings_the_resigner_down() -> None:
    async def scenario() -> None:
        clock = Clock()
        storage = MemoryStorage()
        people = accounts(clock, storage)
        try:
            mia = (await people.sign_up("Mia", PASSWORD, "c", None)).account
            eva = (await people.sign_up("Eva", PASSWORD, "c", None)).account
            seats = [SeatRow(0, "human", "Mia", token_hash="m"), SeatRow(1, "human", "Eva")]
            row = TableRow("t1", "heroes", {"players": 2}, "s", "c", "open", 60, 1.0, seats=seats)
            await storage.create_table(row)
            await people.hold_seat(mia, "t1", 0, "a")
            await people.hold_seat(eva, "t1", 1, "b")
            await people.mark_rated("t1", "heroes")
            await storage.start_table("t1", seats, 2.0)
            await storage.append(Append("t1", ActionRow(1, 0, "draw", "player", 3.0), 3.0, None))
            ended = resigned(0)  # the outcome as the server stores it
            outcome = ended_outcome(ended).to_json() | {"ended": ended}
            await storage.end_table("t1", 1, outcome)
            assert await people.rate_finished() == 1, "a resigned match is rated"
            said = await people.table_rating("t1")
            assert said["state"] == "rated", said
            change = {c["name"]: c for c in said["changes"]}
            assert change["Mia"]["after"] < change["Mia"]["before"], said
            assert change["Eva"]["after"] > change["Eva"]["before"], said
            results = {}
            for name in ("mia", "eva"):
                profile = await people.profile(name)
                assert list(profile["ratings"]) == ["heroes"]
                results[name] = [m["result"] for m in profile["matches"]]
            assert results == {"mia": ["lost"], "eva": ["won"]}
        finally:
            people.close()

    asyncio.run(scenario())


def test_a_resigned_table_has_a_result_and_is_rated() -> None:
    row = TableRow("t", "heroes", {"players": 2}, "s", "c", "over", 60, 1.0)
    ended = resigned(1)
    row.outcome = ended_outcome(ended).to_json() | {"ended": ended}
    assert row.outcome["winners"] == [0] and row.outcome["reason"] == "resigned"
    assert _unrated(row) is None and log_status(row.outcome) == "over"
    assert (_result(row, 0), _result(row, 1)) == ("won", "lost")


def test_a_step_stored_meanwhile_by_another_process_does_not_refuse_the_resign() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table = await dealt(lobby)
            match = table.match
            assert match is not None and match.to_move is not None
            mover = match.to_move
            text, version = match.legal(mover)[0], table.version
            # another process stores the next step: this one has not read it yet
            await db.append(
                Append(table.id, ActionRow(version + 1, mover, text, "player", 1.0), 1.0, None)
            )
            assert table.version == version
            await resign(table, 1 - mover)
            assert table.row.status == "over" and table.version == version + 1
            record = table.record().to_json()
        assert [a["action"] for a in record["actions"]] == [text]
        assert record["ended"] == {"by": "resign", "seat": 1 - mover}
        assert record["outcome"]["winners"] == [mover]
        assert verify(record, get).ok

    run(scenario)
