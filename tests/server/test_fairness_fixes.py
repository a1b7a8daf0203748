"""The deal's chain, fixed (issue 38, F1 to F5), in process on a fake clock: a reveal sent twice is
accepted; a turn-based table where a bot took a person's seat over verifies (its chain starts from
the seats as dealt and binds the takeover at its step), survives a restart and finishes (format
4); ``bot``, ``level`` and ``bot_from`` are bound by every receipt from the takeover on; a freed
seat's commitment is cleared for everyone; ``by`` is checked against the seats and bots commit
to nothing; and records of formats 1 to 3 verify as before."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import pytest

from kit.tables import FakeClock, commit_then_reveal, lobby_on, seated, settle
from ludoteca.bots.arena import play_match
from ludoteca.core import Match, MatchRecord, verify
from ludoteca.core.fairness import commitment, seat_commitment
from ludoteca.core.signing import SigningKey
from ludoteca.core.verify import Receipt, Verdict
from ludoteca.games import get
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.table import Table

DAY = 24 * 3600
SALT_A, SALT_B = "a" * 32, "b" * 32
ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "verify_deal.py"
FORGER = SigningKey.generate()


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def refused(code: str, call: Coroutine[Any, Any, None]) -> str:
    with pytest.raises(Rejected) as caught:
        await call
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def receipt(table: Table) -> Receipt:
    """What every state message shows: the table, its version and the chain's head then."""
    assert table.match is not None
    return Receipt(table.id, table.version, table.match.chain[-1])


def resigned(record: dict[str, Any], rechain: bool = True) -> dict[str, Any]:
    """A changed record signed again (as the server's key could), its chain's head computed
    again from the changed record: only receipts can tell."""
    parsed = MatchRecord.from_json(record)
    if rechain:
        game = get(parsed.game)
        match = Match.replay(game, parsed.params, parsed.deal(), parsed.players, parsed.actions)
        parsed.chain = match.chain[-1]
    signed: dict[str, Any] = parsed.sign(FORGER).to_json()
    return signed


def checked(record: dict[str, Any], receipts: Sequence[Receipt] = ()) -> Verdict:
    return verify(record, get, receipts=receipts)


def script(tmp_path: Path, record: dict[str, Any], receipts: Sequence[Receipt] = ()) -> str:
    """docs/verify_deal.py's first line for this record (and receipts)."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    args = [sys.executable, str(SCRIPT), str(path)]
    if receipts:
        kept = tmp_path / "receipts.json"
        kept.write_text(
            json.dumps(
                [{"table": r.table, "version": r.version, "chain": r.chain} for r in receipts]
            )
        )
        args += ["--receipt", str(kept)]
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    return done.stdout.splitlines()[0]


async def finish(table: Table, clock: FakeClock, delay: float) -> list[Receipt]:
    """Play to the end: a person to move plays their first legal action, a bot after its delay.
    Returns the receipt of every version."""
    watcher = await seated(table)
    receipts = [receipt(table)]
    while table.row.status == "playing":
        seat = table.to_move()
        assert seat is not None
        before = table.version
        if table.seats[seat].kind == "human":
            _, legal = table.seat_view(seat)
            await table.submit(seat, legal[0]["text"], table.version)
        else:
            await clock.advance(delay)
            await watcher.until(
                lambda before=before: table.version > before or table.row.status != "playing"
            )
        receipts.append(receipt(table))
    table.listeners.discard(watcher)
    return receipts


# ------------------------------------------------------------------ reveal, idempotent
def test_the_same_reveal_twice_is_accepted_and_another_is_bad_reveal() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(MemoryStorage(), clock) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest(bot=True)]
            table, _, ana = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            assert ana is not None
            await table.commit(0, seat_commitment("ana-seed", SALT_A))
            await lobby.join(table.id, "Bob", None)  # the last free seat: the table starts
            await table.commit(1, seat_commitment("bob-seed", SALT_B))
            assert table.summary()["revealing"]
            await table.reveal(0, "ana-seed", SALT_A)
            await table.reveal(0, "ana-seed", SALT_A)  # again, before the deal: accepted
            assert table.row.status == "starting" and table.waiting_for() == [1]
            await refused("bad_reveal", table.reveal(0, "ana-other", SALT_A))
            await table.reveal(1, "bob-seed", SALT_B)
            assert table.row.status == "playing" and table.match is not None
            head = table.match.chain[-1]
            await table.reveal(1, "bob-seed", SALT_B)  # again, after the deal: accepted
            await refused("bad_reveal", table.reveal(1, "bob-seed", SALT_A))
            assert table.match.chain[-1] == head and table.version == 0
            assert table.match.deal.contributions == ("ana-seed", "bob-seed", None)
            # a seat that revealed nothing is still told the match is dealt
            await refused("already_dealt", table.reveal(2, "x", SALT_A))

    run(scenario)


# --------------------------------------------------------------- F1, F2, F3: takeover
async def two_people_turn_based(lobby: Lobby) -> Table:
    """Ana and Bruno at a turn-based heroes table, dealt from both their seeds."""
    table, _, ana = await lobby.create(
        "heroes",
        players=2,
        seats=[SeatRequest(), SeatRequest()],
        name="Ana",
        start=False,
        pace="turn-based",
        turn_seconds=12 * 3600,
    )
    await lobby.join(table.id, "Bruno", None)
    assert ana is not None
    await commit_then_reveal(table, {0: "ana-seed", 1: "bruno-seed"})
    assert table.row.status == "playing"
    return table


async def quiet(table: Table) -> None:
    """Until no step is in flight at the table: the table's own steps (a turn it plays for a
    sleeper may be several) store on a worker thread for SQL while they hold its lock, so the
    turn read before they end would be stale, and time advanced meanwhile would run out the
    other seat's clock too."""
    while True:
        version = table.version
        await settle()
        async with table.lock:
            pass
        await settle()
        if table.version == version and not table.lock.locked():
            return


async def until_taken_over(table: Table, clock: FakeClock) -> tuple[int, list[Receipt]]:
    """The person to move first sleeps through three turns; the other plays in time. Returns the
    sleeper's seat and the receipt of every version until a bot took the seat over."""
    sleeper = table.to_move()
    assert sleeper is not None
    watcher = await seated(table)
    receipts = [receipt(table)]
    while table.seats[sleeper].kind == "human":
        before = table.version
        if table.to_move() != sleeper:
            seat = table.to_move()
            assert seat is not None
            _, legal = table.seat_view(seat)
            await table.submit(seat, legal[0]["text"], table.version)
        else:
            await clock.advance(12 * 3600)
            # the table plays for the sleeper (stored on a worker thread for SQL)
            await watcher.until(lambda before=before: table.version > before)
        await quiet(table)
        receipts.append(receipt(table))
    table.listeners.discard(watcher)
    return sleeper, receipts


def test_a_bot_takeover_verifies_survives_a_restart_and_finishes(
    tmp_path: Path, store_url: str
) -> None:
    """F1: the record of a table where a bot took a person's seat over verifies (the chain starts
    from the seats as dealt and binds the takeover at its step). F2: the table survives a restart
    (the taken-over seat's commitment and reveal still count) and finishes. F3: ``bot``,
    ``level`` and ``bot_from`` are bound by every receipt from the takeover on. In memory, on
    SQLite and on PostgreSQL (the restart reads the stored seats again)."""
    db: MemoryStorage | str = MemoryStorage() if store_url == "memory://" else store_url
    found: dict[str, Any] = {}

    async def before_restart() -> None:
        clock = FakeClock()
        async with lobby_on(db, clock, table_level="random") as lobby:
            table = await two_people_turn_based(lobby)
            sleeper, receipts = await until_taken_over(table, clock)
            taken = table.seats[sleeper]
            assert table.match is not None
            # taken over after the table's third move for the sleeper (the bot, its turn next,
            # may already have moved: the version can be past it)
            assert taken.kind == "bot" and taken.bot_from is not None
            assert 0 < taken.bot_from <= table.version
            step = table.match.steps[taken.bot_from - 1]
            assert (step.seat, step.by) == (sleeper, "table"), step
            assert taken.commitment == seat_commitment(
                ("ana-seed", "bruno-seed")[sleeper], "5" * 32
            )
            # the takeover extended the head at its step: what every seat is shown from now on
            dealt = table.match.players[1 - sleeper]
            assert not dealt.bot and table.match.players[sleeper].bot_from == taken.bot_from
            found.update(
                table=table.id,
                sleeper=sleeper,
                at=taken.bot_from,
                receipts=receipts,
                now=clock.now(),
            )

    async def after_restart() -> None:
        clock = FakeClock(found["now"])
        async with lobby_on(db, clock, table_level="random") as lobby:
            table = await lobby.residency.get(found["table"])
            assert table.status == "playing"  # not table_broken: the same deal, the same chain
            assert table.match is not None
            for kept in found["receipts"]:
                assert table.match.chain[kept.version] == kept.chain, kept.version
            found["receipts"] += await finish(table, clock, lobby.services.settings.bot_delay)
            assert table.row.status == "over"
            found["record"] = table.record().to_json()

    run(before_restart)
    run(after_restart)
    record, receipts = found["record"], found["receipts"]
    sleeper, at = found["sleeper"], found["at"]
    assert record["format"] == 5
    assert record["players"][sleeper]["bot_from"] == at
    assert record["players"][sleeper]["level"] == "random"
    assert record["contributions"][sleeper] is not None  # the person's reveal still counts
    verdict = checked(record, receipts)
    assert verdict.ok, verdict.problems
    assert verdict.receipts == len(receipts)
    assert script(tmp_path, record, receipts).startswith("OK")

    # F3: re-signed with the takeover moved, its level changed, or another person's seat marked
    # a bot's from the start (her steps re-marked too): every receipt from then on disagrees
    after = [r for r in receipts if r.version >= at]
    later = copy.deepcopy(record)
    later["players"][sleeper]["bot_from"] = at - 1
    for n, step in enumerate(later["actions"], 1):
        if step["seat"] == sleeper and n == at:
            step["by"] = "bot"
    level = copy.deepcopy(record)
    level["players"][sleeper]["level"] = "hard"
    other = copy.deepcopy(record)
    other["players"][1 - sleeper] |= {"bot": True, "level": "easy", "bot_from": 0}
    for step in other["actions"]:
        if step["seat"] == 1 - sleeper:
            step["by"] = "bot"
    for changed, first in ((level, at), (other, 0)):
        forged = resigned(changed)
        assert checked(forged).ok  # consistent by itself: only what was shown tells
        shown = [r for r in receipts if r.version >= first]
        for kept in shown[:3] + shown[-2:]:
            verdict = checked(forged, [kept])
            assert [p.check for p in verdict.problems] == ["receipt"], kept
        assert checked(forged, [r for r in receipts if r.version < first]).ok
        assert script(tmp_path, forged, shown[-1:]).startswith("FAILED: at version")
    moved = checked(resigned(later), after[:1])
    assert not moved.ok
    # without a takeover event the head is another: a format-3-style header no longer passes
    unbound = copy.deepcopy(record)
    del unbound["players"][sleeper]["bot_from"]
    for n, step in enumerate(unbound["actions"], 1):
        if step["seat"] == sleeper and n > at:
            step["by"] = "player"
    unbound["players"][sleeper] = {"name": unbound["players"][sleeper]["name"], "bot": False}
    assert [p.check for p in checked(resigned(unbound), after[:1]).problems] == ["receipt"]


# ------------------------------------------------------------------- F4: a freed seat
def test_a_freed_seats_commitment_is_cleared_for_the_next_person() -> None:
    """Bob commits and leaves before the start; Cy takes his seat. Cy's seat shows no
    commitment, the deal does not wait for Bob's, Cy cannot reveal Bob's seed, the seat left
    empty becomes a bot's with nothing, and the record the table signs verifies."""

    async def scenario() -> None:
        clock = FakeClock()
        db = MemoryStorage()
        async with lobby_on(db, clock) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest(), SeatRequest(bot=True)]
            table, _, ana = await lobby.create(
                "dice-heroes", players=4, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            assert ana is not None
            seat, bob = await lobby.join(table.id, "Bob", None)
            await table.commit(seat, seat_commitment("bob-seed", SALT_B))
            assert table.summary()["seats"][seat]["commitment"] is not None
            assert await lobby.leave(table.id, bob) == seat
            assert table.summary()["seats"][seat]["commitment"] is None
            stored = await db.load_table(table.id)
            assert stored is not None and stored.seats[seat].commitment is None
            again, _ = await lobby.join(table.id, "Cy", None)
            assert again == seat and table.seats[seat].commitment is None
            await table.commit(0, seat_commitment("ana-seed", SALT_A))
            await lobby.start(table.id, ana)
            assert table.waiting_for() == [seat], "Cy has committed to nothing yet"
            watcher = await seated(table)
            await clock.advance(10)
            await watcher.until(lambda: table.summary()["revealing"])
            message = await refused("bad_reveal", table.reveal(seat, "bob-seed", SALT_B))
            assert "committed to nothing" in message
            await table.reveal(0, "ana-seed", SALT_A)
            assert table.row.status == "playing" and table.match is not None
            ana_promised = seat_commitment("ana-seed", SALT_A)
            assert table.match.deal.commitments == (ana_promised, None, None, None)
            await finish(table, clock, lobby.services.settings.bot_delay)
            record = table.record().to_json()
            verdict = checked(record)
            assert verdict.ok, verdict.problems
            assert record["commitments"][seat] is None and record["contributions"][seat] is None

    run(scenario)


# ---------------------------------------------------------- F5: by against the seats
def commit_record(label: str, game: str = "dice-heroes", players: int = 3) -> dict[str, Any]:
    secret = commitment(label)
    match = play_match(get(game), players, secret, ["random"] * players, table=label, commit=True)
    signed: dict[str, Any] = match.record().sign(FORGER).to_json()
    return signed


def test_by_is_checked_against_the_seats_and_bots_commit_to_nothing(tmp_path: Path) -> None:
    records = [commit_record(f"f5-{n}") for n in range(12)]
    bots = people = 0
    for record in records:
        assert record["format"] == 4
        for seat, player in enumerate(record["players"]):
            steps = {s["by"] for s in record["actions"] if s["seat"] == seat}
            if player["bot"]:
                bots += 1
                assert record["commitments"][seat] is None  # simulate --commit: bots commit nothing
                assert steps <= {"bot"}
            else:
                people += 1
                assert steps <= {"player"}
        assert checked(record).ok
    assert bots and people  # the sample holds both kinds of seat
    record = next(r for r in records if any(p["bot"] for p in r["players"]))
    bot = next(s for s, p in enumerate(record["players"]) if p["bot"])
    person = next((s for s, p in enumerate(record["players"]) if not p["bot"]), None)

    every_bot = copy.deepcopy(record)
    for step in every_bot["actions"]:
        step["by"] = "bot"
    committed_bot = copy.deepcopy(record)
    committed_bot["commitments"][bot] = "c" * 64
    table_for_bot = copy.deepcopy(record)
    next(s for s in table_for_bot["actions"] if s["seat"] == bot)["by"] = "table"
    late = copy.deepcopy(record)
    late["players"][bot]["bot_from"] = len(late["actions"]) + 1
    late["players"][bot]["bot"] = True
    cases = [committed_bot, table_for_bot, late]
    if person is not None and any(s["seat"] == person for s in record["actions"]):
        cases.append(every_bot)
    for changed in cases:
        forged = resigned(changed, rechain=False)  # the seats are checked before the deal
        verdict = checked(forged)
        assert [p.check for p in verdict.problems] == ["seats"], verdict.problems
        assert script(tmp_path, forged).startswith("FAILED: ")
    # a person whose clock ran out: "table" at a person's seat is fine
    if person is not None:
        timed_out = copy.deepcopy(record)
        mine = [s for s in timed_out["actions"] if s["seat"] == person]
        if mine:
            mine[0]["by"] = "table"
            verdict = checked(resigned(timed_out, rechain=False))
            assert "seats" not in [p.check for p in verdict.problems]


# ----------------------------------------------------- older formats: as they were
@pytest.mark.parametrize(
    "path", sorted((ROOT / "tests" / "core" / "format3").glob("*.json")), ids=lambda p: p.stem
)
def test_format_3_records_verify_as_before(tmp_path: Path, path: Path) -> None:
    """Records signed before format 4 (written by the previous release) keep verifying, and a
    format-3 record is judged by format 3's rules (no check of the seats: every step re-marked
    ``by: "bot"`` and re-signed still passes, as it did)."""
    record = json.loads(path.read_text())
    assert record["format"] == 3
    assert checked(record).ok
    assert script(tmp_path, record).startswith("OK")
    every_bot = copy.deepcopy(record)
    for step in every_bot["actions"]:
        step["by"] = "bot"
    assert checked(resigned(every_bot)).ok
    as_four = resigned(record | {"format": 4})
    assert [p.check for p in checked(as_four).problems] in (["chain"], ["seats"])
