"""What the notifications keep (revision 0008): push subscriptions, each bound to an account
(every seat it holds, on every device) or to one guest's seat, and an account's e-mail address,
used once confirmed. In the accounts' database (or its in-memory twin); blocking methods that
``run`` calls on one worker thread."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, delete, func, insert, or_, select, update
from sqlalchemy.engine import Engine

from ludoteca.server.storage.schema import account_seats, notify_emails, push_subscriptions

MAX_PUSH_PER_ACCOUNT = 10  # devices told an account's turns
MAX_PUSH_PER_SEAT = 4  # devices told one guest's seat's turns
P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PushTarget:
    id: str
    endpoint: str
    p256dh: str
    auth: str
    lang: str
    zone: str


@dataclass(frozen=True, slots=True)
class MailTarget:
    account_id: str
    address: str
    lang: str
    zone: str
    confirmed: bool


def _push(row: Any) -> PushTarget:
    return PushTarget(row.id, row.endpoint, row.p256dh, row.auth, row.lang, row.zone)


def _mail(row: Any) -> MailTarget:
    return MailTarget(row.account_id, row.address, row.lang, row.zone, row.confirmed_at is not None)


class NotifyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ludoteca-notify")

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    # ---------------------------------------------------------------------------- push
    def add_push(
        self,
        keys: tuple[str, str, str],
        lang: str,
        zone: str,
        now: float,
        *,
        account_id: str | None = None,
        seat: tuple[str, int] | None = None,
    ) -> str:
        """A device's subscription for an account or for one seat (the same device and scope
        again replaces it; past ``MAX_PUSH_PER_ACCOUNT`` or ``MAX_PUSH_PER_SEAT`` devices the
        oldest is forgotten: a new phone is told, the one it replaced no more). Returns its id."""
        endpoint, p256dh, auth = keys
        table_id, number = seat if seat else (None, None)
        scope = (
            push_subscriptions.c.account_id == account_id
            if account_id
            else and_(
                push_subscriptions.c.table_id == table_id, push_subscriptions.c.seat == number
            )
        )
        sub_id = secrets.token_hex(16)
        with self.engine.begin() as conn:
            conn.execute(
                delete(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint, scope)
            )
            conn.execute(
                insert(push_subscriptions).values(
                    id=sub_id,
                    endpoint=endpoint,
                    p256dh=p256dh,
                    auth=auth,
                    lang=lang,
                    zone=zone,
                    account_id=account_id,
                    table_id=table_id,
                    seat=number,
                    created_at=now,
                )
            )
            others = conn.execute(
                select(push_subscriptions.c.id)
                .where(scope, push_subscriptions.c.id != sub_id)
                .order_by(push_subscriptions.c.created_at.desc(), push_subscriptions.c.id)
            ).scalars()
            cap = MAX_PUSH_PER_ACCOUNT if account_id else MAX_PUSH_PER_SEAT
            oldest = list(others)[cap - 1 :]
            if oldest:
                conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id.in_(oldest)))
        return sub_id

    def drop_push(self, sub_id: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id == sub_id))
        return gone.rowcount > 0

    def push_count(self, account_id: str) -> int:
        query = select(func.count()).where(push_subscriptions.c.account_id == account_id)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def sweep(self, before: float) -> int:
        """Forget guests' subscriptions made before ``before`` (a seat's match is long over)."""
        query = delete(push_subscriptions).where(
            push_subscriptions.c.account_id.is_(None), push_subscriptions.c.created_at < before
        )
        with self.engine.begin() as conn:
            return int(conn.execute(query).rowcount)

    # ---------------------------------------------------------------------- who is told
    def targets(self, table_id: str, seat: int) -> tuple[list[PushTarget], MailTarget | None]:
        """Whom to tell that it is this seat's turn: the devices subscribed for the seat, and,
        when an account holds it, that account's devices and its confirmed address."""
        with self.engine.connect() as conn:
            holder = conn.execute(
                select(account_seats.c.account_id).where(
                    account_seats.c.table_id == table_id, account_seats.c.seat == seat
                )
            ).scalar_one_or_none()
            bound = and_(
                push_subscriptions.c.table_id == table_id, push_subscriptions.c.seat == seat
            )
            where = (
                bound if holder is None else or_(bound, push_subscriptions.c.account_id == holder)
            )
            rows = conn.execute(select(push_subscriptions).where(where)).all()
            mail = None
            if holder is not None:
                found = conn.execute(
                    select(notify_emails).where(notify_emails.c.account_id == holder)
                ).first()
                mail = _mail(found) if found is not None else None
        seen: set[str] = set()
        pushes = []
        for row in rows:  # a device subscribed both ways is told once
            if row.endpoint not in seen:
                seen.add(row.endpoint)
                pushes.append(_push(row))
        return pushes, mail if mail is not None and mail.confirmed else None

    def account_pushes(self, account_id: str) -> list[PushTarget]:
        """The devices subscribed to the account's news."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(push_subscriptions).where(push_subscriptions.c.account_id == account_id)
            ).all()
        return [_push(row) for row in rows]

    # ---------------------------------------------------------------------------- mail
    def set_mail(self, account_id: str, address: str, lang: str, zone: str, now: float) -> None:
        """The account's address, unconfirmed until its link is opened."""
        with self.engine.begin() as conn:
            conn.execute(delete(notify_emails).where(notify_emails.c.account_id == account_id))
            conn.execute(
                insert(notify_emails).values(
                    account_id=account_id,
                    address=address,
                    lang=lang,
                    zone=zone,
                    confirmed_at=None,
                    created_at=now,
                )
            )

    def mail_of(self, account_id: str) -> MailTarget | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(notify_emails).where(notify_emails.c.account_id == account_id)
            ).first()
        return None if row is None else _mail(row)

    def confirm_mail(self, account_id: str, address: str, now: float) -> bool:
        """Confirmed, if the account still has this address."""
        query = (
            update(notify_emails)
            .where(notify_emails.c.account_id == account_id, notify_emails.c.address == address)
            .values(confirmed_at=now)
        )
        with self.engine.begin() as conn:
            return conn.execute(query).rowcount > 0

    def drop_mail(self, account_id: str) -> bool:
        with self.engine.begin() as conn:
            gone = conn.execute(
                delete(notify_emails).where(notify_emails.c.account_id == account_id)
            )
        return gone.rowcount > 0
