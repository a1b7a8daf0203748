"""What the server keeps about accounts, in the tables of revision 0006 (SQLAlchemy Core): the
accounts, their sessions, devices and passkeys; their seats and ratings are ``play_store``'s.

The same database as the tables (SQLite or PostgreSQL), so every server process sees the same
accounts, sessions and ratings. With the in-memory table store (``memory://``) accounts live in an
SQLite database in memory, made from the schema. Every method blocks: ``AccountStore.run`` calls
them on a small thread pool.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ludoteca.server.storage.schema import (
    account_devices,
    accounts,
    challenges,
    friend_invites,
    passkeys,
    password_resets,
    released_names,
    sanctions,
    sessions,
)

from .devices import DEVICE_SECONDS
from .play_store import PlayStore
from .rows import (
    EXPORTED,
    OWNED,
    PAIRS,
    Account,
    Challenge,
    NameHeld,
    NameTaken,
    Passkey,
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


class AccountStore(PlayStore):
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
            for pair, one, other in PAIRS:
                conn.execute(
                    delete(pair).where((pair.c[one] == account_id) | (pair.c[other] == account_id))
                )
            conn.execute(
                delete(friend_invites).where(
                    (friend_invites.c.from_id == account_id)
                    | (friend_invites.c.to_id == account_id)
                )
            )
            conn.execute(delete(accounts).where(accounts.c.id == account_id))
            if key is not None:
                digest = _name_digest(key)
                conn.execute(delete(released_names).where(released_names.c.name_digest == digest))
                conn.execute(insert(released_names).values(name_digest=digest, released_at=now))

    def sanctioned_until(self, account_id: str, kind: str, now: float) -> float | None:
        """When the account's ``kind`` sanction (mute, suspend) ends: None if it has none now,
        ``inf`` if it is for good."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(sanctions.c.until).where(
                    sanctions.c.account_id == account_id, sanctions.c.kind == kind
                )
            ).first()
        if row is None:
            return None
        until = float("inf") if row.until is None else float(row.until)
        return until if until > now else None

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
        """Forget sessions past either lifetime, and challenges and reset links past their time."""
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(sessions).where(
                    (sessions.c.seen_at < now - idle) | (sessions.c.created_at < now - absolute)
                )
            ).rowcount
            conn.execute(delete(challenges).where(challenges.c.expires_at < now))
            conn.execute(delete(password_resets).where(password_resets.c.expires_at < now))
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
