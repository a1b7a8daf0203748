"""Commit, then reveal, at the table (docs/fairness.md#who-chooses-what-and-when), in process on a
fake clock: commitments close when everyone has committed or after the window, reveals are taken
only then and only when they open the seat's commitment, a withheld reveal enters the deal by its
commitment; and the grinding attack of format 2, replayed by an operator who knows the secret and
holds Bob's seat, can no longer pick the deal."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from kit.tables import FakeClock, lobby_on, seated
from ludoteca.core import verify
from ludoteca.core.fairness import match_seed, seat_commitment
from ludoteca.games import get
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.messages import Rejected
from ludoteca.server.storage.memory import MemoryStorage
from ludoteca.server.table.table import Table

SALT_A, SALT_B = "a" * 32, "b" * 32
HEROES = get("heroes")


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def refused(code: str, call: Coroutine[Any, Any, None]) -> str:
    with pytest.raises(Rejected) as caught:
        await call
    assert caught.value.code == code, caught.value.message
    return caught.value.message


async def ana_alone(lobby: Lobby) -> Table:
    """A heroes table of two people where Ana sits; it starts when Bob takes the other seat."""
    table, _, ana = await lobby.create(
        "heroes",
        players=2,
        seats=[SeatRequest(), SeatRequest()],
        turn_seconds=None,
        name="Ana",
        start=False,
    )
    assert ana is not None
    return table


def test_commitments_close_then_reveals_open_then_the_table_deals() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(MemoryStorage(), clock) as lobby:
            table = await ana_alone(lobby)
            await refused("bad_commitment", table.commit(0, "not hex"))
            await table.commit(0, seat_commitment("first", SALT_A))
            await table.commit(0, seat_commitment("ana-seed", SALT_A))  # replaced: still open
            await refused("not_revealing", table.reveal(0, "ana-seed", SALT_A))
            await lobby.join(table.id, "Bob", None)  # the last seat taken: the table starts
            assert table.row.status == "starting" and not table.summary()["revealing"]
            assert table.waiting_for() == [1]
            assert table.deal_by() == clock.now() + 10
            await table.commit(1, seat_commitment("bob-seed", SALT_B))
            # everyone committed: the reveals open at once, the commitments are closed
            summary = table.summary()
            assert summary["revealing"] and summary["deal_by"] == clock.now() + 10
            assert [s["commitment"] for s in summary["seats"]] == [
                seat_commitment("ana-seed", SALT_A),
                seat_commitment("bob-seed", SALT_B),
            ]
            await refused("commitments_closed", table.commit(1, seat_commitment("x", SALT_B)))
            await refused("bad_reveal", table.reveal(0, "first", SALT_A))
            await refused("bad_reveal", table.reveal(0, "ana-seed", "short"))
            await refused("bad_contribution", table.reveal(0, "has space", SALT_A))
            await table.reveal(0, "ana-seed", SALT_A)
            assert table.row.status == "starting" and table.waiting_for() == [1]
            await table.reveal(1, "bob-seed", SALT_B)
            assert table.row.status == "playing" and table.match is not None
            # the same reveal again (a page that sent it twice) is accepted and changes nothing;
            # another one is refused
            chain = table.match.chain[-1]
            await table.reveal(1, "bob-seed", SALT_B)
            assert table.match.chain[-1] == chain and table.version == 0
            await refused("bad_reveal", table.reveal(1, "bob-seed2", SALT_B))
            await refused("bad_reveal", table.reveal(1, "bob-seed", SALT_A))
            deal = table.match.deal
            assert deal.contributions == ("ana-seed", "bob-seed") and deal.salts == (SALT_A, SALT_B)
            assert table.match.view(None)["commitments"] == list(deal.commitments or ())

    run(scenario)


def test_a_withheld_reveal_counts_by_its_commitment_and_no_commitment_adds_nothing() -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobby_on(MemoryStorage(), clock) as lobby:
            seats = [SeatRequest(), SeatRequest(), SeatRequest()]
            table, _, ana = await lobby.create(
                "dice-heroes", players=3, seats=seats, turn_seconds=None, name="Ana", start=False
            )
            await lobby.join(table.id, "Bob", None)
            assert ana is not None
            await table.commit(0, seat_commitment("ana-seed", SALT_A))
            await table.commit(1, seat_commitment("bob-seed", SALT_B))
            await lobby.join(table.id, "Cy", None)  # the last seat taken: the table starts
            assert table.row.status == "starting"
            watcher = await seated(table)
            await clock.advance(9.9)
            assert not table.summary()["revealing"], "Cy may still commit"
            await clock.advance(0.1)
            await watcher.until(lambda: table.summary()["revealing"])
            await refused("commitments_closed", table.commit(2, seat_commitment("cy", SALT_A)))
            await table.reveal(0, "ana-seed", SALT_A)
            assert table.waiting_for() == [1], "Cy committed to nothing: the deal waits for Bob"
            await clock.advance(10)
            await watcher.until(lambda: table.row.status == "playing")
            match = table.match
            assert match is not None
            bob = seat_commitment("bob-seed", SALT_B)
            assert match.deal.commitments == (seat_commitment("ana-seed", SALT_A), bob, None)
            assert match.seed == match_seed(
                table.row.seed, table.id, ["ana-seed", None, None], match.deal.commitments
            )
            while match.to_move is not None:
                await table.submit(match.to_move, match.legal(match.to_move)[0], None)
            record = table.record().to_json()
            assert record["format"] == 5
            assert (record["contributions"], record["salts"]) == (
                ["ana-seed", None, None],
                [SALT_A, None, None],
            )
            assert verify(record, get).ok

    run(scenario)


def wanted(seed: str) -> bool:
    """The deal the operator wants: Blue (Bob, seat 1) first, an opening hand of paladins and
    clerics only (about one deal in 1,400)."""
    state = HEROES.new(HEROES.spec.params({"players": 2}), seed)
    hand = HEROES.to_json(state)["hands"]["blue"]
    return HEROES.to_move(state) == 1 and set(hand) <= {"paladin", "cleric"}


@pytest.mark.slow
def test_the_operator_grinding_bobs_seed_cannot_pick_the_deal() -> None:
    """The attack of the live run, replayed: the operator reads the table's secret from its own
    database and holds Bob's seat. In format 2 it waited for Ana's seed and tried candidates for
    Bob's until the deal it wanted came out (4,403 tries, 1.5 s). Now Ana's seed stays hidden
    until Bob has committed, a reveal must open Bob's commitment, and all that is left is to
    reveal or withhold: two deals, fixed before Ana revealed."""

    async def scenario() -> None:
        clock = FakeClock()
        store = MemoryStorage()
        tries, hits, picked = 0, 0, 0
        async with lobby_on(store, clock) as lobby:
            for n in range(12):
                table = await ana_alone(lobby)
                secret = (await store.load_table(table.id)).seed  # type: ignore[union-attr]
                ana_commitment = seat_commitment(f"ana-{n}", SALT_A)
                await table.commit(0, ana_commitment)
                await lobby.join(table.id, "Bob", None)  # the operator's seat
                # all the operator sees of Ana before Bob commits is her commitment: grind the
                # only seed it can compute, as if Ana were to withhold
                bob = next(
                    (
                        f"bob-{k}"
                        for k in range(2000)
                        if wanted(
                            match_seed(
                                secret,
                                table.id,
                                [None, f"bob-{k}"],
                                [ana_commitment, seat_commitment(f"bob-{k}", SALT_B)],
                            )
                        )
                    ),
                    "bob-0",
                )
                await table.commit(1, seat_commitment(bob, SALT_B))
                assert table.summary()["revealing"]
                await table.reveal(0, f"ana-{n}", SALT_A)
                # now the operator knows every input: grinding a better reveal is refused
                commitments = [ana_commitment, seat_commitment(bob, SALT_B)]
                better = next(
                    (
                        f"bob-x{k}"
                        for k in range(3000)
                        if wanted(
                            match_seed(secret, table.id, [f"ana-{n}", f"bob-x{k}"], commitments)
                        )
                    ),
                    None,
                )
                if better is not None:
                    tries += 1
                    await refused("bad_reveal", table.reveal(1, better, SALT_B))
                # reveal or withhold: whichever of the two fixed deals suits the operator
                revealed = match_seed(secret, table.id, [f"ana-{n}", bob], commitments)
                withheld = match_seed(secret, table.id, [f"ana-{n}", None], commitments)
                if wanted(revealed) or not wanted(withheld):
                    await table.reveal(1, bob, SALT_B)
                else:
                    watcher = await seated(table)
                    await clock.advance(10)
                    await watcher.until(lambda t=table: t.row.status == "playing")
                assert table.match is not None
                picked += 1
                hits += wanted(table.match.seed)
        assert picked == 12 and tries >= 4, "a better reveal exists at most tables: refused"
        assert hits <= 1, f"the wanted deal came out at {hits} of 12 tables"

    run(scenario)
