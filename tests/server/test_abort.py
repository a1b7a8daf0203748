"""Aborting, in process: a person may end a dealt match before their own first move, with no
winner; the record states it, verifies, and fails when its ``ended`` is changed; every bad abort
is refused and changes nothing; the daily limit is counted from the stored aborts (a restart
keeps it); an aborted rated match moves no rating; and a restart reads the ending back."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from test_accounts_service import PASSWORD, Clock, accounts

from kit.matches import ended_record
from kit.tables import FakeClock, commit_then_reveal, lobby_on, seated
from ludoteca.bots.arena import play_match
from ludoteca.core import Match, MatchOverError, MatchRecord, Player, SigningKey, Step, verify
from ludoteca.core.ending import log_status
from ludoteca.core.publog import status_entry
from ludoteca.games import get
from ludoteca.server.accounts.play import _result, _unrated
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.storage import ActionRow, Append, SeatRow, Storage, TableRow
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.ending import abort, abort_key
from ludoteca.server.table.table import Table

ANA = abort_key("ana-account", "203.0.113.7")
FORGER = SigningKey.generate()


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def refused(code: str, call: Coroutine[Any, Any, None]) -> str:
    with pytest.raises(Rejected) as caught:
        await call
    assert caught.value.code == code, caught.value.message
    return caught.value.message


async def dealt(lobby: Lobby, game: str = "heroes") -> Table:
    """Ana and Bruno at a two-seat table, dealt."""
    seats = [SeatRequest(), SeatRequest()]
    table, _, _ = await lobby.create(
        game, players=2, seats=seats, turn_seconds=600, name="Ana", start=False
    )
    await lobby.join(table.id, "Bruno", None)
    await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
    assert table.row.status == "playing" and table.match is not None
    return table


def resigned(record: dict[str, Any]) -> dict[str, Any]:
    """A changed record signed again (only the key's holder could), its chain left as it was."""
    return MatchRecord.from_json(record).sign(FORGER).to_json()


def test_a_person_aborts_before_their_first_move_and_the_record_says_so() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            seats = [SeatRequest(), SeatRequest()]
            early, _, _ = await lobby.create(
                "heroes", players=2, seats=seats, turn_seconds=600, name="Ana", start=False
            )
            await refused("not_started", abort(early, 0, ANA))
            table = await dealt(lobby)
            watcher = await seated(table)
            match = table.match
            assert match is not None
            first = match.to_move
            assert first is not None
            other = 1 - first
            assert table.message_for(first, 0)["abort"] and table.message_for(other, 0)["abort"]
            assert table.message_for(None, 0)["abort"] is False, "a spectator holds no seat"
            await table.submit(first, match.legal(first)[0], table.version)
            # the one who moved may no longer abort: refused, nothing changed
            version, head = table.version, match.chain[-1]
            message = await refused("not_abortable", abort(table, first, ANA))
            assert "made a move of its own" in message
            assert table.message_for(first, 0)["abort"] is False
            assert (table.row.status, table.version, match.chain[-1]) == ("playing", version, head)
            assert await db.count_aborts(ANA, 0) == 0, "a refused abort is not counted"
            # the other, who has not moved yet, may: the table ends at once for everyone
            await abort(table, other, ANA)
            await watcher.until(lambda: table.row.status == "over")
            assert table.row.outcome == {
                "winners": [],
                "reason": "aborted",
                "draw": False,
                "ended": {"by": "abort", "seat": other},
            }
            view = table.message_for(first, 0)["view"]
            assert view["over"] and view["ended"] == {"by": "abort", "seat": other}
            assert view["to_move"] is None and table.message_for(first, 0)["legal"] == []
            await refused("match_over", abort(table, other, ANA))
            await refused("match_over", table.submit(other, "pass", table.version))
            record = table.record().to_json()
            assert record["ended"] == {"by": "abort", "seat": other}
            assert list(record).index("ended") == list(record).index("actions") + 1
            assert record["secret"] and record["seed"], "the deal is revealed: the match is over"
            verdict = verify(record, get)
            assert verdict.ok, verdict.problems
            assert verdict.outcome is not None and verdict.outcome.reason == "aborted"
            stored = await db.load_table(table.id)
            assert stored is not None and stored.status == "over"
            assert stored.outcome == table.row.outcome
            assert await db.count_aborts(ANA, clock.now() - 1) == 1
        async with lobby_on(db, clock) as again:  # a restart reads the ending back
            table = await again.residency.peek(table.id)
            assert table.match is not None and table.match.ended == {"by": "abort", "seat": other}
            assert table.record().to_json()["chain"] == record["chain"]

    run(scenario)


def test_an_aborted_record_whose_ending_changed_fails() -> None:
    db = MemoryStorage()

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table = await dealt(lobby, "dice-heroes")
            match = table.match
            assert match is not None and match.to_move is not None
            await abort(table, match.to_move, ANA)
            record = table.record().to_json()
        seat = record["ended"]["seat"]

        def changed(edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
            copied = copy.deepcopy(record)
            edit(copied)
            return copied

        def checks(data: dict[str, Any]) -> list[str]:
            return [f"{p.check}: {p.message}" for p in verify(data, get).problems]

        removed = changed(lambda r: r.pop("ended"))
        assert checks(removed) == [
            "signature: the signature by key "
            f"{record['signature']['key_id']} does not match the record's content"
        ]
        (problem,) = checks(resigned(removed))
        assert problem.startswith("chain: "), "the chain binds the ending"
        other = changed(lambda r: r.__setitem__("ended", {"by": "abort", "seat": 1 - seat}))
        assert checks(other)[0].startswith("signature: ")
        assert checks(resigned(other))[0].startswith("chain: ")
        operator = changed(lambda r: r.__setitem__("ended", {"by": "operator"}))
        assert checks(resigned(operator))[0].startswith("chain: ")
        for bad in ({"by": "abort"}, {"by": "abort", "seat": 2}, {"by": "nobody"}, None, []):
            malformed = changed(lambda r, b=bad: r.__setitem__("ended", b))
            (problem,) = checks(malformed)
            assert problem.startswith("record: field 'ended' must be"), problem
        won = changed(lambda r: r.__setitem__("outcome", {"winners": [0], "reason": "score"}))
        assert checks(resigned(won))[0].startswith("outcome: outcome differs")
        as_four = changed(lambda r: r.__setitem__("format", 4))
        assert checks(as_four) == ["record: unknown field(s) for format 4: ended, prelude"]

    run(scenario)


def test_the_daily_limit_holds_across_a_restart() -> None:
    db = MemoryStorage()
    bruno = abort_key(None, "198.51.100.9")  # a guest: counted by the address they play from

    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, aborts_per_day=2) as lobby:
            for _ in range(2):
                table = await dealt(lobby)
                await abort(table, 0, bruno)
                clock.t += 3600
        async with lobby_on(db, clock, aborts_per_day=2) as again:
            table = await dealt(again)
            message = await refused("abort_limit", abort(table, 0, bruno))
            assert "2 matches in the last 24 hours" in message
            assert table.row.status == "playing", "refused: nothing changed"
            await abort(table, 0, ANA)  # another person is not counted against Bruno's
            clock.t += 22 * 3600 + 1  # the first abort is now more than a day old
            table = await dealt(again)
            await abort(table, 0, bruno)

    run(scenario)


def test_an_aborted_rated_table_is_claimed_and_moves_no_rating() -> None:
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
            ended = {"by": "abort", "seat": 1}
            outcome = {"winners": [], "reason": "aborted", "draw": False, "ended": ended}
            await storage.end_table("t1", 1, outcome, (ANA, 4.0))
            assert await people.rate_finished() == 0, "claimed, and no rating moved"
            said = await people.table_rating("t1")
            assert (said["state"], said["reason"]) == ("not_rated", "the match was aborted")
            assert said["changes"] == []
            for name in ("mia", "eva"):
                profile = await people.profile(name)
                assert profile["ratings"] == {}, "not a played match: no rating, none counted"
                assert [(m["result"], m["change"]) for m in profile["matches"]] == [
                    ("aborted", None)
                ]
        finally:
            people.close()

    asyncio.run(scenario())


def test_an_aborted_or_ended_table_moves_no_rating_and_has_no_result() -> None:
    row = TableRow("t", "heroes", {"players": 2}, "s", "c", "over", 60, 1.0)
    ended = {"by": "abort", "seat": 1}
    row.outcome = {"winners": [], "reason": "aborted", "draw": False, "ended": ended}
    assert _unrated(row) == "the match was aborted" and _result(row, 0) == "aborted"
    row.outcome = {"winners": [], "reason": "operator", "draw": False, "ended": {"by": "operator"}}
    assert _unrated(row) == "the operator ended the match" and _result(row, 1) == "ended"
    assert log_status(row.outcome) == "ended"
    row.outcome = {"winners": [], "reason": "dragon", "draw": False}
    assert _unrated(row) is None and _result(row, 0) == "lost"
    assert log_status(row.outcome) == "over"
    # the public log says how a table ended: over, aborted or ended (by the operator)
    entry = json.loads(status_entry("t", "aborted", 3, 5.0))
    assert (entry["status"], entry["version"]) == ("aborted", 3)
    with pytest.raises(ValueError, match="a status entry says one of"):
        status_entry("t", "abandoned", 3, 5.0)


@pytest.mark.parametrize("store", ["memory", "sqlite"])
def test_the_stores_end_a_table_only_at_its_version(store: str, tmp_path: Any) -> None:
    async def scenario() -> None:
        db: Storage | str = MemoryStorage() if store == "memory" else f"sqlite:///{tmp_path}/a.db"
        clock = FakeClock()
        async with lobby_on(db, clock) as lobby:
            table = await dealt(lobby)
            storage = table.services.storage
            outcome = {"winners": [], "reason": "operator", "draw": False}
            with pytest.raises(Exception, match="not playing at version"):
                await storage.end_table(table.id, table.version + 1, outcome, (ANA, 1.0))
            assert await storage.count_aborts(ANA, 0) == 0
            stored = await storage.load_table(table.id)
            assert stored is not None and stored.status == "playing"
            await storage.end_table(table.id, table.version, outcome, (ANA, 5.0))
            stored = await storage.load_table(table.id)
            assert stored is not None and (stored.status, stored.outcome) == ("over", outcome)
            assert [await storage.count_aborts(ANA, t) for t in (5.0, 5.5)] == [1, 0]

    run(scenario)


def test_a_match_ends_only_in_a_format_that_states_it_and_only_once() -> None:
    older = play_match(get("heroes"), 2, "ab" * 32, ["random", "random"], commit=True)
    assert older.deal.format == 4
    problem = older.ending_problem({"by": "operator"})
    assert problem == "a record of format 4 cannot state an end: play it out"
    record = ended_record("operator", moves=2)
    match = Match.replay(
        get(record["game"]),
        record["params"],
        MatchRecord.from_json(record).deal(),
        [Player(p["name"], p["bot"], p.get("level")) for p in record["players"]],
        [Step(a["seat"], a["action"], a["by"]) for a in record["actions"]],
    )
    assert match.ending_problem({"by": "abort", "seat": 5}) is not None, "no such seat"
    match.end({"by": "operator"})
    assert match.chain[-1] == record["chain"] and match.unended is not None
    with pytest.raises(MatchOverError, match="ended already"):
        match.end({"by": "operator"})
    with pytest.raises(MatchOverError):
        match.act(0, "draw")
