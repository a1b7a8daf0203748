"""Record format 5 (docs/fairness.md#the-prelude-format-5), in process on a fake clock: every
event from the table's creation to the deal is a link of the chain, each state message before the
deal carries the events and their head, the record verifies with every receipt (before and after
the deal), ``docs/verify_deal.py`` agrees, and a record whose prelude breaks a rule, or says other
than the record, fails the ``prelude`` check, even signed again."""

from __future__ import annotations

import asyncio
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_fairness_fixes import SCRIPT, resigned

from kit.tables import FakeClock, lobby_on, seated
from ludoteca.core import Receipt, verify
from ludoteca.core.fairness import seat_commitment
from ludoteca.core.prelude import prelude_heads
from ludoteca.core.witness import Witness
from ludoteca.games import get
from ludoteca.server.lobby.lobby import SeatRequest
from ludoteca.server.storage.memory import MemoryStorage

SALT_A, SALT_B, SALT_C = "a" * 32, "b" * 32, "c" * 32


def played() -> tuple[dict[str, Any], list[dict[str, Any]], Witness]:
    """Ana opens a three-seat table; Cy sits, commits and leaves; Bob sits and commits; Ana
    commits and starts it (a bot takes the free seat); the commitments close; Ana reveals, Bob
    withholds. The record, every message Ana's seat was sent, and Ana's client's witness."""
    sent: list[dict[str, Any]] = []

    async def scenario() -> dict[str, Any]:
        clock = FakeClock()
        async with lobby_on(MemoryStorage(), clock) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest()]
            table, _, ana = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            assert ana is not None

            def shown() -> None:
                sent.append(copy.deepcopy(table.message_for(0, 0)))

            shown()
            _, cy = await lobby.join(table.id, "Cy", 1)
            await table.commit(1, seat_commitment("cy-seed", SALT_C))
            await lobby.leave(table.id, cy)
            await lobby.join(table.id, "Bob", 1)
            await table.commit(1, seat_commitment("bob-seed", SALT_B))
            shown()
            await table.commit(0, seat_commitment("ana-seed", SALT_A))
            shown()
            await lobby.start(table.id, ana)
            shown()
            assert table.summary()["revealing"]
            await table.reveal(0, "ana-seed", SALT_A)
            shown()
            watcher = await seated(table)
            await clock.advance(10)
            await watcher.until(lambda: table.row.status == "playing")
            match = table.match
            assert match is not None
            shown()
            while (seat := match.to_move) is not None:
                by = "bot" if table.seats[seat].kind == "bot" else "player"
                await table.submit(seat, match.legal(seat)[0], None, by)
            shown()
            return table.record().to_json()

    record = asyncio.run(scenario())
    witness = Witness(record["table"], 0, seat_commitment("ana-seed", SALT_A))
    for message in sent:
        witness.see(message)
    return record, sent, witness


def test_the_chain_starts_at_the_creation_and_every_receipt_verifies(tmp_path: Path) -> None:
    record, sent, witness = played()
    assert record["format"] == 5
    kinds = [(e["event"], e.get("seat")) for e in record["prelude"]]
    assert kinds == [
        ("create", None),
        ("sit", 0),
        ("sit", 1),
        ("commit", 1),
        ("leave", 1),  # Cy's commitment goes with Cy
        ("sit", 1),
        ("commit", 1),
        ("commit", 0),
        ("sit", 2),  # the bot the start seated
        ("close", None),
        ("reveal", 0),
        ("withheld", 1),  # Bob's, at the deal
    ]
    assert record["prelude"][8] == {
        "event": "sit",
        "seat": 2,
        "name": record["players"][2]["name"],
        "bot": True,
        "level": record["players"][2]["level"],
    }
    before = [m for m in sent if m["prelude"]]
    assert before and all(m["chain"] == prelude_heads(m["prelude"])[-1] for m in before)
    assert all(m["prelude"] is None for m in sent if m["table"]["status"] == "playing")
    assert witness.problems == [] and witness.revealed
    kinds_kept = {"prelude" in r for r in witness.receipts}
    assert kinds_kept == {True, False}, "receipts before and after the deal"
    receipts = [Receipt.from_json(r) for r in witness.receipts]
    verdict = verify(record, get, receipts=receipts)
    assert verdict.ok, verdict.problems
    assert verdict.receipts == len(receipts)
    # the standalone verifier agrees, receipts before the deal included
    path, kept = tmp_path / "record.json", tmp_path / "receipts.json"
    path.write_text(json.dumps(record))
    kept.write_text(json.dumps(witness.receipts))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(path), "--receipt", str(kept)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.startswith("OK"), done.stdout
    assert "the prelude, from the table's creation" in done.stdout


def broken(record: dict[str, Any], change: Any) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    change(changed["prelude"])
    return resigned(changed)


CHANGES = {
    "no close": lambda p: p.pop(9),
    "the creation moved": lambda p: p.insert(1, p.pop(0)),
    "a sit at a taken seat": lambda p: p.pop(4),
    "a commitment after the close": lambda p: p.insert(10, p.pop(7)),
    "a reveal that does not open": lambda p: p[10].update(salt="d" * 32),
    "a withheld reveal not marked": lambda p: p.pop(11),
    "an unknown field": lambda p: p[2].update(extra=1),
    "a bot that commits": lambda p: p.insert(
        9, {"event": "commit", "seat": 2, "commitment": "0" * 64}
    ),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_a_prelude_that_breaks_a_rule_fails_even_signed_again(tmp_path: Path, name: str) -> None:
    record, _, _ = played()
    changed = broken(record, CHANGES[name])
    verdict = verify(changed, get)
    assert [p.check for p in verdict.problems] == ["prelude"], verdict.problems
    path = tmp_path / "record.json"
    path.write_text(json.dumps(changed))
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert done.stdout.startswith("FAILED"), done.stdout


def test_a_prelude_that_says_other_than_the_record_fails(tmp_path: Path) -> None:
    record, _, witness = played()
    # the record's seat 1 given to another name, the prelude left as it was
    other = copy.deepcopy(record)
    other["players"][1]["name"] = "Mallory"
    verdict = verify(resigned(other), get)
    assert [p.check for p in verdict.problems] == ["prelude"]
    assert "seat 1: the prelude seats 'Bob', the record 'Mallory'" in verdict.problems[0].message
    # the prelude rewritten to agree (Mallory sat there): only receipts tell
    both = copy.deepcopy(other)
    both["prelude"][5]["name"] = "Mallory"
    forged = resigned(both)
    assert verify(forged, get).ok
    at = next(r for r in witness.receipts if r.get("prelude") == 8)  # after Ana's commitment
    verdict = verify(forged, get, receipts=[Receipt.from_json(at)])
    assert [p.check for p in verdict.problems] == ["receipt"]
    assert "after event 8 before the deal" in verdict.problems[0].message


def test_receipts_before_the_deal_are_read_strictly() -> None:
    good = {"table": "t", "prelude": 3, "chain": "0" * 64}
    assert Receipt.from_json(good).to_json() == good
    for bad in (
        good | {"prelude": 0},
        good | {"prelude": True},
        good | {"version": 1},
        good | {"prelude": "3"},
    ):
        with pytest.raises(ValueError, match="prelude"):
            Receipt.from_json(bad)


def test_a_client_reveals_only_against_a_head_it_checked() -> None:
    """The witness (as the web table does): at the seat Cy committed at and left, Ana's own
    commitment is the one it checks; it reveals once the head shows the close; a prelude that
    rewrote her commitment, or another secret, is said and stops the reveal."""

    async def scenario() -> tuple[Witness, dict[str, Any]]:
        async with lobby_on(MemoryStorage(), FakeClock()) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest()]
            table, _, bob = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=None, name="Bob", start=False
            )
            assert bob is not None
            await table.commit(0, seat_commitment("bob-seed", SALT_B))
            _, cy = await lobby.join(table.id, "Cy", 1)
            await table.commit(1, seat_commitment("cy-seed", SALT_C))
            await lobby.leave(table.id, cy)
            await lobby.join(table.id, "Ana", 1)
            witness = Witness(table.id, 1, seat_commitment("ana-seed", SALT_A))
            witness.see(copy.deepcopy(table.message_for(1, 0)))
            assert not witness.may_reveal() and witness.problems == []
            await table.commit(1, witness.own)
            witness.see(copy.deepcopy(table.message_for(1, 0)))
            assert not witness.may_reveal(), "the commitments are still open"
            await lobby.start(table.id, bob)
            message = copy.deepcopy(table.message_for(1, 0))
            witness.see(message)
            return witness, message

    witness, message = asyncio.run(scenario())
    assert message["table"]["revealing"] and witness.may_reveal() and witness.problems == []
    kept = len(witness.receipts)
    # the same table shown again with Ana's commitment rewritten (Cy's handed over to her)
    handed = copy.deepcopy(message)
    for event in handed["prelude"]:
        if event["event"] == "commit" and event["commitment"] == witness.own:
            event["commitment"] = seat_commitment("cy-seed", SALT_C)
    handed["chain"] = prelude_heads(handed["prelude"])[-1]
    witness.see(handed)
    assert set(witness.problems) == {"history", "commitment"} and not witness.may_reveal()
    assert len(witness.receipts) == kept + 1, "what it was shown is kept: it proves the change"
    # another secret
    other = Witness(message["table"]["id"], 1, witness.own)
    other.see(message)
    secret = copy.deepcopy(message)
    secret["table"]["commitment"] = "0" * 64
    other.see(secret)
    assert "secret" in other.problems and not other.may_reveal()


def test_a_change_stored_without_its_event_is_bound_before_the_next_phase() -> None:
    """A process stopped between storing a change and its event (a commitment, then a reveal):
    the next close and deal add what the stored seats show, in the prelude's order, and the
    record verifies; an event already there is never added twice."""

    async def scenario() -> dict[str, Any]:
        clock = FakeClock()
        db = MemoryStorage()
        async with lobby_on(db, clock) as lobby:
            seats = [SeatRequest(), SeatRequest()]
            table, _, _ = await lobby.create(
                "dice-heroes", players=2, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            await lobby.join(table.id, "Bob", 1)
            ana = seat_commitment("ana-seed", SALT_A)
            # Ana's commitment stored, its event lost with the process that stored it
            await db.commit_seat(table.id, 0, ana)
            table.seats[0].commitment = ana
            await table.commit(1, seat_commitment("bob-seed", SALT_B))  # the last: they close
            kinds = [e["event"] for e in table.row.prelude]
            assert kinds[-3:] == ["commit", "commit", "close"]
            assert table.row.prelude[-3]["commitment"] == ana
            # Bob's reveal stored, its event lost; Ana's reveal deals
            await db.reveal_seat(table.id, 1, "bob-seed", SALT_B)
            table.seats[1].contribution, table.seats[1].salt = "bob-seed", SALT_B
            await table.reveal(0, "ana-seed", SALT_A)
            assert table.row.status == "playing"
            reveals = [e["seat"] for e in table.row.prelude if e["event"] == "reveal"]
            assert sorted(reveals) == [0, 1] and len(reveals) == 2
            assert not [e for e in table.row.prelude if e["event"] == "withheld"]
            match = table.match
            assert match is not None
            while (seat := match.to_move) is not None:
                await table.submit(seat, match.legal(seat)[0], None)
            return table.record().to_json()

    record = asyncio.run(scenario())
    verdict = verify(record, get)
    assert verdict.ok, verdict.problems
    assert record["contributions"] == ["ana-seed", "bob-seed"]
