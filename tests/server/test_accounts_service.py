"""Accounts in process, on the in-memory stores and an injected clock: session lifetimes, the
rating model with bots as anchors, and rating a finished rated table exactly once."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from ludoteca.core import NoAnchorsError
from ludoteca.games import all_games, get
from ludoteca.server.accounts.devices import DEVICE_SECONDS
from ludoteca.server.accounts.play import RATING_PAGE
from ludoteca.server.accounts.ratings import Rating, anchor, places, update
from ludoteca.server.accounts.rows import Browser, memory_engine
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.accounts.store import NAME_HELD_SECONDS, AccountStore
from ludoteca.server.config import Settings
from ludoteca.server.guards.limits import RateLimits
from ludoteca.server.messages import Rejected
from ludoteca.server.notify.store import NotifyStore
from ludoteca.server.storage import (
    ActionRow,
    Append,
    MemoryStorage,
    SeatRow,
    SqlStorage,
    TableRow,
    open_storage,
)
from ludoteca.server.storage.schema import rating_changes, released_names
from toygame import HighCardGame

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
                    people.sign_in("Lia", "wrong!!!", f"addr{i}", Browser(device=device))
                )
                assert said == "bad_login"
            # Lia's own browser is counted on its own (3), then waits, right password or not
            codes = [
                await _code(people.sign_in("Lia", "wrong", "home", Browser(device=lia.device)))
                for _ in "abcd"
            ]
            assert codes == ["bad_login"] * 3 + ["rate_limited"]
            assert (
                await _code(people.sign_in("Lia", PASSWORD, "home", Browser(device=lia.device)))
                == "rate_limited"
            )
            # the sixth try from a new device (the phone's sign-in was one) fills the name's
            # window: new devices wait, a known one does not
            assert await _code(people.sign_in("Lia", "wrong", "cafe", None)) == "bad_login"
            assert await _code(people.sign_in("Lia", PASSWORD, "work", None)) == "rate_limited"
            assert (
                await _code(people.sign_in("Lia", PASSWORD, "work", Browser(device=phone.device)))
                == "ok"
            )
            # the address counts everything it asks, right or wrong
            codes = [
                await _code(people.sign_in("Bob", PASSWORD, "busy", Browser(device=bob.device)))
                for _ in "x" * 13
            ]
            assert codes == ["ok"] * 12 + ["rate_limited"]
        finally:
            people.close()

    asyncio.run(run())


def test_a_browser_known_to_an_account_is_forgotten_after_a_year_unused() -> None:
    """The device cookie's record is what makes a browser known: a year after its last sign-in
    the name's global window stops it like any new browser, and the sweep forgets the record."""

    async def run() -> None:
        clock = Clock()
        people = accounts(clock, limit_login_pair="100/hour", limit_login_account="2/hour")
        try:
            lia = await people.sign_up("Lia", PASSWORD, "home", None)
            for address in ("a", "b"):  # the name's global window is full
                assert await _code(people.sign_in("Lia", "wrong", address, None)) == "bad_login"
            known = people.sign_in("Lia", PASSWORD, "home", Browser(device=lia.device))
            assert (await known).device == lia.device
            clock.now += DEVICE_SECONDS + 1
            late = people.sign_in("Lia", PASSWORD, "home", Browser(device=lia.device))
            assert await _code(late) == "rate_limited"
            await people.sweep()
            assert (await people.export(lia.account))["account_devices"] == []
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
    heroes = get("heroes")
    for level in ("random", "medium", "hard"):
        bot = anchor(heroes, level)
        after = update([person, bot], [1, 2], [False, True])
        assert after[1] == bot, "the bot does not move"
        assert after[0].mu > person.mu and after[0].sigma < person.sigma
    beat_random = update([person, anchor(heroes, "random")], [1, 2], [False, True])[0]
    beat_hard = update([person, anchor(heroes, "hard")], [1, 2], [False, True])[0]
    assert beat_hard.mu > beat_random.mu
    lost_to_hard = update([person, anchor(heroes, "hard")], [2, 1], [False, True])[0]
    lost_to_random = update([person, anchor(heroes, "random")], [2, 1], [False, True])[0]
    assert lost_to_random.mu < lost_to_hard.mu < person.mu
    for game in all_games().values():
        levels = game.anchors()
        assert list(levels) == ["random", "easy", "medium", "hard"], game.spec.id
        assert levels["random"] <= levels["easy"] <= levels["medium"], game.spec.id
    assert Rating().provisional and not Rating(20, 3.9).provisional
    assert Rating(30, 2).shown == pytest.approx(24)


class Declaring(HighCardGame):
    """The toy game with its anchors read from a folder of the test's."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def resource(self, name: str) -> Any:
        return self.folder / name


def test_a_game_without_its_own_anchors_is_an_error_never_another_game_s(tmp_path: Path) -> None:
    game = Declaring(tmp_path)
    with pytest.raises(NoAnchorsError, match=r"high-card: .*anchors.json is missing"):
        anchor(game, "hard")
    file = tmp_path / "anchors.json"
    for content, message in [
        ("{", "is not JSON"),
        (json.dumps({"random": 10.0, "easy": 12.0, "medium": 14.0}), "random, easy, medium, hard"),
        (json.dumps({"easy": 1, "random": 10, "medium": 14, "hard": 16}), "in that order"),
        (json.dumps({"random": 10, "easy": "x", "medium": 14, "hard": 16}), "a number per level"),
        (json.dumps({"random": 10, "easy": 9, "medium": 14, "hard": 16}), "below random"),
    ]:
        file.write_text(content)
        with pytest.raises(NoAnchorsError, match=message):
            anchor(game, "medium")
    file.write_text(json.dumps({"random": 10, "easy": 12.5, "medium": 14, "hard": 16}))
    assert anchor(game, "easy") == Rating(12.5, 1.0)
    assert anchor(game, None) == anchor(game, "no such level") == Rating(14.0, 1.0)


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
            assert profile["matches"][0]["change"] == rating["rating"] - 1500 > 0
            said = await people.table_rating("t1")
            assert said["state"] == "rated" and said["rated"] is True
            assert said["changes"] == [
                {
                    "seat": 0,
                    "name": "Mia",
                    "before": 1500,
                    "after": rating["rating"],
                    "change": rating["rating"] - 1500,
                    "provisional": True,
                }
            ]
            assert (await people.table_rating("t2"))["rated"] is False, "expired: forgotten"
            assert await people.table_rating("casual") == {
                "table": "casual",
                "rated": False,
                "state": "casual",
                "changes": [],
            }
            assert await people.store.run(people.store.waiting_to_be_rated, None) == []
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
            await pair[0].sign_in("nina", PASSWORD, "addr0", Browser(device=other.device))
        finally:
            for people in pair:
                people.close()
            for lim in limits:
                await lim.reset()
                await lim.close()
            await storage.close()

    asyncio.run(run())


# ------------------------------------------------ integrity: seats, failed ratings, farming
@pytest.fixture
def kept(store_url: str) -> Iterator[tuple[Accounts, Clock]]:
    """Accounts on each store in turn: in memory, a SQLite file and PostgreSQL (at head)."""
    clock = Clock()
    if store_url == "memory://":
        people = accounts(clock)
        yield people, clock
        people.close()
        return
    storage = open_storage(store_url)
    assert isinstance(storage, SqlStorage)
    people = Accounts(
        AccountStore(storage.engine),
        storage,
        RateLimits(Settings(limit_login="1000/minute")),
        idle_seconds=3600,
        max_seconds=36000,
        now=clock,
    )
    yield people, clock
    people.close()
    asyncio.run(storage.close())


async def finished(people: Accounts, table: str, seats: list[SeatRow], winners: list[int]) -> None:
    """A rated table of ``seats`` played to the end: ``winners`` won."""
    storage = people.storage
    row = TableRow(table, "heroes", {"players": len(seats)}, "s", "c", "open", 60, 1.0, seats=seats)
    await storage.create_table(row)
    await people.mark_rated(table, "heroes")
    await storage.start_table(table, seats, 2.0)
    await storage.append(
        Append(table, ActionRow(1, 0, "x", "player", 3.0), 3.0, {"winners": winners})
    )


def people_seats(*names: str) -> list[SeatRow]:
    return [SeatRow(i, "human", name, token_hash=f"h{i}") for i, name in enumerate(names)]


def test_an_account_holds_one_seat_of_a_table(kept: tuple[Accounts, Clock]) -> None:
    people, _ = kept

    async def run() -> None:
        ana = (await people.sign_up("Ana", PASSWORD, "c", None)).account
        await people.hold_seat(ana, "t1", 0, "first")
        with pytest.raises(Rejected) as refused:
            await people.hold_seat(ana, "t1", 1, "second")
        assert refused.value.code == "already_seated"
        assert "seat 1" in refused.value.message
        held = await people.seat_at(ana, "t1")
        assert held is not None and (held.seat, held.token) == (0, "first"), "nothing changed"
        await people.hold_seat(ana, "t1", 0, "again")  # the same seat again is fine
        await people.hold_seat(ana, "t2", 1, "other table")
        assert [
            (h.table_id, h.seat) for h in await people.store.run(people.store.held_seats, ana.id)
        ] == [
            ("t2", 1),
            ("t1", 0),
        ]

    asyncio.run(run())


def test_a_table_that_cannot_be_rated_is_set_aside_and_the_round_goes_on(
    kept: tuple[Accounts, Clock],
) -> None:
    """A rating that fails (here the unique key of rating_changes, as when one account sat at
    two seats before the key held) marks that table with the reason; later tables are rated,
    and the failed one is not tried again."""
    people, clock = kept

    async def run() -> None:
        bea = (await people.sign_up("Bea", PASSWORD, "c", None)).account
        await finished(people, "bad", people_seats("Bea", "guest"), [0])
        await people.hold_seat(bea, "bad", 0, "t")
        with people.store.engine.begin() as conn:  # what the double seat used to leave
            conn.execute(
                insert(rating_changes).values(
                    account_id=bea.id,
                    table_id="bad",
                    game="heroes",
                    seat=1,
                    place=1,
                    at=1.0,
                    mu_before=25,
                    sigma_before=8,
                    mu=25,
                    sigma=8,
                )
            )
        clock.now += 1
        await finished(people, "good", people_seats("Bea", "guest"), [0])
        await people.hold_seat(bea, "good", 0, "u")
        assert await people.rate_finished() == 1
        assert await people.failed_ratings() == 1
        reason = await people.store.run(people.store.not_rated, "bad")
        assert reason is not None and "IntegrityError" in reason
        assert await people.store.run(people.store.not_rated, "good") is None
        profile = await people.profile("bea")
        assert profile["ratings"]["heroes"]["matches"] == 1
        assert await people.store.run(people.store.waiting_to_be_rated, None) == []
        assert await people.rate_finished() == 0, "the failed table is not tried again"

    asyncio.run(run())


def test_a_seat_left_before_the_start_is_no_longer_the_accounts(
    kept: tuple[Accounts, Clock],
) -> None:
    people, clock = kept

    async def run() -> None:
        cid = (await people.sign_up("Cid", PASSWORD, "c", None)).account
        notify = NotifyStore(people.store.engine)
        try:
            await people.hold_seat(cid, "t1", 1, "cid's")
            keys = ("https://push.example/cid", "p", "a")
            await notify.run(notify.add_push, keys, "en", "UTC", clock.now, seat=("t1", 1))
            await people.release_seat("t1", 1, "someone else's", left=False)  # not Cid's token
            assert (await people.seat_at(cid, "t1")) is not None
            await people.release_seat("t1", 1, "cid's", left=False)  # a link left behind
            assert (await people.seat_at(cid, "t1")) is None
            assert len((await notify.run(notify.targets, "t1", 1))[0]) == 1, "not the devices'"
            await people.hold_seat(cid, "t1", 1, "cid's")
            clock.now += 1
            await people.release_seat("t1", 1, "cid's", left=True)
            assert (await people.seat_at(cid, "t1")) is None
            assert (await people.my_tables(cid)) == []
            pushes, mail = await notify.run(notify.targets, "t1", 1)
            assert (pushes, mail) == ([], None), "the next person's turns are not told to Cid"
            # the guest who sits there next is not rated as Cid, nor listed in Cid's profile
            await finished(people, "t1", people_seats("x", "a guest"), [1])
            assert await people.rate_finished() == 1
            profile = await people.profile("cid")
            assert profile["ratings"] == {} and profile["matches"] == []
        finally:
            notify.close()

    asyncio.run(run())


def test_accounts_that_signed_in_on_one_device_are_not_rated_against_each_other(
    kept: tuple[Accounts, Clock],
) -> None:
    people, _ = kept

    async def run() -> None:
        dans = await people.sign_up("Dan", PASSWORD, "c", None)
        one = dans.account
        two = (await people.sign_up("Dan2", PASSWORD, "c", None)).account  # its own browser
        other = (await people.sign_up("Eva", PASSWORD, "c", None)).account
        # Dan2 signed in on Dan's browser once: it keeps its device cookie
        again = await people.sign_in("Dan2", PASSWORD, "c", Browser(device=dans.device))
        assert again.device == dans.device
        await finished(people, "farm", people_seats("Dan", "Dan2"), [0])
        await people.hold_seat(one, "farm", 0, "a")
        await people.hold_seat(two, "farm", 1, "b")
        await finished(people, "fair", people_seats("Dan", "Eva"), [0])
        await people.hold_seat(one, "fair", 0, "c")
        await people.hold_seat(other, "fair", 1, "d")
        assert await people.rate_finished() == 1
        reason = await people.store.run(people.store.not_rated, "farm")
        assert reason == "the accounts at seats 1 and 2 signed in from one device"
        said = await people.table_rating("farm")
        assert (said["state"], said["reason"], said["changes"]) == ("not_rated", reason, [])
        assert await people.failed_ratings() == 0, "a refusal is no failure"
        assert (await people.profile("dan2"))["ratings"] == {}
        dan = await people.profile("dan")
        assert dan["ratings"]["heroes"]["matches"] == 1
        assert [(m["table"], m["rated"]) for m in dan["matches"]] == [
            ("fair", True),
            ("farm", False),
        ]

    asyncio.run(run())


def test_a_deleted_name_is_held_for_thirty_days(kept: tuple[Accounts, Clock]) -> None:
    people, clock = kept

    async def run() -> None:
        fay = (await people.sign_up("Fay", PASSWORD, "c", None)).account
        await people.delete(fay)
        for name in ("Fay", "FAY"):
            with pytest.raises(Rejected) as refused:
                await people.sign_up(name, PASSWORD, "c", None)
            assert refused.value.code == "name_taken"
            assert "free again on 1970-02-11" in refused.value.message
        with pytest.raises(Rejected) as by_passkey:
            await people.passkey_options("localhost", name="fay", account=None)
        assert by_passkey.value.code == "name_taken"
        clock.now += NAME_HELD_SECONDS - 1
        with pytest.raises(Rejected):
            await people.sign_up("Fay", PASSWORD, "c", None)
        clock.now += 2
        again = await people.sign_up("Fay", PASSWORD, "c", None)
        assert again.account.id != fay.id
        await people.sweep()
        with people.store.engine.connect() as conn:
            assert conn.execute(select(released_names)).all() == []

    asyncio.run(run())


def test_tables_still_being_played_do_not_keep_a_finished_one_from_its_rating() -> None:
    """More rated tables in play than a round reads (500), made before a finished one: the
    next round reads the page after them and rates it."""

    async def run() -> None:
        clock = Clock()
        people = accounts(clock)
        try:
            gil = (await people.sign_up("Gil", PASSWORD, "c", None)).account
            for i in range(RATING_PAGE):
                seats = people_seats("someone", "guest")
                made = TableRow(
                    f"p{i:03}", "heroes", {"players": 2}, "s", "c", "open", 60, 1.0, seats=seats
                )
                await people.storage.create_table(made)
                await people.storage.start_table(made.id, seats, 2.0)
                await people.mark_rated(made.id, "heroes")
            clock.now += 1
            await finished(people, "last", people_seats("Gil", "guest"), [0])
            await people.hold_seat(gil, "last", 0, "t")
            assert await people.rate_finished() == 0, "the first page is all in play"
            assert await people.rate_finished() == 1
            assert (await people.profile("gil"))["ratings"]["heroes"]["matches"] == 1
            assert await people.rate_finished() == 0, "then from the start again"
        finally:
            people.close()

    asyncio.run(run())
