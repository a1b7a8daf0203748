"""Accounts in process, on the in-memory stores and an injected clock: session lifetimes, the
rating model with bots as anchors, and rating a finished rated table exactly once."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable
from dataclasses import dataclass

import pytest

from ludoteca.server.accounts.ratings import ANCHORS, Rating, anchor, places, update
from ludoteca.server.accounts.rows import memory_engine
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.accounts.store import AccountStore
from ludoteca.server.config import Settings
from ludoteca.server.limiting import RateLimits
from ludoteca.server.protocol import Rejected
from ludoteca.server.storage import (
    ActionRow,
    Append,
    MemoryStorage,
    SeatRow,
    SqlStorage,
    TableRow,
)

PASSWORD = "correct horse battery"


@dataclass
class Clock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def accounts(
    clock: Clock,
    storage: MemoryStorage | None = None,
    *,
    idle_seconds: float = 3600,
    **limits: str,
) -> Accounts:
    loose = {
        "limit_login": "1000/minute",
        "limit_login_pair": "1000/minute",
        "limit_login_account": "1000/minute",
    }
    return Accounts(
        AccountStore(memory_engine(), own_engine=True),
        storage or MemoryStorage(),
        RateLimits(Settings(**(loose | limits))),
        idle_seconds=idle_seconds,
        max_seconds=10 * 3600,
        now=clock,
    )


def test_a_session_ends_when_idle_too_long_and_when_too_old() -> None:
    async def run() -> None:
        clock = Clock()
        people = accounts(clock)
        try:
            signed = await people.sign_up("Lia", PASSWORD, "client", None)
            assert (await people.session(signed.token)) is not None
            clock.now += 3599
            assert (await people.session(signed.token)) is not None, "used: idle starts again"
            clock.now += 3599
            assert (await people.session(signed.token)) is not None
            clock.now += 3601
            assert (await people.session(signed.token)) is None, "idle past the hour"
            assert (await people.session(signed.token)) is None, "and gone for good"
            again = await people.sign_in("lia", PASSWORD, "client", None)
            began = clock.now
            while await people.session(again.token) is not None:  # used every 59 minutes
                clock.now += 59 * 60
            assert 10 * 3600 < clock.now - began <= 10 * 3600 + 59 * 60, "ten hours at most"
            assert (await people.session("not a token")) is None
            assert (await people.session("x" * 500)) is None
        finally:
            people.close()

    asyncio.run(run())


def test_a_session_in_use_lives_with_the_shortest_idle_lifetime() -> None:
    """With a one-minute idle lifetime a session used every 50 s lives on: its last use is
    written more often than once a minute (it used to be written only after 60 s, so a
    session used every 50 s died at its second use)."""

    async def run() -> None:
        clock = Clock()
        people = accounts(clock, idle_seconds=60)
        try:
            signed = await people.sign_up("Lia", PASSWORD, "client", None)
            for _ in range(10):
                clock.now += 50
                assert (await people.session(signed.token)) is not None
            clock.now += 61
            assert (await people.session(signed.token)) is None
        finally:
            people.close()

    asyncio.run(run())


async def _code(attempt: Awaitable[object]) -> str:
    try:
        await attempt
    except Rejected as exc:
        return str(exc.code)
    return "ok"


def test_sign_in_limits_per_address_per_device_and_per_name() -> None:
    """Per address every attempt counts; wrong passwords count per name and address, or per
    device for a browser that signed in before (whose cookie is good for its account only),
    and per name from every device the account does not know."""

    async def run() -> None:
        people = accounts(
            Clock(),
            limit_login="12/minute",
            limit_login_pair="3/hour",
            limit_login_account="6/hour",
        )
        try:
            lia = await people.sign_up("Lia", PASSWORD, "home", None)
            phone = await people.sign_in("Lia", PASSWORD, "phone", None)
            bob = await people.sign_up("Bob", PASSWORD, "home", None)
            assert lia.device and phone.device and bob.device and lia.device != bob.device
            # Bob's cookie is no key to Lia, nor is a forged one: they count as new devices
            forged = (bob.device, lia.device[:-2] + "AA", "x.y", "." * 200)
            for i, device in enumerate(forged):
                said = await _code(
                    people.sign_in("Lia", "wrong!!!", f"addr{i}", None, device=device)
                )
                assert said == "bad_login"
            # Lia's own browser is counted on its own (3), then waits, right password or not
            codes = [
                await _code(people.sign_in("Lia", "wrong", "home", None, device=lia.device))
                for _ in "abcd"
            ]
            assert codes == ["bad_login"] * 3 + ["rate_limited"]
            assert (
                await _code(people.sign_in("Lia", PASSWORD, "home", None, device=lia.device))
                == "rate_limited"
            )
            # the sixth try from a new device (the phone's sign-in was one) fills the name's
            # window: new devices wait, a known one does not
            assert await _code(people.sign_in("Lia", "wrong", "cafe", None)) == "bad_login"
            assert await _code(people.sign_in("Lia", PASSWORD, "work", None)) == "rate_limited"
            assert (
                await _code(people.sign_in("Lia", PASSWORD, "work", None, device=phone.device))
                == "ok"
            )
            # the address counts everything it asks, right or wrong
            codes = [
                await _code(people.sign_in("Bob", PASSWORD, "busy", None, device=bob.device))
                for _ in "x" * 13
            ]
            assert codes == ["ok"] * 12 + ["rate_limited"]
        finally:
            people.close()

    asyncio.run(run())


def test_parallel_guesses_cannot_slip_past_a_window() -> None:
    """Twenty guesses sent at once from one address: the name's window for that address lets
    three be checked, however many are in flight."""

    async def run() -> None:
        people = accounts(Clock(), limit_login_pair="3/hour", limit_login_account="100/hour")
        try:
            await people.sign_up("Lia", PASSWORD, "home", None)
            codes = await asyncio.gather(
                *(_code(people.sign_in("Lia", f"guess {i}", "evil", None)) for i in range(20))
            )
            assert sorted(codes) == ["bad_login"] * 3 + ["rate_limited"] * 17
        finally:
            people.close()

    asyncio.run(run())


def test_places_from_outcomes() -> None:
    assert places({"winners": [1], "draw": False}, 3) == [2, 1, 2]
    assert places({"winners": [0, 2], "draw": False}, 3) == [1, 2, 1]
    assert places({"winners": [0, 1], "draw": True}, 2) == [1, 1]
    assert places({"winners": [], "draw": False}, 4) == [1, 1, 1, 1]  # the dragon won


def test_bots_are_fixed_anchors_and_a_stronger_one_is_worth_more() -> None:
    person = Rating()
    for level in ("random", "medium", "hard"):
        bot = anchor("heroes", level)
        after = update([person, bot], [1, 2], [False, True])
        assert after[1] == bot, "the bot does not move"
        assert after[0].mu > person.mu and after[0].sigma < person.sigma
    beat_random = update([person, anchor("heroes", "random")], [1, 2], [False, True])[0]
    beat_hard = update([person, anchor("heroes", "hard")], [1, 2], [False, True])[0]
    assert beat_hard.mu > beat_random.mu
    lost_to_hard = update([person, anchor("heroes", "hard")], [2, 1], [False, True])[0]
    lost_to_random = update([person, anchor("heroes", "random")], [2, 1], [False, True])[0]
    assert lost_to_random.mu < lost_to_hard.mu < person.mu
    for game, levels in ANCHORS.items():
        assert list(levels) == ["random", "easy", "medium", "hard"], game
        assert levels["random"] <= levels["easy"] <= levels["medium"], game
    assert Rating().provisional and not Rating(20, 3.9).provisional
    assert Rating(30, 2).shown == pytest.approx(24)


def test_a_finished_rated_table_is_rated_once_and_an_expired_one_forgotten() -> None:
    async def run() -> None:
        clock = Clock()
        storage = MemoryStorage()
        people = accounts(clock, storage)
        try:
            mia = (await people.sign_up("Mia", PASSWORD, "c", None)).account
            seats = [
                SeatRow(0, "human", "Mia", token_hash="h"),
                SeatRow(1, "bot", "Bot 2 (hard)", "hard"),
                SeatRow(2, "human", "a guest"),
            ]
            row = TableRow("t1", "dwarves", {"players": 3}, "s", "c", "open", 60, 1.0, seats=seats)
            await storage.create_table(row)
            await storage.create_table(TableRow("t2", "heroes", {}, "s", "c", "open", 60, 1.0))
            await people.hold_seat(mia, "t1", 0, "token")
            await people.mark_rated("t1", "dwarves")
            await people.mark_rated("t2", "heroes")
            assert await people.rate_finished() == 0, "not over yet"
            await storage.start_table("t1", seats, 2.0)
            await storage.expire_tables(["t2"])
            await storage.append(
                Append("t1", ActionRow(1, 0, "x", "player", 3.0), 3.0, {"winners": [0]})
            )
            assert await people.rate_finished() == 1
            assert await people.rate_finished() == 0, "rated once"
            profile = await people.profile("MIA")
            rating = profile["ratings"]["dwarves"]
            assert rating["matches"] == 1 and rating["mu"] > 25
            assert [m["result"] for m in profile["matches"]] == ["won"]
            assert profile["matches"][0]["change"] == pytest.approx(rating["rating"], abs=0.1)
            assert await people.store.run(people.store.waiting_to_be_rated) == []
            with pytest.raises(Rejected) as refused:
                await people.profile("nobody")
            assert refused.value.code == "no_player"
        finally:
            people.close()

    asyncio.run(run())


@pytest.mark.postgres
def test_two_processes_share_sessions_and_sign_in_limits(postgres_url: str, redis_url: str) -> None:
    """Two server processes' accounts on one PostgreSQL database and one Redis: a session made
    by one is good at the other, signing out everywhere at one ends it at both, and a name's
    sign-in attempts from new devices are counted across both."""
    from ludoteca.server.storage import open_storage  # noqa: PLC0415 - makes the schema

    async def run() -> None:
        storage = open_storage(postgres_url)
        settings = Settings(
            redis_url=redis_url,
            redis_prefix=f"ludoteca-test-{secrets.token_hex(4)}",
            limit_login="1000/minute",
            limit_login_account="4/minute",
        )
        assert isinstance(storage, SqlStorage)
        limits = [RateLimits(settings), RateLimits(settings)]
        clock = Clock()
        pair = [
            Accounts(
                AccountStore(storage.engine),
                storage,
                lim,
                idle_seconds=3600,
                max_seconds=36000,
                now=clock,
            )
            for lim in limits
        ]
        try:
            signed = await pair[0].sign_up("Nina", PASSWORD, "c", None)
            assert (await pair[1].session(signed.token)) is not None
            other = await pair[1].sign_in("nina", PASSWORD, "d", None)
            await pair[0].sign_out_everywhere(signed.account)
            assert (await pair[1].session(signed.token)) is None
            assert (await pair[0].session(other.token)) is None
            answers = []
            for i in range(5):  # tries from new devices, each at its own address
                try:
                    await pair[i % 2].sign_in("Nina", f"wrong {i}", f"addr{i}", None)
                except Rejected as exc:
                    answers.append(exc.code)
            # the sign-in at "d" was the first of the four
            assert answers == ["bad_login"] * 3 + ["rate_limited"] * 2, answers
            # the device that signed in is known at both processes: the name's limit is not its
            await pair[0].sign_in("nina", PASSWORD, "addr0", None, device=other.device)
        finally:
            for people in pair:
                people.close()
            for lim in limits:
                await lim.reset()
                await lim.close()
            await storage.close()

    asyncio.run(run())
