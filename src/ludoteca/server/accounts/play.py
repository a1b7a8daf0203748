"""Accounts at the tables: the seats a person holds and their tables, rating finished rated
tables (the round ``service.Accounts.run`` drives, exactly once whichever process gets there
first), profiles and leaderboards. ``service.Accounts`` is built on it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError

from ludoteca.core.ending import log_status
from ludoteca.games import get
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import Storage, TableRow

from .ratings import PROVISIONAL_SIGMA, Rating, anchor, change, places, update
from .rows import Account, AlreadySeated, HeldSeat, SeatRating
from .rules import name_key, shown_name
from .store import AccountStore

RECENT_MATCHES = 20
RATING_PAGE = 500  # rated tables a rating round reads
MY_TABLES = 50


class Play:
    """Seats, rating rounds and profiles, for ``Accounts`` (which keeps the store, the tables'
    storage and the clock)."""

    store: AccountStore
    storage: Storage
    now: Callable[[], float]
    _rated_up_to: tuple[float, str] | None = None  # where the next rating round starts

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

    async def carry_seats(
        self, old_table: str, new_table: str, moved: Callable[[int, str], tuple[int, str]]
    ) -> None:
        """The accounts that held seats of ``old_table`` hold their seats of its rematch
        ``new_table``: ``moved`` gives a seat's place there and its token from the old ones."""
        now = self.now()
        for seat, account_id, token in await self.store.run(self.store.holders, old_table):
            at, new_token = moved(seat, token)
            try:
                await self.store.run(
                    self.store.hold_seat, account_id, new_table, at, new_token, now
                )
            except AlreadySeated:  # held already (asked again): nothing to do
                continue

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
                    self.store.rate, table_id, row.game, _compute(row), self.now(), _unrated(row)
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

    async def table_rating(self, table_id: str) -> dict[str, Any]:
        """Whether a table is rated and, once its match is rated, each account's change:
        ``state`` is ``casual``, ``waiting`` (not over, or not rated yet: ask again),
        ``rated`` (``changes`` filled), ``not_rated`` (accounts at it share a device) or
        ``failed`` (set aside for an operator); ``reason`` says why for the last two."""
        found = await self.store.run(self.store.rating_of_table, table_id)
        answer: dict[str, Any] = {"table": table_id, "rated": found is not None}
        if found is None:
            return answer | {"state": "casual", "changes": []}
        row, moved = found
        if row.failed_at is not None:
            return answer | {"state": "failed", "reason": row.not_rated, "changes": []}
        if row.rated_at is None:
            return answer | {"state": "waiting", "changes": []}
        if row.not_rated is not None:
            return answer | {"state": "not_rated", "reason": row.not_rated, "changes": []}
        table = await self.storage.load_table(table_id)
        names = {s.seat: s.name for s in table.seats} if table is not None else {}
        changes = []
        for c in moved:
            after = Rating(c.mu, c.sigma)
            changes.append(
                {
                    "seat": c.seat,
                    "name": names.get(c.seat),
                    "before": Rating(c.mu_before, c.sigma_before).displayed,
                    "after": after.displayed,
                    "change": _change_of(c),
                    "provisional": after.provisional,
                }
            )
        return answer | {"state": "rated", "changes": changes}

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
                {"at": c.at, "table": c.table_id, "rating": Rating(c.mu, c.sigma).displayed}
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
            moved = by_table.get(h.table_id)
            matches.append(
                {
                    "table": h.table_id,
                    "game": row.game,
                    "at": row.turn_started_at or h.at,
                    "seat": h.seat,
                    "players": _players(row),
                    "result": _result(row, h.seat),
                    "rated": moved is not None,
                    "change": None if moved is None else _change_of(moved),
                }
            )
        return {
            "name": account.name,
            "since": account.created_at,
            "ratings": games,
            "matches": matches,
        }

    async def leaderboard(self, game: str, limit: int) -> list[dict[str, Any]]:
        """Settled ratings first, highest first; then the provisional ones, highest first."""
        rows = await self.store.run(self.store.leaderboard, game, limit, PROVISIONAL_SIGMA)
        return [
            {"name": r.name, "matches": r.matches} | Rating(r.mu, r.sigma).to_json() for r in rows
        ]


def _change_of(row: Any) -> int:
    """The change people read ("+12") of one stored rating change."""
    return change(Rating(row.mu_before, row.sigma_before), Rating(row.mu, row.sigma))


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


def _unrated(row: TableRow) -> str | None:
    """Why a finished table moves no rating whoever sat at it: it was aborted, or the operator
    ended it (``docs/accounts.md#aborted-and-ended-matches``); None when it ended by the rules."""
    status = log_status(row.outcome)
    if status == "over":
        return None
    return "the match was aborted" if status == "aborted" else "the operator ended the match"


def _result(row: TableRow, seat: int) -> str | None:
    """won, shared, draw or lost once the match is over (None before; a 2-player resign too:
    the other seat won); aborted or ended (by the operator) for a match that ended with no
    result."""
    if row.status != Status.OVER or row.outcome is None:
        return None
    if log_status(row.outcome) != "over":
        return log_status(row.outcome)
    winners = row.outcome.get("winners") or []
    if row.outcome.get("draw"):
        return "draw"
    if seat in winners:
        return "won" if len(winners) == 1 else "shared"
    return "lost"


def _compute(row: TableRow) -> Callable[[list[SeatRating]], list[tuple[SeatRating, Rating, int]]]:
    """How a finished table moves the ratings of the accounts seated at it: every seat takes
    part (bots at their anchor, people without an account at the starting rating), only the
    accounts move. A person's seat a bot took over (they resigned, or timed out too often) is
    placed last, below everyone, whatever the bot then did."""

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
        last = max(ranks) + 1
        for seat in row.seats:
            if seat.bot_from is not None and seat.seat in by_seat:  # resigned, or taken over
                ranks[seat.seat] = last
        after = update(before, ranks, fixed)
        return [(s, after[s.seat], ranks[s.seat]) for s in seated if s.seat < len(after)]

    return compute
