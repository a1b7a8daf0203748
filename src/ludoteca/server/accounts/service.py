"""Accounts as the routes use them: sign up and in (password or passkey), sessions, export and
deletion, and the round that rates finished tables and forgets dead sessions (``Accounts.run``);
the seats a person holds, the rating itself, profiles and leaderboards are ``play``'s.

The security model is docs/accounts.md: argon2id password hashes, a dummy hash verified for an
unknown name (so it takes as long as a wrong password), session ids kept as SHA-256 digests with
an idle and an absolute lifetime, sign-in limits per address, per name and address (or known
device) and per name.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ludoteca.server.guards.limits import RateLimits
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, TooMany
from ludoteca.server.storage import Storage

from .devices import device_digest, sent_device, this_device
from .passkeys import Passkeys, name_held
from .play import Play
from .rows import Account, Browser, NameHeld, NameTaken, Session, SignedIn
from .rules import RuleError, check_name, check_password, name_key
from .store import AccountStore

COOKIE = "ludoteca_session"
MARK = "ludoteca_signed_in"
"""A cookie the page may read (no secret in it): whether to ask who is signed in at all, so a
guest's pages make no request for it."""
HASH_TIME_COST, HASH_MEMORY_KIB, HASH_LANES = 2, 19 * 1024, 1
"""argon2id with OWASP's first recommended setting (19 MiB, 2 passes, one lane): on a busy
two-core machine RFC 9106's 64 MiB and four lanes took half a second a sign-in."""
TOUCH_SECONDS = 60.0  # a session's last use is written at most this often,
TOUCH_SHARE = 0.1  # and at least ten times in its idle lifetime
BAD_LOGIN_MESSAGE = "wrong name or password"


def _too_many_tries(action: str, wait: float) -> str:
    if action == "login_pair":
        return f"too many sign-in attempts for this name from here: try again in {wait:.0f} s"
    return (
        "too many sign-in attempts for this name: sign in with a passkey or on a device you "
        f"signed in on before, or try again in {wait:.0f} s"
    )


def suspended_message(until: float) -> str:
    if until == float("inf"):
        return "this account is suspended"
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
    return f"this account is suspended until {when}"


def session_id(token: str) -> str:
    return hashlib.sha256(f"ludoteca/session\n{token}".encode()).hexdigest()


class Accounts(Passkeys, Play):
    """One per process; everything it keeps is in the database (shared by every process) and
    the rate limits (in Redis when there are several)."""

    def __init__(
        self,
        store: AccountStore,
        storage: Storage,
        limits: RateLimits,
        *,
        idle_seconds: float,
        max_seconds: float,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.storage = storage
        self.limits = limits
        self.idle_seconds = idle_seconds
        self.touch_seconds = min(TOUCH_SECONDS, idle_seconds * TOUCH_SHARE)
        self.max_seconds = max_seconds
        self.now = now
        self.hasher = PasswordHasher(
            time_cost=HASH_TIME_COST, memory_cost=HASH_MEMORY_KIB, parallelism=HASH_LANES
        )
        self._hashing = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ludoteca-argon2")
        self._dummy: str | None = None

    async def _hash(self, password: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hashing, self.hasher.hash, password)

    async def hash_password(self, password: str) -> str:
        """An argon2id hash of a new password (on the hashing threads)."""
        return await self._hash(password)

    async def new_session(self, account: Account, browser: Browser | None) -> SignedIn:
        """Sign this browser in to ``account`` (a password reset's end): as every sign-in."""
        return await self._new_session(account, browser)

    async def _verify(self, stored: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.get_running_loop().run_in_executor(self._hashing, check)

    async def dummy_hash(self) -> str:
        """A hash of nothing anyone knows, verified when the name is unknown."""
        if self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(24))
        return self._dummy

    def close(self) -> None:
        self._hashing.shutdown(wait=True)
        self.store.close()

    async def run(self, poll_seconds: float) -> None:
        """Rate finished rated tables every ``poll_seconds``; forget dead sessions hourly."""
        swept = 0.0
        while True:
            try:
                await self.rate_finished()
                if self.now() - swept > 3600:
                    swept = self.now()
                    await self.sweep()
            except Exception as exc:  # the database is away: try again next round
                log("rating_failed", logging.WARNING, error=repr(exc))
            await asyncio.sleep(poll_seconds)

    # --------------------------------------------------------------------------- limits
    async def _limit(self, action: str, key: str, what: str) -> None:
        wait = await self.limits.hit(action, key)
        if wait is not None:
            raise TooMany(
                ErrorCode.RATE_LIMITED, f"too many {what}: try again in {wait:.0f} s", wait
            )

    async def limit_signup(self, client: str) -> None:
        await self._limit("signup", client, "accounts made from your address")

    # ------------------------------------------------------------------- sign up and in
    async def sign_up(
        self, name: str, password: str, client: str, browser: Browser | None
    ) -> SignedIn:
        try:
            shown = check_name(name)
        except RuleError as exc:
            raise Rejected(ErrorCode.BAD_NAME, str(exc)) from None
        try:
            check_password(password, shown)
        except RuleError as exc:
            raise Rejected(ErrorCode.BAD_PASSWORD, str(exc)) from None
        await self.limit_signup(client)
        hashed = await self._hash(password)
        try:
            account = await self.store.run(
                self.store.create_account, shown, name_key(shown), hashed, self.now()
            )
        except NameHeld as held:
            raise name_held(shown, held.until) from None
        except NameTaken:
            raise Rejected(ErrorCode.NAME_TAKEN, f"the name '{shown}' is taken") from None
        log("account_created", account=account.id, how="password")
        return await self._new_session(account, browser)

    async def sign_in(
        self, name: str, password: str, client: str, browser: Browser | None
    ) -> SignedIn:
        """The same answer, after about the same time, for an unknown name and a wrong
        password: both verify one argon2id hash, and are counted alike.

        Every attempt counts against the address; against the name from this address — or from
        this browser, when its device cookie signed in to the account before — and,
        from a browser the account does not know, against the name from everywhere: that
        slower limit is the one anyone can fill, and it never stops a known browser (nor a
        passkey, which is limited per address only). Each is counted before the password is
        checked, so parallel requests cannot slip past a window; the right password empties
        its own address's (or browser's) window for the name."""
        key = name_key(name)
        await self._limit("login", client, "sign-in attempts from your address")
        account = await self.store.run(self.store.account_by_key, key)
        sent = sent_device(browser.device if browser else None)
        digest = None if sent is None else device_digest(sent)
        # asked for an unknown name too, so that it takes as long as for a known one
        known = digest is not None and await self.store.run(
            self.store.knows_device, account.id if account else "", digest, self.now()
        )
        own = f"{key}\ndevice {digest}" if known else f"{key}\naddress {client}"
        counted = [("login_pair", own)] + ([] if known else [("login_account", key)])
        for action, counter in counted:  # the name's own window first: a full one counts nothing
            wait = await self.limits.hit(action, counter)
            if wait is not None:
                raise TooMany(ErrorCode.RATE_LIMITED, _too_many_tries(action, wait), wait)
        stored = account.password_hash if account is not None else None
        good = await self._verify(stored or await self.dummy_hash(), password)
        if account is None or stored is None or not good:
            log("sign_in_refused", logging.INFO)
            raise Rejected(ErrorCode.BAD_LOGIN, BAD_LOGIN_MESSAGE)
        await self.limits.clear("login_pair", own)
        return await self._new_session(account, browser)

    async def _new_session(self, account: Account, browser: Browser | None) -> SignedIn:
        """A fresh session id at every sign-in (never the one the browser came with); the
        browser's device cookie (the one it sent, or a new one) is remembered for the account."""
        until = await self.store.run(self.store.sanctioned_until, account.id, "suspend", self.now())
        if until is not None:
            log("sign_in_suspended", logging.INFO, account=account.id)
            raise Rejected(ErrorCode.SUSPENDED, suspended_message(until))
        browser = browser or Browser()
        token = secrets.token_urlsafe(32)
        old = session_id(browser.session) if browser.session else None
        now = self.now()
        await self.store.run(self.store.create_session, session_id(token), account.id, now, old)
        cookie = this_device(browser.device)
        await self.store.run(self.store.seen_on_device, account.id, device_digest(cookie), now)
        return SignedIn(account, token, cookie)

    async def session(self, token: str | None) -> Session | None:
        """The live session behind a cookie value, or None (unknown, idle too long, too old)."""
        if not token or len(token) > 128:
            return None
        found = await self.store.run(self.store.session, session_id(token))
        if found is None:
            return None
        now = self.now()
        if now - found.seen_at > self.idle_seconds or now - found.created_at > self.max_seconds:
            await self.store.run(self.store.delete_session, found.id)
            return None
        if now - found.seen_at > self.touch_seconds:
            await self.store.run(self.store.touch_session, found.id, now)
        return found

    async def sign_out(self, session: Session) -> None:
        await self.store.run(self.store.delete_session, session.id)

    async def sign_out_everywhere(self, account: Account) -> int:
        return await self.store.run(self.store.delete_sessions, account.id)

    async def delete(self, account: Account) -> None:
        await self.store.run(self.store.delete_account, account.id, self.now())
        log("account_deleted", account=account.id)

    async def sweep(self) -> int:
        await self.store.run(self.store.forget_old, self.now())
        return await self.store.run(
            self.store.sweep, self.now(), self.idle_seconds, self.max_seconds
        )

    async def export(self, account: Account) -> dict[str, Any]:
        full = await self.store.run(self.store.account_by_id, account.id)
        assert full is not None
        kept = await self.store.run(self.store.export, account.id)
        return {
            "account": {
                "name": full.name,
                "created_at": full.created_at,
                "password": full.password_hash is not None,
            },
            **kept,
        }
