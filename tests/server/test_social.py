"""Friends, blocking, reports and the operator's desk in process, on the in-memory account
store and an injected clock: who may follow, invite and sit with whom; the chat's filter;
reports and their rate; sanctions (a suspended account's sessions end and it cannot sign in);
the audit log; presence and invitations across two processes sharing one database."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from ludoteca.server.accounts.rows import ACCOUNT_TABLES, Account, memory_engine
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.accounts.store import AccountStore
from ludoteca.server.config import Settings
from ludoteca.server.guards.limits import RateLimits
from ludoteca.server.messages import Rejected
from ludoteca.server.social.desk import Desk
from ludoteca.server.social.feed import Feed
from ludoteca.server.social.service import (
    INVITES_PER_HOUR,
    PRESENCE_SECONDS,
    REPORTS_PER_HOUR,
    Social,
)
from ludoteca.server.storage import MemoryStorage
from ludoteca.server.storage.engine import engine_for
from ludoteca.server.storage.schema import metadata

PASSWORD = "correct horse battery"
T = TypeVar("T")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class World:
    """Accounts, friends and the desk over one in-memory database; tables "open1" (open) and
    "over1" (over) exist."""

    def __init__(self, engine: Any = None) -> None:
        self.clock = Clock()
        self.engine = engine or memory_engine()
        loose = {"limit_login": "1000/minute", "limit_login_pair": "1000/minute"}
        self.accounts = Accounts(
            AccountStore(self.engine),
            MemoryStorage(),
            RateLimits(Settings(limit_login_account="1000/minute", **loose)),
            idle_seconds=3600,
            max_seconds=36000,
            now=self.clock,
        )
        self.social = Social(self.accounts, table_status=self.status)
        self.hidden: list[tuple[str, str]] = []
        self.ended: list[str] = []
        self.desk = Desk(self.social, chat=FakeChat(self.hidden), end_table=self.end)
        self.tokens: dict[str, str] = {}

    async def status(self, table_id: str) -> str | None:
        return {"open1": "open", "over1": "over"}.get(table_id)

    async def end(self, table_id: str) -> str:
        self.ended.append(table_id)
        return "expired"

    async def person(self, name: str) -> Account:
        signed = await self.accounts.sign_up(name, PASSWORD, "client", None)
        self.tokens[name] = signed.token
        return signed.account


class FakeChat:
    """The chat as the desk sees it: message "m2" of table "open1" exists."""

    def __init__(self, hidden: list[tuple[str, str]]) -> None:
        self.hidden = hidden

    async def around(self, table_id: str, message_id: str) -> list[dict[str, Any]] | None:
        if (table_id, message_id) != ("open1", "m2"):
            return None
        return [{"id": f"m{i}", "text": f"line {i}"} for i in (1, 2, 3)]

    async def hide(self, table_id: str, message_id: str) -> bool:
        if (table_id, message_id) != ("open1", "m2"):
            return False
        self.hidden.append((table_id, message_id))
        return True


def run(test: Callable[[World], Awaitable[T]]) -> T:
    async def go() -> T:
        world = World()
        try:
            return await test(world)
        finally:
            world.accounts.close()

    return asyncio.run(go())


async def refused(code: str, job: Awaitable[Any]) -> None:
    with pytest.raises(Rejected) as caught:
        await job
    assert caught.value.code == code, caught.value.message


# ------------------------------------------------------------------------------ follows
def test_following_by_name_and_removing_a_follower() -> None:
    async def test(w: World) -> None:
        ana, bia = await w.person("Ana"), await w.person("Bia")
        await w.social.follow(ana, "bia")  # names are matched as sign-in matches them
        await w.social.follow(ana, "Bia")  # twice is once
        seen = await w.social.friends(ana, set())
        assert [f["name"] for f in seen["following"]] == ["Bia"]
        assert (await w.social.friends(bia, set()))["followers"] == ["Ana"]
        await w.social.remove_follower(bia, "Ana")
        assert (await w.social.friends(ana, set()))["following"] == []
        await refused("not_yourself", w.social.follow(ana, "ANA"))
        await refused("no_player", w.social.follow(ana, "Nobody"))

    run(test)


def test_a_friend_online_is_shown_unless_they_hide_it() -> None:
    async def test(w: World) -> None:
        ana, bia = await w.person("Ana"), await w.person("Bia")
        await w.social.follow(ana, "Bia")
        assert (await w.social.friends(ana, {bia.id}))["following"][0]["online"] is True
        await w.social.set_hide_online(bia, True)
        assert (await w.social.friends(ana, {bia.id}))["following"][0]["online"] is False
        assert (await w.social.friends(bia, set()))["hide_online"] is True

    run(test)


# ----------------------------------------------------------------------------- blocking
def test_a_blocked_person_cannot_follow_invite_or_be_followed_and_the_follow_ends() -> None:
    async def test(w: World) -> None:
        ana, bia = await w.person("Ana"), await w.person("Bia")
        await w.social.follow(bia, "Ana")
        await w.social.block(ana, "Bia")
        assert (await w.social.friends(ana, set()))["followers"] == []  # the follow ended
        assert (await w.social.friends(ana, set()))["blocked"] == ["Bia"]
        await refused("blocked", w.social.follow(bia, "Ana"))
        await refused("blocked", w.social.follow(ana, "Bia"))
        await refused("blocked", w.social.invite(bia, "Ana", "open1"))
        await refused("blocked", w.social.invite(ana, "Bia", "open1"))
        assert await w.social.blocked_between(ana.id, bia.id)
        assert await w.social.blocked_between(bia.id, ana.id)
        await refused("not_yourself", w.social.block(ana, "Ana"))
        await w.social.unblock(ana, "Bia")
        assert not await w.social.blocked_between(ana.id, bia.id)
        await w.social.follow(bia, "Ana")

    run(test)


def test_the_chat_filter_is_the_set_a_reader_blocked() -> None:
    async def test(w: World) -> None:
        ana, bia, cai = await w.person("Ana"), await w.person("Bia"), await w.person("Cai")
        await w.social.block(ana, "Bia")
        await w.social.block(ana, "Cai")
        await w.social.block(cai, "Bia")
        assert await w.social.blocked_by(ana.id) == {bia.id, cai.id}
        assert await w.social.blocked_by(bia.id) == frozenset()
        # the chat's filter goes both ways: nobody is shown the messages of someone a block
        # keeps apart from them, whoever blocked
        assert await w.social.unheard(ana.id) == {bia.id, cai.id}
        assert await w.social.unheard(bia.id) == {ana.id, cai.id}
        assert await w.social.unheard(cai.id) == {ana.id, bia.id}
        dan = await w.person("Dan")
        assert await w.social.unheard(dan.id) == frozenset()

    run(test)


def test_a_blocked_person_cannot_sit_at_a_table_the_blocker_sits_at() -> None:
    async def test(w: World) -> None:
        ana, bia, cai = await w.person("Ana"), await w.person("Bia"), await w.person("Cai")
        await w.accounts.hold_seat(ana, "t1", 0, "token-a")
        await w.social.block(ana, "Bia")
        await refused("blocked", w.social.may_sit(bia.id, "t1"))
        await w.social.may_sit(cai.id, "t1")  # anyone else sits
        await w.accounts.hold_seat(bia, "t2", 0, "token-b")
        await refused("blocked", w.social.may_sit(ana.id, "t2"))  # the blocker neither

    run(test)


# ------------------------------------------------------------------------------ invites
def test_invitations_are_checked_and_limited() -> None:
    async def test(w: World) -> None:
        ana = await w.person("Ana")
        await w.person("Bia")
        await refused("no_table", w.social.invite(ana, "Bia", "nowhere"))
        await refused("not_open", w.social.invite(ana, "Bia", "over1"))
        await refused("not_yourself", w.social.invite(ana, "Ana", "open1"))
        for _ in range(INVITES_PER_HOUR):
            await w.social.invite(ana, "Bia", "open1")
        await refused("rate_limited", w.social.invite(ana, "Bia", "open1"))
        w.clock.now += 3601
        await w.social.invite(ana, "Bia", "open1")

    run(test)


def test_presence_and_invitations_reach_the_other_process() -> None:
    async def test(w: World) -> None:
        ana, bia = await w.person("Ana"), await w.person("Bia")
        here, there = Feed(w.social, "p1"), Feed(w.social, "p2")
        await here.deliver(), await there.deliver()  # each process's cursor starts now
        outbox = there.join(bia.id)  # Bia's page is open on the other process
        assert await here.online([bia.id]) == set()  # not written yet
        await there.tick()
        assert await here.online([bia.id, ana.id]) == {bia.id}
        await w.social.invite(ana, "Bia", "open1")
        assert await here.deliver() == 0  # nobody of it connected here
        assert await there.deliver() == 1
        assert outbox.get_nowait() == {"type": "invite", "from": "Ana", "table": "open1"}
        there.leave(bia.id, outbox)
        await there.tick()
        assert await here.online([bia.id]) == set()
        there.join(bia.id)
        await there.tick()
        w.clock.now += 2 * PRESENCE_SECONDS + 1  # the process died: its rows lapse
        assert await here.online([bia.id]) == set()

    run(test)


# ------------------------------------------------------------------------------ reports
def test_reports_keep_their_context_and_are_limited() -> None:
    async def test(w: World) -> None:
        ana, bia = await w.person("Ana"), await w.person("Bia")
        await refused(
            "not_yourself", w.social.report(ana, "account", "Ana", None, None, "spam", "")
        )
        await refused("bad_request", w.social.report(ana, "account", "Bia", None, None, "meh", ""))
        await refused(
            "bad_request", w.social.report(ana, "account", "Bia", None, None, "spam", "x" * 501)
        )
        await refused(
            "bad_request", w.social.report(ana, "message", "Bia", "open1", None, "abuse", "")
        )
        await refused("no_table", w.social.report(ana, "table", None, "nowhere", None, "other", ""))
        # a message's author is the chat's (the route reads it), not the name given
        first = await w.social.report(
            ana, "message", "Cai", "open1", "m2", "abuse", "rude", author=bia.id
        )
        await w.social.report(ana, "table", None, "over1", None, "cheating", "")
        await w.social.report(ana, "message", None, "open1", "m9", "spam", "", author=bia.id)
        await refused(
            "not_yourself",
            w.social.report(ana, "message", None, "open1", "m3", "spam", "", author=ana.id),
        )
        listed = await w.desk.reports()
        assert len(listed) == 3
        assert listed[0] | {"at": 0} == {
            "id": first,
            "reporter": "Ana",
            "kind": "message",
            "account": "Bia",
            "table": "open1",
            "message": "m2",
            "reason": "abuse",
            "note": "rude",
            "at": 0,
            "closed_at": None,
            "closed_by": None,
            "context": [{"id": f"m{i}", "text": f"line {i}"} for i in (1, 2, 3)],
        }
        assert listed[1]["context"] is None and listed[2]["context"] is None  # no chat context
        for _ in range(REPORTS_PER_HOUR - 3):
            await w.social.report(ana, "account", "Bia", None, None, "other", "")
        await refused(
            "rate_limited", w.social.report(ana, "account", "Bia", None, None, "other", "")
        )
        assert bia.id  # the reported person is not told

    run(test)


# ----------------------------------------------------------------------------- the desk
def test_only_operators_pass_the_desk() -> None:
    async def test(w: World) -> None:
        ana, olga = await w.person("Ana"), await w.person("Olga")
        await refused("not_operator", w.desk.operator(ana))
        await refused("not_operator", w.desk.operator(None))
        assert await w.desk.grant("Olga", "cli:root", "on duty")
        assert await w.desk.operator(olga) == "Olga"
        assert await w.desk.revoke("olga", "cli:root", "off duty")
        await refused("not_operator", w.desk.operator(olga))

    run(test)


def test_a_suspended_account_loses_its_sessions_and_cannot_sign_in_until_it_ends() -> None:
    async def test(w: World) -> None:
        bia = await w.person("Bia")
        other = await w.accounts.sign_in("Bia", PASSWORD, "elsewhere", None)
        assert await w.accounts.session(w.tokens["Bia"]) is not None
        await w.desk.sanction("Olga", "Bia", "suspend", 3600, "threats")
        assert await w.accounts.session(w.tokens["Bia"]) is None
        assert await w.accounts.session(other.token) is None
        await refused("suspended", w.accounts.sign_in("Bia", PASSWORD, "client", None))
        assert not await w.social.may_pair(bia.id) and not await w.social.may_chat(bia.id)
        w.clock.now += 3601
        await w.accounts.sign_in("Bia", PASSWORD, "client", None)
        assert await w.social.may_pair(bia.id)
        await w.desk.sanction("Olga", "Bia", "suspend", None, "again")  # for good
        w.clock.now += 10 * 365 * 86400
        await refused("suspended", w.accounts.sign_in("Bia", PASSWORD, "client", None))
        await w.desk.lift("Olga", "Bia", "suspend", "appeal granted")
        await w.accounts.sign_in("Bia", PASSWORD, "client", None)

    run(test)


def test_a_muted_account_signs_in_but_cannot_chat_or_invite() -> None:
    async def test(w: World) -> None:
        bia = await w.person("Bia")
        await w.person("Ana")
        await w.desk.sanction("Olga", "Bia", "mute", 600, "spam")
        assert not await w.social.may_chat(bia.id) and await w.social.may_pair(bia.id)
        await refused("muted", w.social.invite(bia, "Ana", "open1"))
        await w.accounts.sign_in("Bia", PASSWORD, "client", None)
        await refused("bad_request", w.desk.sanction("Olga", "Bia", "mute", 5, "too short"))

    run(test)


def test_every_operator_action_needs_a_why_and_is_in_the_audit_log() -> None:
    async def test(w: World) -> None:
        ana = await w.person("Ana")
        await w.person("Bia"), await w.person("Olga")
        report = await w.social.report(ana, "message", "Bia", "open1", "m2", "abuse", "")
        await refused("bad_request", w.desk.close_report("Olga", report, "  "))
        await refused("bad_request", w.desk.sanction("Olga", "Bia", "mute", None, ""))
        assert await w.desk.audit() == []  # a refused action leaves nothing
        await w.desk.grant("Olga", "cli:root", "new operator")
        await w.desk.hide_message("Olga", "open1", "m2", "insult")
        await refused("not_found", w.desk.hide_message("Olga", "open1", "m7", "insult"))
        await w.desk.close_report("Olga", report, "message hidden")
        await refused("no_report", w.desk.close_report("Olga", report, "twice"))
        await w.desk.sanction("Olga", "Bia", "mute", 86400, "insults")
        await w.desk.lift("Olga", "Bia", "mute", "apologised")
        assert await w.desk.end_table("Olga", "open1", "abandoned") == "expired"
        log = await w.desk.audit()
        assert [(e["operator"], e["action"], e["target"], e["reason"]) for e in log] == [
            ("Olga", "end_table", "open1", "abandoned"),
            ("Olga", "lift_mute", "Bia", "apologised"),
            ("Olga", "mute", "Bia for 86400 s", "insults"),
            ("Olga", "close_report", f"report {report}", "message hidden"),
            ("Olga", "hide_message", "open1 m2", "insult"),
            ("cli:root", "grant", "Olga", "new operator"),
        ]
        assert all(e["at"] == w.clock.now for e in log)
        assert w.hidden == [("open1", "m2")] and w.ended == ["open1"]
        assert (await w.desk.reports(closed=True))[0]["closed_by"] == "Olga"
        assert await w.desk.reports() == []

    run(test)


def test_deleting_an_account_forgets_its_ties() -> None:
    async def test(w: World) -> None:
        ana, bia = await w.person("Ana"), await w.person("Bia")
        await w.social.follow(ana, "Bia")
        await w.social.block(bia, "Ana")  # ends the follow; a block is kept by the blocker
        await w.social.unblock(bia, "Ana")
        await w.social.follow(bia, "Ana")
        await w.social.block(ana, "Bia")
        await w.accounts.delete(bia)
        assert await w.social.blocked_by(ana.id) == frozenset()
        assert (await w.social.friends(ana, set()))["followers"] == []

    run(test)


@pytest.mark.postgres
def test_the_same_rules_hold_on_postgresql(postgres_url: str) -> None:
    engine = engine_for(postgres_url)
    metadata.create_all(engine, tables=ACCOUNT_TABLES)

    async def go() -> None:
        w = World(engine)
        try:
            ana, bia = await w.person("Ana"), await w.person("Bia")
            await w.social.follow(bia, "Ana")
            await w.social.block(ana, "Bia")
            await refused("blocked", w.social.follow(bia, "Ana"))
            await w.accounts.hold_seat(ana, "t1", 0, "token-a")
            await refused("blocked", w.social.may_sit(bia.id, "t1"))
            assert await w.social.blocked_by(ana.id) == {bia.id}
            first = await w.social.report(ana, "message", "Bia", "open1", "m2", "abuse", "")
            second = await w.social.report(ana, "account", "Bia", None, None, "spam", "")
            assert second == first + 1
            await w.desk.sanction("Olga", "Bia", "suspend", None, "threats")
            await refused("suspended", w.accounts.sign_in("Bia", PASSWORD, "client", None))
            await w.desk.close_report("Olga", first, "done")
            assert [e["action"] for e in await w.desk.audit()] == ["close_report", "suspend"]
            here, there = Feed(w.social, "p1"), Feed(w.social, "p2")
            await here.deliver(), await there.deliver()
            outbox = there.join(ana.id)
            await there.tick()
            assert await here.online([ana.id]) == {ana.id}
            await w.desk.lift("Olga", "Bia", "suspend", "appeal")
            await w.social.unblock(ana, "Bia")
            await w.social.invite(bia, "Ana", "open1")
            assert await there.deliver() == 1 and outbox.get_nowait()["from"] == "Bia"
        finally:
            w.accounts.close()

    try:
        asyncio.run(go())
    finally:
        engine.dispose()
