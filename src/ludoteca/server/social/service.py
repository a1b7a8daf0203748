"""Friends and blocking as the routes, the lobby and the chat use them: follow a person by
name, remove a follower, block and unblock, the privacy setting, invite a friend to a table,
report a person, a table or a message; and the two questions other parts ask:
``blocked_between(a, b)`` (pairing, seating, invitations) and ``blocked_by(reader)`` (the chat's
filter of what a reader sees). Presence and the in-page notices are ``feed``'s.

The rules are docs/accounts.md#friends-and-blocking."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, Literal

from ludoteca.server.accounts.rows import Account
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, TooMany
from ludoteca.server.storage.rows import EXPIRED

from .desk_store import DeskStore
from .store import SocialStore

REASONS = ("abuse", "cheating", "spam", "name", "other")
"""Why a person reports: abuse, cheating, spam, an inappropriate name, something else."""
MAX_NOTE = 500
REPORTS_PER_HOUR = 10
INVITES_PER_HOUR = 30
INVITE_DAYS = 2  # an invitation not shown by then is forgotten
FRIENDS_MAX = 200  # the most people one account follows
PRESENCE_SECONDS = 30.0  # a process refreshes its people this often; a row twice as old is gone

ReportKind = Literal["account", "table", "message"]


def _names(pairs: Iterable[tuple[str, str]]) -> list[str]:
    return [name for _, name in pairs]


class Social:
    """One per process, beside ``Accounts``: everything it keeps is in the database."""

    def __init__(
        self,
        accounts: Accounts,
        *,
        table_status: Callable[[str], Any] | None = None,
        now: Callable[[], float] | None = None,
    ) -> None:
        self.accounts = accounts
        self.run = accounts.store.run
        self.store = SocialStore(accounts.store.engine)
        self.desk = DeskStore(accounts.store.engine)
        self.now = now or accounts.now
        self.table_status = table_status  # async (table id) -> status, or None if no table
        self.pending: set[asyncio.Task[None]] = set()  # invitations being pushed or mailed

    # ------------------------------------------------------------------------- people
    async def person(self, name: str) -> Account:
        return await self.accounts.account_named(name)

    async def other(self, me: Account, name: str, what: str) -> Account:
        """The account named ``name``, refused (``not_yourself``) when it is ``me``."""
        them = await self.person(name)
        if them.id == me.id:
            raise Rejected(ErrorCode.NOT_YOURSELF, f"you cannot {what} yourself")
        return them

    # ------------------------------------------------------------------------ follows
    async def follow(self, me: Account, name: str) -> None:
        them = await self.other(me, name, "follow")
        if await self.blocked_between(me.id, them.id):
            raise Rejected(ErrorCode.BLOCKED, f"you cannot follow {them.name}")
        if len(await self.run(self.store.following, me.id)) >= FRIENDS_MAX:
            raise Rejected(ErrorCode.BAD_REQUEST, f"you follow {FRIENDS_MAX} people already")
        if await self.run(self.store.follow, me.id, them.id, self.now()):
            log("followed", account=me.id, followed=them.id)

    async def unfollow(self, me: Account, name: str) -> None:
        them = await self.person(name)
        await self.run(self.store.unfollow, me.id, them.id)

    async def remove_follower(self, me: Account, name: str) -> None:
        them = await self.person(name)
        await self.run(self.store.unfollow, them.id, me.id)

    # ------------------------------------------------------------------------- blocks
    async def block(self, me: Account, name: str) -> None:
        """Block ``name``: a follow either way between the two ends."""
        them = await self.other(me, name, "block")
        if await self.run(self.store.block, me.id, them.id, self.now()):
            log("blocked", account=me.id, blocked=them.id)

    async def unblock(self, me: Account, name: str) -> None:
        them = await self.person(name)
        await self.run(self.store.unblock, me.id, them.id)

    async def blocked_between(self, a: str, b: str) -> bool:
        """Whether either of the two accounts (ids) blocked the other: the pairing code keeps
        them apart, neither may sit at a table the other sits at, invite or follow the other."""
        return a != b and await self.run(self.store.blocks_among, a, [b])

    async def unheard(self, reader: str) -> frozenset[str]:
        """The account ids whose chat messages ``reader`` is never shown: whom the reader
        blocked, and who blocked the reader (a block keeps both apart)."""
        return frozenset(await self.run(self.store.blocks_either_way, reader))

    async def apart(self, accounts: list[str]) -> frozenset[frozenset[str]]:
        """The pairs among ``accounts`` (ids) where one blocked the other: the pairing pool
        never seats them together."""
        return frozenset(
            frozenset(pair) for pair in await self.run(self.store.blocked_pairs, accounts)
        )

    async def blocked_by(self, reader: str) -> frozenset[str]:
        """The account ids ``reader`` blocked: the chat hides their messages from the reader
        and refuses their messages to the reader's table (``chat_refused``)."""
        return frozenset(await self.run(self.store.blocked_by, reader))

    async def may_sit(self, account_id: str, table_id: str) -> None:
        """``blocked`` when a person seated at the table and this account blocked each other."""
        holders = await self.accounts.store.run(self.accounts.store.holders, table_id)
        others = [holder for _, holder, _ in holders]
        if await self.run(self.store.blocks_among, account_id, others):
            raise Rejected(ErrorCode.BLOCKED, "you cannot sit at this table")

    # ---------------------------------------------------------------------- sanctions
    async def sanctioned(self, account_id: str, kind: str) -> bool:
        """Whether the account is muted (``mute``) or suspended (``suspend``) now."""
        until = await self.run(self.accounts.store.sanctioned_until, account_id, kind, self.now())
        return until is not None

    async def may_chat(self, account_id: str) -> bool:
        """Neither muted nor suspended (the chat asks before storing a message)."""
        return not (
            await self.sanctioned(account_id, "mute")
            or await self.sanctioned(account_id, "suspend")
        )

    async def may_pair(self, account_id: str) -> bool:
        """Not suspended (the pairing code asks before pairing)."""
        return not await self.sanctioned(account_id, "suspend")

    # ------------------------------------------------------------------------ friends
    async def friends(self, me: Account, online: set[str]) -> dict[str, Any]:
        """My page's section: whom I follow (online unless they hide it, their tables), who
        follows me, whom I blocked, and my privacy setting. ``online`` are the ids with a
        websocket open somewhere (``Feed.online``)."""
        following = await self.run(self.store.following, me.id)
        hidden = await self.run(self.store.hides_online, [i for i, _ in following])
        people = []
        for account_id, name in following:
            shown = account_id in online and account_id not in hidden
            people.append(
                {"name": name, "online": shown, "tables": await self._tables_of(account_id)}
            )
        return {
            "following": people,
            "followers": _names(await self.run(self.store.followers, me.id)),
            "blocked": _names(await self.run(self.store.blocked_list, me.id)),
            "hide_online": me.id in await self.run(self.store.hides_online, [me.id]),
        }

    async def _tables_of(self, account_id: str) -> list[dict[str, Any]]:
        """A friend's open and running tables (no seat tokens), with a turn-based table's step."""
        account = Account(account_id, "", None, 0.0)
        found = []
        for table in await self.accounts.my_tables(account):
            if table["status"] in ("over", EXPIRED):
                continue
            found.append(
                {k: table[k] for k in ("table", "game", "status", "players", "rated")}
                | {"version": await self._version(table["table"])}
            )
        return found[:10]

    async def _version(self, table_id: str) -> int | None:
        versions = await self.accounts.storage.versions([table_id])
        found = versions.get(table_id)
        return None if found is None else found[0]

    async def set_hide_online(self, me: Account, hide: bool) -> None:
        await self.run(self.store.set_hide_online, me.id, hide)

    # ------------------------------------------------------------------------ invites
    async def invite(self, me: Account, name: str, table_id: str) -> Account:
        """Invite ``name`` to a table; the feed shows it on their pages, and ``notify`` pushes
        or mails it if they asked for news. Refused: oneself, a person either side blocked, a
        muted or suspended sender, a table that is not there or not open, too many."""
        them = await self.other(me, name, "invite")
        if await self.blocked_between(me.id, them.id):
            raise Rejected(ErrorCode.BLOCKED, f"you cannot invite {them.name}")
        if not await self.may_chat(me.id):
            raise Rejected(ErrorCode.MUTED, "your account may not send invitations now")
        status = None if self.table_status is None else await self.table_status(table_id)
        if status is None:
            raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id[:32]}'")
        if status in ("over", EXPIRED):
            raise Rejected(ErrorCode.NOT_OPEN, "this table has ended")
        now = self.now()
        sent = await self.run(self.store.invites_sent_since, me.id, now - 3600)
        if sent >= INVITES_PER_HOUR:
            raise TooMany(ErrorCode.RATE_LIMITED, "too many invitations: try again later", 600)
        await self.run(self.store.invite, me.id, them.id, table_id, now)
        log("invited", account=me.id, to=them.id, table=table_id)
        return them

    # ------------------------------------------------------------------------ reports
    async def report(  # noqa: PLR0917
        self,
        me: Account,
        kind: ReportKind,
        name: str | None,
        table_id: str | None,
        message_id: str | None,
        reason: str,
        note: str,
        author: str | None = None,
    ) -> int:
        """Store a report with its context; refused: a report against oneself, an unknown
        reason, a note too long, a report naming nothing, too many reports in an hour. A
        message's ``author`` (an account id, None for a guest's) comes from the chat, never
        from the reporter."""
        if reason not in REASONS:
            raise Rejected(ErrorCode.BAD_REQUEST, f"reason: one of {', '.join(REASONS)}")
        if len(note) > MAX_NOTE:
            raise Rejected(ErrorCode.BAD_REQUEST, f"note: at most {MAX_NOTE} characters")
        if kind == "account" and not name:
            raise Rejected(ErrorCode.BAD_REQUEST, "name: whom the report is about")
        if kind == "table" and not table_id:
            raise Rejected(ErrorCode.BAD_REQUEST, "table: which table the report is about")
        if kind == "message" and not (message_id and table_id):
            raise Rejected(ErrorCode.BAD_REQUEST, "message, table: which message, at which table")
        them = await self.other(me, name, "report") if name and kind != "message" else None
        if kind == "message" and author == me.id:
            raise Rejected(ErrorCode.NOT_YOURSELF, "you cannot report yourself")
        if table_id and self.table_status is not None and await self.table_status(table_id) is None:
            raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id[:32]}'")
        now = self.now()
        if await self.run(self.desk.reports_since, me.id, now - 3600) >= REPORTS_PER_HOUR:
            raise TooMany(ErrorCode.RATE_LIMITED, "too many reports: try again later", 600)
        values = {
            "reporter_id": me.id,
            "kind": kind,
            "account_id": author if kind == "message" else None if them is None else them.id,
            "table_id": table_id,
            "message_id": message_id,
            "reason": reason,
            "note": note,
            "at": now,
        }
        report_id = await self.run(self.desk.add_report, values)
        log("reported", account=me.id, report=report_id, kind=kind)
        return report_id

    async def export(self, me: Account) -> dict[str, Any]:
        """What the ties hold about me, for ``GET /api/me/export``: whom I follow, who follows
        me, whom I blocked, my privacy setting, the reports I made, the sanctions in force."""
        mine = await self.run(self.desk.reports_by, me.id)
        return {
            "following": _names(await self.run(self.store.following, me.id)),
            "followers": _names(await self.run(self.store.followers, me.id)),
            "blocked": _names(await self.run(self.store.blocked_list, me.id)),
            "hide_online": me.id in await self.run(self.store.hides_online, [me.id]),
            "reports_made": mine,
            "sanctions": await self.run(self.desk.sanctions_of, me.id, self.now()),
        }

    # --------------------------------------------------------------------- upkeep
    async def forget_old(self) -> None:
        now = self.now()
        await self.run(self.store.forget_presence, now - 10 * PRESENCE_SECONDS)
        await self.run(self.store.forget_invites, now - INVITE_DAYS * 86400)
