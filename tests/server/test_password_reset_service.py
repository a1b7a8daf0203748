"""The password reset in process, on the in-memory account store with an injected clock and a
mailer that keeps what it is given: a link's lifetime to the second, one use even when two
requests race, the account's other links and sessions ended, a deleted account's links gone, a
full queue dropping (not growing), an address reaching every account that confirmed it; and two
processes on PostgreSQL and Redis sharing the links, the limits and the one use."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pytest
from sqlalchemy import func, select

from ludoteca.server.accounts.reset import (
    ACCOUNTS_PER_ADDRESS,
    QUEUED,
    RESET_SECONDS,
    PasswordResets,
)
from ludoteca.server.accounts.rows import Browser, memory_engine
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.accounts.store import AccountStore
from ludoteca.server.config import Settings
from ludoteca.server.guards.limits import RateLimits
from ludoteca.server.messages import Rejected
from ludoteca.server.notify.keys import NotifyKeys
from ludoteca.server.notify.store import NotifyStore
from ludoteca.server.storage import MemoryStorage
from ludoteca.server.storage.schema import password_resets

PASSWORD = "correct horse battery"
NEW = "purple staple giraffe"


@dataclass
class Clock:
    now: float = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Mailed:
    sent: list[tuple[str, str, str, str]] = field(default_factory=list)

    async def __call__(self, address: str, lang: str, name: str, token: str) -> None:
        self.sent.append((address, lang, name, token))


@dataclass
class World:
    clock: Clock
    people: Accounts
    resets: PasswordResets
    mailed: Mailed
    notify: NotifyStore

    async def account(self, name: str, address: str | None, confirmed: bool = True) -> str:
        signed = await self.people.sign_up(name, PASSWORD, f"10.0.0.{len(name)}", None)
        if address is not None:
            self.notify.set_mail(signed.account.id, address, "en", "UTC", self.clock())
            if confirmed:
                self.notify.confirm_mail(signed.account.id, address, self.clock())
        return signed.account.id

    async def link(self, who: str) -> str:
        before = len(self.mailed.sent)
        await self.resets.ask(who, "en", "198.51.100.7")
        kind, key, lang = self.resets.queue.get_nowait()
        await self.resets.send(kind, key, lang)
        assert len(self.mailed.sent) == before + 1, "one mail"
        return self.mailed.sent[-1][3]


def in_world(scenario: Callable[[World], Awaitable[None]]) -> None:
    """Run ``scenario`` on a world of its own: accounts in memory, a clock, a mailer."""

    async def run() -> None:
        clock = Clock()
        limits = {"limit_login": "1000/minute", "limit_reset": "1000/hour"}
        people = Accounts(
            AccountStore(memory_engine(), own_engine=True),
            MemoryStorage(),
            RateLimits(Settings(limit_reset_mail="1000/hour", **limits)),
            idle_seconds=3600,
            max_seconds=10 * 3600,
            now=clock,
        )
        mailed = Mailed()
        resets = PasswordResets(people, NotifyKeys.ephemeral(), mailed, now=clock)
        try:
            await scenario(World(clock, people, resets, mailed, NotifyStore(people.store.engine)))
        finally:
            people.close()

    asyncio.run(run())


async def _a_link_lives_thirty_minutes_to_the_second(world: World) -> None:
    await world.account("Ana", "ana@example.org")
    link = await world.link("ana")
    world.clock.now += RESET_SECONDS
    assert (await world.resets.account(link)).name == "Ana", "good at 30:00"
    world.clock.now += 1
    with pytest.raises(Rejected) as late:
        await world.resets.account(link)
    assert late.value.code == "bad_reset_link"
    world.clock.now -= 10
    with pytest.raises(Rejected):
        await world.resets.account(link)  # tried once expired, it is gone
    await world.link("ana")
    world.clock.now += RESET_SECONDS + 1
    await world.people.sweep()  # the hourly sweep forgets links nobody tried
    with world.people.store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(password_resets)).scalar() == 0


async def _two_uses_at_once_set_one_password_and_end_every_session(world: World) -> None:
    ana = await world.account("Ana", "ana@example.org")
    other = await world.people.sign_in("ana", PASSWORD, "10.0.0.9", None)
    first, second = await world.link("ana"), await world.link("Ana")
    results = await asyncio.gather(
        world.resets.finish(first, NEW, "10.0.0.1", None),
        world.resets.finish(first, "another fine phrase", "10.0.0.2", None),
        return_exceptions=True,
    )
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, Rejected)]
    assert len(won) == 1 and len(lost) == 1 and lost[0].code == "bad_reset_link", results
    assert await world.people.session(other.token) is None, "the other session ended"
    assert await world.people.session(won[0].token) is not None, "this browser is signed in"
    with pytest.raises(Rejected):
        await world.resets.account(second)  # the account's other link went with it
    password = NEW if results[0] is won[0] else "another fine phrase"
    signed = await world.people.sign_in("ana", password, "10.0.0.3", None)
    assert signed.account.id == ana


async def _a_refused_password_keeps_the_link_and_the_sessions(world: World) -> None:
    await world.account("Ana", "ana@example.org")
    session = await world.people.sign_in("ana", PASSWORD, "10.0.0.9", Browser())
    link = await world.link("ana@example.org")
    for bad in ("short", "ana is my name", "12345678"):
        with pytest.raises(Rejected) as refused:
            await world.resets.finish(link, bad, "10.0.0.1", None)
        assert refused.value.code == "bad_password"
    assert await world.people.session(session.token) is not None
    assert (await world.resets.account(link)).name == "Ana"


async def _only_confirmed_addresses_are_mailed_and_an_address_reaches_its_accounts(
    world: World,
) -> None:
    await world.account("Ana", "family@example.org")
    await world.account("Bia", "Family@Example.org")
    await world.account("Caio", "family@example.org", confirmed=False)
    await world.account("Duda", None)
    for who in ("caio", "duda", "nobody", "nobody@example.org"):
        await world.resets.ask(who, "en", "198.51.100.7")
        await world.resets.send(*world.resets.queue.get_nowait())
    assert world.mailed.sent == [], "no confirmed address, or nobody: nothing mailed"
    await world.resets.ask("FAMILY@example.org", "pt", "198.51.100.7")
    await world.resets.send(*world.resets.queue.get_nowait())
    assert sorted((a, lang, n) for a, lang, n, _ in world.mailed.sent) == [
        ("Family@Example.org", "pt", "Bia"),
        ("family@example.org", "pt", "Ana"),
    ]
    assert ACCOUNTS_PER_ADDRESS == 5


async def _a_deleted_accounts_links_go_with_it(world: World) -> None:
    await world.account("Ana", "ana@example.org")
    link = await world.link("ana")
    account = await world.resets.account(link)
    await world.people.delete(account)
    with world.people.store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(password_resets)).scalar() == 0
    with pytest.raises(Rejected):
        await world.resets.finish(link, NEW, "10.0.0.1", None)


async def _a_full_queue_drops_asks_rather_than_grow(world: World) -> None:
    started = time.perf_counter()
    for i in range(QUEUED + 5):
        await world.resets.ask(f"name{i}", "en", f"10.1.{i // 250}.{i % 250}")
    assert world.resets.queue.qsize() == QUEUED
    assert world.resets.sent["dropped"] == 5
    assert time.perf_counter() - started < 30


def test_a_link_lives_thirty_minutes_to_the_second() -> None:
    in_world(_a_link_lives_thirty_minutes_to_the_second)


def test_two_uses_at_once_set_one_password_and_end_every_session() -> None:
    in_world(_two_uses_at_once_set_one_password_and_end_every_session)


def test_a_refused_password_keeps_the_link_and_the_sessions() -> None:
    in_world(_a_refused_password_keeps_the_link_and_the_sessions)


def test_only_confirmed_addresses_are_mailed_and_an_address_reaches_its_accounts() -> None:
    in_world(_only_confirmed_addresses_are_mailed_and_an_address_reaches_its_accounts)


def test_a_deleted_accounts_links_go_with_it() -> None:
    in_world(_a_deleted_accounts_links_go_with_it)


def test_a_full_queue_drops_asks_rather_than_grow() -> None:
    in_world(_a_full_queue_drops_asks_rather_than_grow)


def test_two_processes_share_links_and_limits_and_one_use_wins(
    postgres_url: str, redis_url: str
) -> None:
    """Two server processes' resets on one PostgreSQL database and one Redis: a link mailed by
    one works at the other, used at both at once it sets one password, and an account's mails
    are counted across both."""
    from ludoteca.server.storage import SqlStorage, open_storage  # noqa: PLC0415

    async def run() -> None:
        storage = open_storage(postgres_url)
        assert isinstance(storage, SqlStorage)
        settings = Settings(
            redis_url=redis_url,
            redis_prefix=f"ludoteca-test-{secrets.token_hex(4)}",
            limit_login="1000/minute",
            limit_reset="1000/hour",
            limit_reset_mail="2/hour",
        )
        clock, keys, mailed = Clock(), NotifyKeys.ephemeral(), Mailed()
        limits = [RateLimits(settings), RateLimits(settings)]
        people = [
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
        resets = [PasswordResets(p, keys, mailed, now=clock) for p in people]
        notify = NotifyStore(storage.engine)
        try:
            name = f"Pg{secrets.token_hex(3)}"
            signed = await people[0].sign_up(name, PASSWORD, "c", None)
            address = f"{name.lower()}@example.org"
            notify.set_mail(signed.account.id, address, "en", "UTC", clock())
            notify.confirm_mail(signed.account.id, address, clock())
            for here in resets:  # one ask at each process: the account's two mails an hour
                await here.ask(name, "en", "198.51.100.8")
                await here.send(*here.queue.get_nowait())
            await resets[1].ask(address, "en", "198.51.100.8")
            await resets[1].send(*resets[1].queue.get_nowait())
            assert len(mailed.sent) == 2 and resets[1].sent["limited"] == 1
            link = mailed.sent[0][3]
            assert (await resets[1].account(link)).name == name
            results = await asyncio.gather(
                resets[0].finish(link, NEW, "a", None),
                resets[1].finish(link, NEW, "b", None),
                return_exceptions=True,
            )
            assert sorted(type(r).__name__ for r in results) == ["Rejected", "SignedIn"], results
            with pytest.raises(Rejected):
                await resets[0].account(mailed.sent[1][3])  # the other link went too
            assert (await people[1].sign_in(name, NEW, "e", None)).account.id == signed.account.id
        finally:
            for p in people:
                p.close()
            for lim in limits:
                await lim.close()
            notify.close()
            await storage.close()

    asyncio.run(run())
