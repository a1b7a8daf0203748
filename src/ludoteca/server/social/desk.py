"""The operator's desk: reports, hiding a message, muting and suspending, ending a table, and
the audit log of every one of these (who, what, when, why). The web page (``/admin``) and the
command (``ludoteca admin``) both act through ``Desk``; operators are made only by the command
(``grant``). docs/moderation.md is the operators' guide, docs/accounts.md the threat model.

The chat lives elsewhere: the desk reaches it through ``ChatDesk`` (the messages around a
reported one, hiding one), which defaults to ``NoChat`` — reports then show the message's id and
table, without context."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal, Protocol

from ludoteca.server.accounts.rows import Account
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected

from .service import Social

MAX_WHY = 500
SanctionKind = Literal["mute", "suspend"]


class ChatDesk(Protocol):
    """What the desk asks of the table chat."""

    async def around(self, table_id: str, message_id: str) -> list[dict[str, Any]] | None:
        """The messages around one (the reported one among them), or None: no chat context."""
        ...

    async def hide(self, table_id: str, message_id: str) -> bool:
        """Hide the message from every reader; False if there is no such message."""
        ...


class NoChat:
    """No chat to ask: no context, and no message to hide."""

    async def around(self, table_id: str, message_id: str) -> list[dict[str, Any]] | None:
        return None

    async def hide(self, table_id: str, message_id: str) -> bool:
        return False


TableEnder = Callable[[str], Awaitable[str]]
"""Ends a table by its id for the operator; returns how it ended (Rejected if it cannot)."""


def check_why(why: str) -> str:
    why = why.strip()
    if not why:
        raise Rejected(ErrorCode.BAD_REQUEST, "why: say why (it goes in the audit log)")
    if len(why) > MAX_WHY:
        raise Rejected(ErrorCode.BAD_REQUEST, f"why: at most {MAX_WHY} characters")
    return why


class Desk:
    def __init__(
        self,
        social: Social,
        *,
        chat: ChatDesk | None = None,
        end_table: TableEnder | None = None,
        signed_out: Callable[[str], None] | None = None,
    ) -> None:
        self.social = social
        self.store = social.desk
        self.run = social.run
        self.chat: ChatDesk = chat or NoChat()
        self.end_table_by = end_table
        self.signed_out = signed_out  # told when an account's sessions end (closes its feeds)

    # ---------------------------------------------------------------------- who
    async def operator(self, account: Account | None) -> str:
        """The operator's name; ``not_operator`` (403) for anyone else (None: nobody)."""
        if account is None or not await self.run(self.store.is_operator, account.id):
            raise Rejected(ErrorCode.NOT_OPERATOR, "this is for the site's operators")
        return account.name

    async def is_operator(self, account: Account) -> bool:
        return bool(await self.run(self.store.is_operator, account.id))

    async def grant(self, name: str, by: str, why: str) -> bool:
        """Make ``name`` an operator (the command only, never the web)."""
        why = check_why(why)
        account = await self.social.person(name)
        done = await self.run(self.store.grant, account.id, self.social.now())
        await self._audit(by, "grant", account.name, why)
        return bool(done)

    async def revoke(self, name: str, by: str, why: str) -> bool:
        why = check_why(why)
        account = await self.social.person(name)
        done = await self.run(self.store.revoke, account.id)
        await self._audit(by, "revoke", account.name, why)
        return bool(done)

    async def _audit(self, operator: str, action: str, target: str, why: str) -> None:
        await self.run(self.store.audit, operator, action, target, why, self.social.now())
        log("operator_action", operator=operator, action=action, target=target[:64])

    # ------------------------------------------------------------------ reports
    async def reports(self, closed: bool = False, limit: int = 100) -> list[dict[str, Any]]:
        """Open reports oldest first (closed: newest first), each with its chat context when
        the chat gives one (``context``: None when it does not)."""
        found = []
        for report in await self.run(self.store.reports, closed, limit):
            shown = report.public()
            context = None
            if report.message_id and report.table_id:
                context = await self.chat.around(report.table_id, report.message_id)
            found.append(shown | {"context": context})
        return found

    async def close_report(self, operator: str, report_id: int, why: str) -> None:
        why = check_why(why)
        if not await self.run(self.store.close_report, report_id, operator, self.social.now()):
            raise Rejected(ErrorCode.NO_REPORT, f"there is no open report {report_id}")
        await self._audit(operator, "close_report", f"report {report_id}", why)

    # ----------------------------------------------------------------- messages
    async def hide_message(self, operator: str, table_id: str, message_id: str, why: str) -> None:
        why = check_why(why)
        if not await self.chat.hide(table_id, message_id):
            raise Rejected(ErrorCode.NOT_FOUND, f"there is no message {message_id[:64]}")
        await self._audit(operator, "hide_message", f"{table_id[:32]} {message_id[:64]}", why)

    # ---------------------------------------------------------------- sanctions
    async def sanction(
        self, operator: str, name: str, kind: SanctionKind, seconds: float | None, why: str
    ) -> None:
        """Mute (no chat, no invitations) or suspend (no sign-in, chat, pairing; every session
        ends at once) ``name`` for ``seconds``, or for good (None)."""
        why = check_why(why)
        if seconds is not None and not 60 <= seconds <= 10 * 365 * 86400:
            raise Rejected(ErrorCode.BAD_REQUEST, "seconds: from 60 to ten years, or none")
        account = await self.social.person(name)
        now = self.social.now()
        until = None if seconds is None else now + seconds
        await self.run(self.store.sanction, account.id, kind, until, now)
        if kind == "suspend":
            accounts = self.social.accounts
            await accounts.store.run(accounts.store.delete_sessions, account.id)
            if self.signed_out is not None:
                self.signed_out(account.id)
        span = "for good" if seconds is None else f"for {seconds:.0f} s"
        await self._audit(operator, kind, f"{account.name} {span}", why)

    async def lift(self, operator: str, name: str, kind: SanctionKind, why: str) -> None:
        why = check_why(why)
        account = await self.social.person(name)
        if not await self.run(self.store.lift, account.id, kind):
            raise Rejected(ErrorCode.NOT_FOUND, f"{account.name} has no {kind} in force")
        await self._audit(operator, f"lift_{kind}", account.name, why)

    async def sanctions_of(self, name: str) -> dict[str, float | None]:
        account = await self.social.person(name)
        found: dict[str, float | None] = await self.run(
            self.store.sanctions_of, account.id, self.social.now()
        )
        return found

    # -------------------------------------------------------------------- tables
    async def end_table(self, operator: str, table_id: str, why: str) -> str:
        why = check_why(why)
        if self.end_table_by is None:
            raise Rejected(ErrorCode.NOT_ALLOWED, "tables cannot be ended from here")
        how = await self.end_table_by(table_id)
        await self._audit(operator, "end_table", table_id[:32], why)
        return how

    # --------------------------------------------------------------------- audit
    async def audit(self, limit: int = 200) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await self.run(self.store.audit_log, limit)
        return found
