"""Password reset (docs/accounts.md#password-reset): a single-use link mailed to an account's
confirmed address, valid for ``RESET_SECONDS``, that sets a new password and ends every session.

Asking answers the same whatever was asked: the route checks only the shape of what was typed
(a name or an e-mail address) and counts it against the limits — per client address and per
name or address asked for, whether it belongs to anyone or not — then queues it. Finding the
accounts, making the link and mailing it happen afterwards, in ``PasswordResets.run``, so the
answer carries nothing, not even its time, about whether an account was found.

A link's token is 32 random bytes, signed by the notifications' link secret (HMAC-SHA-256, so a
forged one is refused without a look at the database); the database keeps only the SHA-256 of
the random part, its account and its end. Using a link deletes it and the account's other links
in the transaction that sets the password and deletes the sessions."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine

from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, TooMany
from ludoteca.server.storage.schema import accounts, notify_emails, password_resets, sessions

from .rows import Account, Browser, SignedIn
from .rules import RuleError, check_address, check_name, check_password, name_key
from .service import Accounts

RESET_SECONDS = 30 * 60.0  # a link works this long
PURPOSE = "reset"  # what the link's signature is for (no other link's token is accepted)
QUEUED = 1000  # resets asked for and not yet mailed (beyond: dropped, logged)
ACCOUNTS_PER_ADDRESS = 5  # accounts mailed for one address asked for (addresses are not unique)
BAD_LINK = (
    "this link does not work: it was used already, its 30 minutes are over, or it was not "
    "made here; ask for a new one"
)

Mailer = Callable[[str, str, str, str], Awaitable[None]]
"""Mails a reset link: (address, language, the account's name, the link's token)."""


class Signer(Protocol):
    def sign(self, purpose: str, subject: str) -> str: ...

    def verify(self, token: str, purpose: str) -> str | None: ...


def reset_digest(secret: str) -> str:
    """What the database keeps of a link's random part."""
    return hashlib.sha256(f"ludoteca/reset\n{secret}".encode()).hexdigest()


def asked_for(who: str) -> tuple[str, str]:
    """``("address", folded)`` or ``("name", key)``: what a reset was asked for; RuleError
    when it is neither a name nor an e-mail address."""
    who = who.strip()
    if "@" in who:
        return "address", check_address(who).casefold()
    return "name", name_key(check_name(who))


# ---------------------------------------------------------------------- the database
def reset_targets(engine: Engine, kind: str, key: str) -> list[tuple[str, str, str]]:
    """(account id, name, confirmed address) of the accounts a reset asked for reaches."""
    query = (
        select(accounts.c.id, accounts.c.name, notify_emails.c.address)
        .join(notify_emails, notify_emails.c.account_id == accounts.c.id)
        .where(notify_emails.c.confirmed_at.is_not(None))
        .where(
            accounts.c.name_key == key
            if kind == "name"
            else func.lower(notify_emails.c.address) == key
        )
        .order_by(accounts.c.created_at)
        .limit(ACCOUNTS_PER_ADDRESS)
    )
    with engine.connect() as conn:
        return [(r.id, r.name, r.address) for r in conn.execute(query)]


def add_reset(engine: Engine, digest: str, account_id: str, now: float, until: float) -> None:
    with engine.begin() as conn:
        conn.execute(delete(password_resets).where(password_resets.c.expires_at < now))
        conn.execute(
            insert(password_resets).values(
                token=digest, account_id=account_id, created_at=now, expires_at=until
            )
        )


def reset_account(engine: Engine, digest: str, now: float) -> Account | None:
    """The account a live link is for (the link stays usable); an expired one is deleted."""
    query = (
        select(accounts, password_resets.c.expires_at)
        .join(password_resets, password_resets.c.account_id == accounts.c.id)
        .where(password_resets.c.token == digest)
    )
    with engine.begin() as conn:
        row = conn.execute(query).first()
        if row is not None and row.expires_at < now:
            conn.execute(delete(password_resets).where(password_resets.c.token == digest))
            return None
    return None if row is None else Account(row.id, row.name, row.password_hash, row.created_at)


def use_reset(engine: Engine, digest: str, password_hash: str, now: float) -> Account | None:
    """Use a link once: it and the account's other links are deleted, the password set and
    every session deleted, in one transaction. None if the link was used (by a request at the
    same moment too: one delete finds it), has expired, or its account is gone."""
    with engine.begin() as conn:
        row = conn.execute(select(password_resets).where(password_resets.c.token == digest)).first()
        if row is None:
            return None
        gone = conn.execute(delete(password_resets).where(password_resets.c.token == digest))
        if gone.rowcount != 1 or row.expires_at < now:
            return None
        account_id = row.account_id
        conn.execute(delete(password_resets).where(password_resets.c.account_id == account_id))
        conn.execute(
            update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash)
        )
        conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        found = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
    if found is None:
        return None
    return Account(found.id, found.name, found.password_hash, found.created_at)


# ------------------------------------------------------------------------- the service
class PasswordResets:
    """One per process; the links live in the database, the limits with the others'."""

    def __init__(
        self,
        people: Accounts,
        signer: Signer,
        mailer: Mailer,
        *,
        seconds: float = RESET_SECONDS,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.people = people
        self.signer = signer
        self.mailer = mailer
        self.seconds = seconds
        self.now = now
        self.queue: asyncio.Queue[tuple[str, str, str]] = asyncio.Queue(maxsize=QUEUED)
        self.sent = {"handled": 0, "mail": 0, "dropped": 0, "failed": 0, "limited": 0}

    async def _limit(self, action: str, key: str, what: str) -> None:
        wait = await self.people.limits.hit(action, key)
        if wait is not None:
            message = f"too many {what}: try again in {wait:.0f} s"
            raise TooMany(ErrorCode.RATE_LIMITED, message, wait)

    async def ask(self, who: str, lang: str, client: str) -> None:
        """Queue a reset for the accounts that ``who`` (a name or an e-mail address) names;
        the same work whether it names any."""
        try:
            kind, key = asked_for(who)
        except RuleError as exc:
            raise Rejected(
                ErrorCode.BAD_REQUEST, f"type your name or your e-mail address: {exc}"
            ) from None
        await self._limit("reset", client, "password resets asked for from your address")
        asked = f"{kind}\n{key}"
        await self._limit("reset_mail", asked, "password resets for this name or address")
        try:
            self.queue.put_nowait((kind, key, lang))
        except asyncio.QueueFull:
            self.sent["dropped"] += 1
            log("reset_dropped", logging.WARNING)

    async def run(self) -> None:
        """Mail what is queued, one after the other (a slow mail server holds only these)."""
        while True:
            kind, key, lang = await self.queue.get()
            try:
                await self.send(kind, key, lang)
            except Exception as exc:  # one failure must not stop the others
                self.sent["failed"] += 1
                log("reset_failed", logging.WARNING, error=type(exc).__name__)
            finally:
                self.sent["handled"] += 1
                self.queue.task_done()

    async def send(self, kind: str, key: str, lang: str) -> None:
        """A new link for each account reached, mailed to its confirmed address; at most
        ``limit_reset_mail`` an account, whatever it was asked for by."""
        store = self.people.store
        for account_id, name, address in await store.run(reset_targets, store.engine, kind, key):
            if await self.people.limits.hit("reset_mail", f"account\n{account_id}") is not None:
                self.sent["limited"] += 1
                log("reset_limited", account=account_id)
                continue
            secret = secrets.token_urlsafe(32)
            now = self.now()
            digest = reset_digest(secret)
            await store.run(add_reset, store.engine, digest, account_id, now, now + self.seconds)
            await self.mailer(address, lang, name, self.signer.sign(PURPOSE, secret))
            self.sent["mail"] += 1
            log("reset_mailed", account=account_id)

    def _digest(self, link: str) -> str:
        secret = self.signer.verify(link[:300], PURPOSE)
        if secret is None:
            raise Rejected(ErrorCode.BAD_RESET_LINK, BAD_LINK)
        return reset_digest(secret)

    async def account(self, link: str) -> Account:
        """The account a live link would set the password of (Rejected: a dead link)."""
        store = self.people.store
        found = await store.run(reset_account, store.engine, self._digest(link), self.now())
        if found is None:
            raise Rejected(ErrorCode.BAD_RESET_LINK, BAD_LINK)
        return found

    async def finish(
        self, link: str, password: str, client: str, browser: Browser | None
    ) -> SignedIn:
        """Set the new password (the rules of sign-up), end every session, sign this browser
        in with a new one. A refused password leaves the link usable."""
        await self._limit("login", client, "sign-in attempts from your address")
        account = await self.account(link)
        try:
            check_password(password, account.name)
        except RuleError as exc:
            raise Rejected(ErrorCode.BAD_PASSWORD, str(exc)) from None
        hashed = await self.people.hash_password(password)
        store = self.people.store
        used = await store.run(use_reset, store.engine, self._digest(link), hashed, self.now())
        if used is None:
            raise Rejected(ErrorCode.BAD_RESET_LINK, BAD_LINK)
        log("password_reset", account=used.id)
        return await self.people.new_session(used, browser)
