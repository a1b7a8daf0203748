"""What the server keeps about the accounts' play, in the tables of revision 0006: the seats an
account holds, which tables are rated and how each one moved its accounts' ratings (the ratings,
their history, the leaderboard). ``store.AccountStore`` is built on it: it keeps the engine and
runs these methods, which block, on its thread pool.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import and_, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from ludoteca.server.storage.schema import (
    account_devices,
    account_seats,
    accounts,
    push_subscriptions,
    rated_tables,
    rating_changes,
    ratings,
)

from .ratings import Rating
from .rows import AlreadySeated, HeldSeat, SeatRating


class PlayStore:
    """Held seats and ratings, for ``AccountStore`` (which keeps the engine and the thread
    pool)."""

    engine: Engine

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

    def holders(self, table_id: str) -> list[tuple[int, str, str]]:
        """Each seat of the table an account holds: (seat, account id, token)."""
        query = select(account_seats).where(account_seats.c.table_id == table_id)
        with self.engine.connect() as conn:
            return [(r.seat, r.account_id, r.token) for r in conn.execute(query)]

    # ------------------------------------------------------------------------- ratings
    def mark_rated(self, table_id: str, game: str, now: float) -> None:
        """The table is rated (again: nothing changes)."""
        with contextlib.suppress(IntegrityError), self.engine.begin() as conn:
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

    def rating_of_table(self, table_id: str) -> tuple[Any, list[Any]] | None:
        """A rated table's row in ``rated_tables`` and the rating changes it made, seat by
        seat (None: the table is casual)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(rated_tables).where(rated_tables.c.table_id == table_id)
            ).first()
            if row is None:
                return None
            moved = list(
                conn.execute(
                    select(rating_changes)
                    .where(rating_changes.c.table_id == table_id)
                    .order_by(rating_changes.c.seat)
                )
            )
        return row, moved

    def rate(
        self,
        table_id: str,
        game: str,
        compute: Callable[[list[SeatRating]], list[tuple[SeatRating, Rating, int]]],
        now: float,
        unrated: str | None = None,
    ) -> tuple[bool, str | None]:
        """Rate a finished table exactly once, whichever process gets there first: claim it,
        read the seated accounts' ratings, store what ``compute`` makes of them (each seat's
        new rating and place). Returns whether this call claimed it and, when it moved no
        rating, why (accounts at it share a device, or ``unrated``: the match was aborted or
        ended by the operator, and moves no rating)."""
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
            shared = unrated or self._shared_device(conn, holders)
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

    def leaderboard(self, game: str, limit: int, provisional_sigma: float) -> list[Any]:
        """Settled ratings (sigma at most ``provisional_sigma``) first, each part by mu."""
        unsettled = case((ratings.c.sigma > provisional_sigma, 1), else_=0)
        query = (
            select(ratings, accounts.c.name)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .where(ratings.c.game == game)
            .order_by(unsettled, ratings.c.mu.desc(), accounts.c.name_key)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return list(conn.execute(query))
