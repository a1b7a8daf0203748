"""What the server keeps about accounts, in the tables of revision 0006 (SQLAlchemy Core).

The same database as the tables (SQLite or PostgreSQL), so every server process sees the same
accounts, sessions and ratings. With the in-memory table store (``memory://``) accounts live in an
SQLite database in memory, made from the schema. Every method blocks: ``AccountStore.run`` calls
them on a small thread pool.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ludoteca.server.storage.schema import (
    account_devices,
    account_seats,
    accounts,
    challenges,
    passkeys,
    push_subscriptions,
    rated_tables,
    rating_changes,
    ratings,
    released_names,
    sessions,
)

from .devices import DEVICE_SECONDS
from .ratings import Rating
from .rows import (
    EXPORTED,
    OWNED,
    Account,
    AlreadySeated,
    Challenge,
    HeldSeat,
    NameHeld,
    NameTaken,
    Passkey,
    SeatRating,
    Session,
)

P = ParamSpec("P")
T = TypeVar("T")
NAME_HELD_SECONDS = 30 * 86400
"""How long a deleted account's name stays taken (so that re-registering it sheds nothing)."""


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.password_hash, row.created_at)


def _name_digest(key: str) -> str:
    """How a deleted account's name is kept: a digest of its key, not the name."""
    return hashlib.sha256(f"ludoteca/name\n{key}".encode()).hexdigest()


def _check_released(conn: Connection, name: str, key: str, now: float) -> None:
    """NameHeld if a deleted account had this name less than ``NAME_HELD_SECONDS`` ago."""
    released = conn.execute(
        select(released_names.c.released_at).where(
            released_names.c.name_digest == _name_digest(key)
        )
    ).scalar_one_or_none()
    if released is not None and now - released < NAME_HELD_SECONDS:
        raise NameHeld(name, released + NAME_HELD_SECONDS)


class AccountStore:
    """Accounts, sessions, passkeys, held seats and ratings in one database."""

    def __init__(self, engine: Engine, *, own_engine: bool = False) -> None:
        self.engine = engine
        self.own_engine = own_engine
        workers = 1 if engine.dialect.name == "sqlite" else 2
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ludoteca-acct")

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        if self.own_engine:
            self.engine.dispose()

    # ------------------------------------------------------------------------ accounts
    def create_account(self, name: str, key: str, password_hash: str | None, now: float) -> Account:
        account = Account(secrets.token_hex(16), name, password_hash, now)
        try:
            with self.engine.begin() as conn:
                _check_released(conn, name, key, now)
                conn.execute(
                    insert(accounts).values(
                        id=account.id,
                        name=name,
                        name_key=key,
                        password_hash=password_hash,
                        created_at=now,
                    )
                )
        except IntegrityError:
            raise NameTaken(name) from None
        return account

    def account_by_key(self, key: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.name_key == key)).first()
        return None if row is None else _account(row)

    def account_by_id(self, account_id: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return None if row is None else _account(row)

    def name_held_until(self, key: str, now: float) -> float | None:
        """When a name a deleted account had is free again (None: it is not held)."""
        try:
            with self.engine.connect() as conn:
                _check_released(conn, key, key, now)
        except NameHeld as held:
            return held.until
        return None

    def delete_account(self, account_id: str, now: float) -> None:
        """Everything kept about the account: sessions, passkeys, ratings, the link to its
        seats; the tables themselves keep the names they showed. The name's digest is held
        for ``NAME_HELD_SECONDS``."""
        with self.engine.begin() as conn:
            key = conn.execute(
                select(accounts.c.name_key).where(accounts.c.id == account_id)
            ).scalar_one_or_none()
            for table in OWNED:
                conn.execute(delete(table).where(table.c.account_id == account_id))
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
            if key is not None:
                digest = _name_digest(key)
                conn.execute(delete(released_names).where(released_names.c.name_digest == digest))
                conn.execute(insert(released_names).values(name_digest=digest, released_at=now))

    # ------------------------------------------------------------------------ sessions
    def create_session(
        self, session_id: str, account_id: str, now: float, replaces: str | None
    ) -> None:
        with self.engine.begin() as conn:
            if replaces is not None:
                conn.execute(delete(sessions).where(sessions.c.id == replaces))
            conn.execute(
                insert(sessions).values(
                    id=session_id, account_id=account_id, created_at=now, seen_at=now
                )
            )

    def session(self, session_id: str) -> Session | None:
        query = (
            select(sessions, accounts.c.name, accounts.c.password_hash, accounts.c.id.label("aid"))
            .join(accounts, accounts.c.id == sessions.c.account_id)
            .where(sessions.c.id == session_id)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        account = Account(row.aid, row.name, row.password_hash, 0.0)
        return Session(row.id, account, row.created_at, row.seen_at)

    def touch_session(self, session_id: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(sessions).where(sessions.c.id == session_id).values(seen_at=now))

    def delete_session(self, session_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.id == session_id))

    def delete_sessions(self, account_id: str) -> int:
        with self.engine.begin() as conn:
            gone = conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        return gone.rowcount

    def sweep(self, now: float, idle: float, absolute: float) -> int:
        """Forget sessions past either lifetime and challenges past their time."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(sessions).where(
                    (sessions.c.seen_at < now - idle) | (sessions.c.created_at < now - absolute)
                )
            ).rowcount
            conn.execute(delete(challenges).where(challenges.c.expires_at < now))
        return gone

    def forget_old(self, now: float) -> None:
        """Forget devices not seen for ``DEVICE_SECONDS`` and names held long enough."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(account_devices).where(account_devices.c.seen_at < now - DEVICE_SECONDS)
            )
            conn.execute(
                delete(released_names).where(released_names.c.released_at < now - NAME_HELD_SECONDS)
            )

    # ------------------------------------------------------------------------- devices
    def seen_on_device(self, account_id: str, device: str, now: float) -> None:
        """The account signed in from this device (a digest of its cookie)."""
        key = and_(account_devices.c.device == device, account_devices.c.account_id == account_id)
        with self.engine.begin() as conn:
            if conn.execute(update(account_devices).where(key).values(seen_at=now)).rowcount == 0:
                conn.execute(
                    insert(account_devices).values(
                        device=device, account_id=account_id, seen_at=now
                    )
                )

    def knows_device(self, account_id: str, device: str, now: float) -> bool:
        """Whether the account signed in from this device (a digest of its cookie) lately."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(account_devices.c.seen_at).where(
                    account_devices.c.device == device, account_devices.c.account_id == account_id
                )
            ).scalar()
        return found is not None and found >= now - DEVICE_SECONDS

    # ------------------------------------------------------------------------ passkeys
    def add_challenge(self, challenge: Challenge, expires_at: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                insert(challenges).values(
                    challenge=challenge.challenge,
                    purpose=challenge.purpose,
                    account_id=challenge.account_id,
                    name=challenge.name,
                    expires_at=expires_at,
                )
            )

    def take_challenge(self, challenge: str, purpose: str, now: float) -> Challenge | None:
        """The challenge if it was given for ``purpose`` and is still valid; used once."""
        with self.engine.begin() as conn:
            row = conn.execute(
                select(challenges).where(challenges.c.challenge == challenge)
            ).first()
            if row is None:
                return None
            gone = conn.execute(delete(challenges).where(challenges.c.challenge == challenge))
            if gone.rowcount != 1 or row.purpose != purpose or row.expires_at < now:
                return None
        return Challenge(row.challenge, row.purpose, row.account_id, row.name)

    def add_passkey(
        self, passkey: Passkey, now: float, new_account: tuple[str, str] | None = None
    ) -> Account:
        """Store a passkey; with ``new_account`` (name, key) first make that account (NameTaken
        if the name went meanwhile; LookupError if the passkey's account is gone)."""
        try:
            with self.engine.begin() as conn:
                account_id = passkey.account_id
                if new_account is not None:
                    _check_released(conn, *new_account, now)
                    account_id = secrets.token_hex(16)
                    conn.execute(
                        insert(accounts).values(
                            id=account_id,
                            name=new_account[0],
                            name_key=new_account[1],
                            password_hash=None,
                            created_at=now,
                        )
                    )
                conn.execute(
                    insert(passkeys).values(
                        id=passkey.id,
                        account_id=account_id,
                        public_key=passkey.public_key,
                        sign_count=passkey.sign_count,
                        created_at=now,
                    )
                )
                row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
                if row is None:  # deleted meanwhile: the passkey goes with it (rolled back)
                    raise LookupError(f"there is no account {account_id}")
        except IntegrityError:
            raise NameTaken(new_account[0] if new_account else passkey.id) from None
        return _account(row)

    def passkey(self, credential_id: str) -> Passkey | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(passkeys).where(passkeys.c.id == credential_id)).first()
        return (
            None if row is None else Passkey(row.id, row.account_id, row.public_key, row.sign_count)
        )

    def passkey_ids(self, account_id: str) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(passkeys.c.id).where(passkeys.c.account_id == account_id))
            return [r.id for r in rows]

    def used_passkey(self, credential_id: str, sign_count: int, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(passkeys)
                .where(passkeys.c.id == credential_id)
                .values(sign_count=sign_count, used_at=now)
            )

    # --------------------------------------------------------------------------- seats
    def hold_seat(self, account_id: str, table_id: str, seat: int, token: str, now: float) -> None:
        """The account holds this seat (again: the newest holder keeps it); AlreadySeated if
        it holds another seat of the table."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    delete(account_seats).where(
                        and_(account_seats.c.table_id == table_id, account_seats.c.seat == seat)
                    )
                )
                conn.execute(
                    insert(account_seats).values(
                        table_id=table_id, seat=seat, account_id=account_id, token=token, at=now
                    )
                )
        except IntegrityError:
            held = self.seat_at(account_id, table_id)
            raise AlreadySeated(seat if held is None else held.seat) from None

    def seat_at(self, account_id: str, table_id: str) -> HeldSeat | None:
        """The seat this account holds at this table, if any."""
        query = select(account_seats).where(
            and_(account_seats.c.table_id == table_id, account_seats.c.account_id == account_id)
        )
        with self.engine.connect() as conn:
            r = conn.execute(query).first()
        return None if r is None else HeldSeat(r.table_id, r.seat, r.token, r.at)

    def release_seat(self, table_id: str, seat: int, token: str, before: float | None) -> None:
        """The account's link to this seat through ``token`` ends. With ``before`` (the person
        left the seat before the start) so do the turn notifications a device asked for the
        seat before then (the next person's are theirs)."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(account_seats).where(
                    and_(
                        account_seats.c.table_id == table_id,
                        account_seats.c.seat == seat,
                        account_seats.c.token == token,
                    )
                )
            )
            if before is None:
                return
            conn.execute(
                delete(push_subscriptions).where(
                    and_(
                        push_subscriptions.c.table_id == table_id,
                        push_subscriptions.c.seat == seat,
                        push_subscriptions.c.created_at <= before,
                    )
                )
            )

    def held_seats(self, account_id: str, limit: int = 100) -> list[HeldSeat]:
        query = (
            select(account_seats)
            .where(account_seats.c.account_id == account_id)
            .order_by(account_seats.c.at.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [HeldSeat(r.table_id, r.seat, r.token, r.at) for r in conn.execute(query)]

    def seat_holders(self, table_id: str) -> dict[int, str]:
        """Seat number -> account id at one table."""
        query = select(account_seats.c.seat, account_seats.c.account_id).where(
            account_seats.c.table_id == table_id
        )
        with self.engine.connect() as conn:
            return {r.seat: r.account_id for r in conn.execute(query)}

    def names_of(self, account_ids: Sequence[str]) -> dict[str, str]:
        if not account_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.id, accounts.c.name).where(accounts.c.id.in_(list(account_ids)))
            )
            return {r.id: r.name for r in rows}

    # ------------------------------------------------------------------------- ratings
    def mark_rated(self, table_id: str, game: str, now: float) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(rated_tables).values(table_id=table_id, game=game, created_at=now))

    def is_rated(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(rated_tables.c.table_id).where(rated_tables.c.table_id == table_id)
            ).first()
        return found is not None

    def rated_among(self, table_ids: Sequence[str]) -> set[str]:
        if not table_ids:
            return set()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(rated_tables.c.table_id).where(rated_tables.c.table_id.in_(list(table_ids)))
            )
            return {r.table_id for r in rows}

    def waiting_to_be_rated(
        self, after: tuple[float, str] | None = None, limit: int = 500
    ) -> list[tuple[float, str]]:
        """Rated tables not rated yet (nor set aside), oldest first, as (created_at, table id);
        with ``after``, those that come after it in that order."""
        query = select(rated_tables.c.created_at, rated_tables.c.table_id).where(
            and_(rated_tables.c.rated_at.is_(None), rated_tables.c.failed_at.is_(None))
        )
        if after is not None:
            made, table_id = after
            query = query.where(
                (rated_tables.c.created_at > made)
                | and_(rated_tables.c.created_at == made, rated_tables.c.table_id > table_id)
            )
        query = query.order_by(rated_tables.c.created_at, rated_tables.c.table_id).limit(limit)
        with self.engine.connect() as conn:
            return [(r.created_at, r.table_id) for r in conn.execute(query)]

    def forget_rated(self, table_ids: Sequence[str]) -> None:
        """Rated tables that never started (expired): nothing to rate."""
        with self.engine.begin() as conn:
            conn.execute(delete(rated_tables).where(rated_tables.c.table_id.in_(list(table_ids))))

    def fail_rating(self, table_id: str, reason: str, now: float) -> None:
        """Rating this table failed: it is set aside with the reason (the others go on)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(rated_tables)
                .where(and_(rated_tables.c.table_id == table_id, rated_tables.c.rated_at.is_(None)))
                .values(failed_at=now, not_rated=reason[:1000])
            )

    def failed_ratings(self) -> int:
        query = select(func.count()).where(rated_tables.c.failed_at.is_not(None))
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def not_rated(self, table_id: str) -> str | None:
        """Why a rated table moved no rating (None: it did, or it is not over yet)."""
        query = select(rated_tables.c.not_rated).where(rated_tables.c.table_id == table_id)
        with self.engine.connect() as conn:
            found: str | None = conn.execute(query).scalar_one_or_none()
        return found

    def rate(
        self,
        table_id: str,
        game: str,
        compute: Callable[[list[SeatRating]], list[tuple[SeatRating, Rating, int]]],
        now: float,
    ) -> tuple[bool, str | None]:
        """Rate a finished table exactly once, whichever process gets there first: claim it,
        read the seated accounts' ratings, store what ``compute`` makes of them (each seat's
        new rating and place). Returns whether this call claimed it and, when it moved no
        rating, why (accounts at it share a device)."""
        with self.engine.begin() as conn:
            claimed = conn.execute(
                update(rated_tables)
                .where(and_(rated_tables.c.table_id == table_id, rated_tables.c.rated_at.is_(None)))
                .values(rated_at=now)
            )
            if claimed.rowcount != 1:
                return False, None
            holders = {
                r.seat: r.account_id
                for r in conn.execute(
                    select(account_seats.c.seat, account_seats.c.account_id).where(
                        account_seats.c.table_id == table_id
                    )
                )
            }
            shared = self._shared_device(conn, holders)
            if shared is not None:
                conn.execute(
                    update(rated_tables)
                    .where(rated_tables.c.table_id == table_id)
                    .values(not_rated=shared)
                )
                return True, shared
            seated = [
                SeatRating(account_id, seat, *self._rating(conn, account_id, game))
                for seat, account_id in sorted(holders.items())
            ]
            for seat, after, place in compute(seated):
                self._store_rating(
                    conn, table_id, game=game, seat=seat, after=after, place=place, now=now
                )
        return True, None

    @staticmethod
    def _shared_device(conn: Connection, holders: dict[int, str]) -> str | None:
        """Why the accounts at these seats may not be rated against each other: two of them
        signed in from one device (None: no two did)."""
        if len(set(holders.values())) < 2:
            return None
        rows = conn.execute(
            select(account_devices.c.device, account_devices.c.account_id).where(
                account_devices.c.account_id.in_(list(holders.values()))
            )
        )
        seats_of = {account: seat for seat, account in holders.items()}
        by_device: dict[str, set[int]] = {}
        for r in rows:
            by_device.setdefault(r.device, set()).add(seats_of[r.account_id])
        for seats in by_device.values():
            if len(seats) > 1:
                shown = " and ".join(str(s + 1) for s in sorted(seats))
                return f"the accounts at seats {shown} signed in from one device"
        return None

    def _rating(self, conn: Connection, account_id: str, game: str) -> tuple[Rating, int]:
        query = select(ratings).where(
            and_(ratings.c.account_id == account_id, ratings.c.game == game)
        )
        if conn.dialect.name == "postgresql":
            query = query.with_for_update()
        row = conn.execute(query).first()
        return (Rating(), 0) if row is None else (Rating(row.mu, row.sigma), row.matches)

    @staticmethod
    def _store_rating(
        conn: Connection,
        table_id: str,
        *,
        game: str,
        seat: SeatRating,
        after: Rating,
        place: int,
        now: float,
    ) -> None:
        values = {
            "mu": after.mu,
            "sigma": after.sigma,
            "shown": after.shown,
            "matches": seat.matches + 1,
            "updated_at": now,
        }
        key = and_(ratings.c.account_id == seat.account_id, ratings.c.game == game)
        if conn.execute(update(ratings).where(key).values(**values)).rowcount == 0:
            conn.execute(insert(ratings).values(account_id=seat.account_id, game=game, **values))
        conn.execute(
            insert(rating_changes).values(
                account_id=seat.account_id,
                table_id=table_id,
                game=game,
                seat=seat.seat,
                place=place,
                at=now,
                mu_before=seat.before.mu,
                sigma_before=seat.before.sigma,
                mu=after.mu,
                sigma=after.sigma,
            )
        )

    def ratings_of(self, account_id: str) -> list[Any]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(ratings)
                    .where(ratings.c.account_id == account_id)
                    .order_by(ratings.c.game)
                )
            )

    def changes_of(self, account_id: str, limit: int = 1000) -> list[Any]:
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(rating_changes)
                    .where(rating_changes.c.account_id == account_id)
                    .order_by(rating_changes.c.at.desc())
                    .limit(limit)
                )
            )

    def leaderboard(self, game: str, limit: int) -> list[Any]:
        query = (
            select(ratings, accounts.c.name)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(ratings.c.game == game)
            .order_by(ratings.c.shown.desc(), accounts.c.name_key)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return list(conn.execute(query))

    def count_rated(self, game: str) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count()).select_from(ratings).where(ratings.c.game == game)
                ).scalar_one()
            )

    def export(self, account_id: str) -> dict[str, list[dict[str, Any]]]:
        """Every row kept about the account, table by table (passkeys without their keys'
        private parts, which the server never had; sessions by their age, not their ids)."""
        found: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as conn:
            for table in EXPORTED:
                rows = conn.execute(select(table).where(table.c.account_id == account_id))
                found[table.name] = [
                    {k: v for k, v in row._mapping.items() if k not in {"account_id", "id"}}
                    | ({"id": row.id} if table is passkeys else {})
                    for row in rows
                ]
        return found
