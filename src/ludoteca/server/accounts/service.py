"""Accounts as the routes use them: sign up and in (password or passkey), sessions, the seats a
person holds, rating finished rated tables, profiles, leaderboards, export and deletion.

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
from sqlalchemy.exc import InterfaceError, OperationalError

from ludoteca.games import get
from ludoteca.server.guards.limits import RateLimits
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status, TooMany
from ludoteca.server.storage import Storage, TableRow

from .devices import device_digest, sent_device, this_device
from .passkeys import Passkeys, name_held
from .ratings import Rating, anchor, places, update
from .rows import (
    Account,
    AlreadySeated,
    Browser,
    HeldSeat,
    NameHeld,
    NameTaken,
    SeatRating,
    Session,
    SignedIn,
)
from .rules import RuleError, check_name, check_password, name_key, shown_name
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
RECENT_MATCHES = 20
RATING_PAGE = 500  # rated tables a rating round reads
MY_TABLES = 50


def _too_many_tries(action: str, wait: float) -> str:
    if action == "login_pair":
        return f"too many sign-in attempts for this name from here: try again in {wait:.0f} s"
    return (
        "too many sign-in attempts for this name: sign in with a passkey or on a device you "
        f"signed in on before, or try again in {wait:.0f} s"
    )


def session_id(token: str) -> str:
    return hashlib.sha256(f"ludoteca/session\n{token}".encode()).hexdigest()


class Accounts(Passkeys):
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
        self._rated_up_to: tuple[float, str] | None = None  # where the next rating round starts

    async def _hash(self, password: str) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hashing, self.hasher.hash, password)

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

    # ------------------------------------------------------------------------------ seats
    async def hold_seat(self, account: Account, table_id: str, seat: int, token: str) -> None:
        """The account holds this seat; ``already_seated`` if it holds another of the table."""
        try:
            await self.store.run(
                self.store.hold_seat, account.id, table_id, seat, token, self.now()
            )
        except AlreadySeated as exc:
            raise already_seated(exc.seat) from None

    async def seat_at(self, account: Account, table_id: str) -> HeldSeat | None:
        return await self.store.run(self.store.seat_at, account.id, table_id)

    async def release_seat(self, table_id: str, seat: int, token: str, *, left: bool) -> None:
        """The account's link to the seat through ``token`` ends; ``left``: the person left
        it before the start, and nothing of theirs stays keyed on it."""
        before = self.now() if left else None
        await self.store.run(self.store.release_seat, table_id, seat, token, before)

    async def mark_rated(self, table_id: str, game: str) -> None:
        await self.store.run(self.store.mark_rated, table_id, game, self.now())

    async def is_rated(self, table_id: str) -> bool:
        return await self.store.run(self.store.is_rated, table_id)

    async def my_tables(self, account: Account) -> list[dict[str, Any]]:
        """The tables this account sits at, newest first, with the seat and its token."""
        held = await self.store.run(self.store.held_seats, account.id, MY_TABLES)
        rated = await self.store.run(self.store.rated_among, [h.table_id for h in held])
        found = []
        for h in held:
            row = await self.storage.load_table(h.table_id)
            if row is None:
                continue
            found.append(
                {
                    "table": h.table_id,
                    "game": row.game,
                    "status": row.status,
                    "seat": h.seat,
                    "token": h.token,
                    "rated": h.table_id in rated,
                    "at": h.at,
                    "players": _players(row),
                    "result": _result(row, h.seat),
                }
            )
        return found

    # ---------------------------------------------------------------------------- ratings
    async def rate_finished(self) -> int:
        """Rate every rated table that is over and not rated yet (by whichever process gets
        there first); forget rated tables that never started. A table that cannot be rated is
        set aside with the reason, and the round goes on. A round reads one page of the
        waiting tables, the next round the page after it (then from the start again), so many
        tables still being played never keep a finished one from its turn. Returns how many
        were rated."""
        page = await self.store.run(self.store.waiting_to_be_rated, self._rated_up_to, RATING_PAGE)
        self._rated_up_to = page[-1] if len(page) == RATING_PAGE else None
        waiting = [table_id for _, table_id in page]
        if not waiting:
            return 0
        states = await self.storage.versions(waiting)
        gone = [t for t in waiting if states.get(t, (0, Status.EXPIRED))[1] == Status.EXPIRED]
        if gone:
            await self.store.run(self.store.forget_rated, gone)
        rated = 0
        for table_id in waiting:
            if states.get(table_id, (0, ""))[1] != Status.OVER:
                continue
            row = await self.storage.load_table(table_id)
            try:
                if row is None:
                    raise LookupError("the table is over but cannot be read")
                if row.outcome is None:
                    raise LookupError("the table is over but its outcome is not stored")
                done, why = await self.store.run(
                    self.store.rate, table_id, row.game, _compute(row), self.now()
                )
            except (OperationalError, InterfaceError):
                raise  # the database is away, or two raters met: the next round tries again
            except Exception as exc:
                await self._rating_failed(table_id, exc)
                continue
            if why is not None:
                log("table_not_rated", table=table_id, game=row.game, reason=why)
            elif done:
                rated += 1
                log("table_rated", table=table_id, game=row.game)
        return rated

    async def _rating_failed(self, table_id: str, exc: Exception) -> None:
        """Set the table aside with the reason: an operator's to look at (``/healthz``)."""
        reason = f"{type(exc).__name__}: {exc}"
        await self.store.run(self.store.fail_rating, table_id, reason, self.now())
        log("table_rating_failed", logging.ERROR, table=table_id, error=reason)

    async def failed_ratings(self) -> int:
        """How many rated tables could not be rated (``/healthz``)."""
        return await self.store.run(self.store.failed_ratings)

    # --------------------------------------------------------------- profiles, leaderboard
    async def account_named(self, name: str) -> Account:
        found = None
        if len(name) <= 64:
            found = await self.store.run(self.store.account_by_key, name_key(name))
        if found is None:
            raise Rejected(ErrorCode.NO_PLAYER, f"there is no player '{shown_name(name)[:64]}'")
        return found

    async def profile(self, name: str) -> dict[str, Any]:
        account = await self.account_named(name)
        rows = await self.store.run(self.store.ratings_of, account.id)
        changes = await self.store.run(self.store.changes_of, account.id)
        by_table = {c.table_id: c for c in changes}
        games: dict[str, Any] = {}
        for r in rows:
            history = [
                {"at": c.at, "table": c.table_id, "rating": round(c.mu - 3 * c.sigma, 1)}
                for c in reversed(changes)
                if c.game == r.game
            ]
            games[r.game] = Rating(r.mu, r.sigma).to_json() | {
                "matches": r.matches,
                "history": history[-100:],
            }
        held = await self.store.run(self.store.held_seats, account.id, RECENT_MATCHES)
        matches = []
        for h in held:
            row = await self.storage.load_table(h.table_id)
            if row is None or row.status != Status.OVER:
                continue
            change = by_table.get(h.table_id)
            matches.append(
                {
                    "table": h.table_id,
                    "game": row.game,
                    "at": row.turn_started_at or h.at,
                    "seat": h.seat,
                    "players": _players(row),
                    "result": _result(row, h.seat),
                    "rated": change is not None,
                    "change": None
                    if change is None
                    else round(
                        (change.mu - 3 * change.sigma)
                        - (change.mu_before - 3 * change.sigma_before),
                        1,
                    ),
                }
            )
        return {
            "name": account.name,
            "since": account.created_at,
            "ratings": games,
            "matches": matches,
        }

    async def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        rows = await self.store.run(self.store.leaderboard, game, limit)
        return [
            {"name": r.name, "matches": r.matches} | Rating(r.mu, r.sigma).to_json() for r in rows
        ]

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


def already_seated(seat: int) -> Rejected:
    return Rejected(
        ErrorCode.ALREADY_SEATED,
        f"you already sit at seat {seat + 1} of this table: an account holds one seat at a table",
    )


def _players(row: TableRow) -> list[dict[str, Any]]:
    return [
        {"seat": s.seat, "name": s.name, "bot": s.kind == SeatKind.BOT, "level": s.level}
        for s in row.seats
    ]


def _result(row: TableRow, seat: int) -> str | None:
    """won, shared, draw or lost once the match is over (None before)."""
    if row.status != Status.OVER or row.outcome is None:
        return None
    winners = row.outcome.get("winners") or []
    if row.outcome.get("draw"):
        return "draw"
    if seat in winners:
        return "won" if len(winners) == 1 else "shared"
    return "lost"


def _compute(row: TableRow) -> Callable[[list[SeatRating]], list[tuple[SeatRating, Rating, int]]]:
    """How a finished table moves the ratings of the accounts seated at it: every seat takes
    part (bots at their anchor, people without an account at the starting rating), only the
    accounts move."""

    def compute(seated: list[SeatRating]) -> list[tuple[SeatRating, Rating, int]]:
        assert row.outcome is not None
        by_seat = {s.seat: s for s in seated}
        before: list[Rating] = []
        fixed: list[bool] = []
        for seat in row.seats:
            person = by_seat.get(seat.seat)
            if person is not None:
                before.append(person.before)
                fixed.append(False)
            elif seat.kind == SeatKind.BOT:
                before.append(anchor(get(row.game), seat.level))
                fixed.append(True)
            else:
                before.append(Rating())
                fixed.append(True)
        ranks = places(row.outcome, len(row.seats))
        after = update(before, ranks, fixed)
        return [(s, after[s.seat], ranks[s.seat]) for s in seated if s.seat < len(after)]

    return compute
