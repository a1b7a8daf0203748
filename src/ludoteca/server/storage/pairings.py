"""The pairing pool (revision 0014, docs/protocol.md#pairing): one row per search for people to
play with, in the database every server process shares, so that two people searching at two
processes are paired, and a process that dies loses nobody's search.

A search is keyed by a digest of its id (the id is the searcher's secret, as a seat token is);
the seat token a seated search gives is derived from the id too, and only its hash is stored
(``seat_hash``), so the database holds nothing that takes a seat. Every write after the first
is fenced by the row's ``version``, and seating a group is one transaction that moves every
member from ``waiting`` at the version read, or none: of two processes pairing the same people
at once, one seats them and the other finds them gone.

``SqlPairings`` and ``MemoryPairings`` give these methods to ``SqlStorage`` and
``MemoryStorage``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Engine

from .schema import searches

P = ParamSpec("P")
T = TypeVar("T")

WAITING, SEATED, CANCELLED, EXPIRED = "waiting", "seated", "cancelled", "expired"
POSTED = "posted"
"""A seek posted in the lobby (``lobby/seeks.py``): its open table waits for people to take it."""


@dataclass(slots=True)
class SearchRow:
    """One search: what the person looks for (``players`` 0 for any count the game allows;
    ``bots_after`` None to keep waiting), who they are for the rules of pairing (account,
    digest of the device cookie, displayed rating of a rated search), and once seated the
    table, the seat and the table's size. ``seen_at``: the searcher's last sign of life."""

    id: str
    game: str
    players: int
    pace: str
    rated: bool
    bots_after: float | None
    bot_level: str
    name: str
    seat_hash: str
    created_at: float
    seen_at: float
    account: str | None = None
    device: str | None = None
    rating: float | None = None
    state: str = WAITING
    table_id: str | None = None
    seat: int | None = None
    size: int | None = None
    level: str | None = None  # the bots' level at the seated table (None: no bots)
    ended_at: float | None = None
    version: int = 0


@dataclass(frozen=True, slots=True)
class Placed:
    """One member of a group being seated: the search (at the version read) and its seat."""

    id: str
    version: int
    seat: int


def _row(r: Any) -> SearchRow:
    return SearchRow(
        r.id,
        r.game,
        r.players,
        r.pace,
        bool(r.rated),
        r.bots_after,
        r.bot_level,
        r.name,
        r.seat_hash,
        r.created_at,
        r.seen_at,
        r.account,
        r.device,
        r.rating,
        r.state,
        r.table_id,
        r.seat,
        r.size,
        r.level,
        r.ended_at,
        r.version,
    )


def _values(row: SearchRow) -> dict[str, Any]:
    return {
        "game": row.game,
        "players": row.players,
        "pace": row.pace,
        "rated": row.rated,
        "bots_after": row.bots_after,
        "bot_level": row.bot_level,
        "name": row.name,
        "seat_hash": row.seat_hash,
        "created_at": row.created_at,
        "seen_at": row.seen_at,
        "account": row.account,
        "device": row.device,
        "rating": row.rating,
        "state": row.state,
        "table_id": row.table_id,
        "seat": row.seat,
        "size": row.size,
        "level": row.level,
        "ended_at": row.ended_at,
    }


class SqlPairings:
    """The pool of ``Storage``, for a store with an ``engine`` and a blocking ``_run``."""

    engine: Engine

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        raise NotImplementedError

    async def add_search(self, row: SearchRow) -> None:
        await self._run(self._add_search, row)

    def _add_search(self, row: SearchRow) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(searches).values(id=row.id, version=0, **_values(row)))

    async def load_search(self, search_id: str) -> SearchRow | None:
        return await self._run(self._load_search, search_id)

    def _load_search(self, search_id: str) -> SearchRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(searches).where(searches.c.id == search_id)).first()
        return None if found is None else _row(found)

    async def waiting_searches(
        self, game: str | None = None, state: str = WAITING
    ) -> list[SearchRow]:
        return await self._run(self._waiting_searches, game, state)

    def _waiting_searches(self, game: str | None, state: str) -> list[SearchRow]:
        query = select(searches).where(searches.c.state == state)
        if game is not None:
            query = query.where(searches.c.game == game)
        with self.engine.connect() as conn:
            found = conn.execute(query.order_by(searches.c.created_at, searches.c.id))
            return [_row(r) for r in found]

    async def table_searches(self, table_id: str) -> list[SearchRow]:
        return await self._run(self._table_searches, table_id)

    def _table_searches(self, table_id: str) -> list[SearchRow]:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(searches).where(searches.c.table_id == table_id).order_by(searches.c.seat)
            )
            return [_row(r) for r in found]

    async def update_search(self, row: SearchRow, version: int) -> bool:
        return await self._run(self._update_search, row, version)

    def _update_search(self, row: SearchRow, version: int) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(searches)
                .where(and_(searches.c.id == row.id, searches.c.version == version))
                .values(version=version + 1, **_values(row))
            )
        return done.rowcount == 1

    async def seat_searches(
        self, table_id: str, size: int, level: str | None, members: list[Placed], at: float
    ) -> bool:
        return await self._run(self._seat_searches, table_id, size, level, members, at)

    def _seat_searches(
        self, table_id: str, size: int, level: str | None, members: list[Placed], at: float
    ) -> bool:
        with self.engine.begin() as conn:
            for m in members:
                done = conn.execute(
                    update(searches)
                    .where(
                        and_(
                            searches.c.id == m.id,
                            searches.c.version == m.version,
                            searches.c.state == WAITING,
                        )
                    )
                    .values(
                        state=SEATED,
                        table_id=table_id,
                        seat=m.seat,
                        size=size,
                        level=level,
                        ended_at=at,
                        version=m.version + 1,
                    )
                )
                if done.rowcount != 1:
                    conn.rollback()
                    return False
        return True

    async def forget_searches(self, ended_before: float) -> int:
        return await self._run(self._forget_searches, ended_before)

    def _forget_searches(self, ended_before: float) -> int:
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(searches).where(
                    and_(searches.c.state != WAITING, searches.c.ended_at < ended_before)
                )
            )
        return done.rowcount


class MemoryPairings:
    """The same pool in a dictionary, for the in-memory store."""

    _searches: dict[str, SearchRow]

    def _open(self) -> None:
        raise NotImplementedError

    async def add_search(self, row: SearchRow) -> None:
        self._open()
        if row.id in self._searches:
            raise ValueError(f"search {row.id} exists")
        self._searches[row.id] = replace(row, version=0)

    async def load_search(self, search_id: str) -> SearchRow | None:
        self._open()
        found = self._searches.get(search_id)
        return None if found is None else replace(found)

    async def waiting_searches(
        self, game: str | None = None, state: str = WAITING
    ) -> list[SearchRow]:
        self._open()
        found = [
            replace(r)
            for r in self._searches.values()
            if r.state == state and (game is None or r.game == game)
        ]
        return sorted(found, key=lambda r: (r.created_at, r.id))

    async def table_searches(self, table_id: str) -> list[SearchRow]:
        self._open()
        found = [replace(r) for r in self._searches.values() if r.table_id == table_id]
        return sorted(found, key=lambda r: r.seat or 0)

    async def update_search(self, row: SearchRow, version: int) -> bool:
        self._open()
        stored = self._searches.get(row.id)
        if stored is None or stored.version != version:
            return False
        self._searches[row.id] = replace(row, version=version + 1)
        return True

    async def seat_searches(
        self, table_id: str, size: int, level: str | None, members: list[Placed], at: float
    ) -> bool:
        self._open()
        for m in members:
            stored = self._searches.get(m.id)
            if stored is None or stored.version != m.version or stored.state != WAITING:
                return False
        for m in members:
            stored = self._searches[m.id]
            self._searches[m.id] = replace(
                stored,
                state=SEATED,
                table_id=table_id,
                seat=m.seat,
                size=size,
                level=level,
                ended_at=at,
                version=m.version + 1,
            )
        return True

    async def forget_searches(self, ended_before: float) -> int:
        self._open()
        old = [
            k
            for k, r in self._searches.items()
            if r.state != WAITING and r.ended_at is not None and r.ended_at < ended_before
        ]
        for k in old:
            del self._searches[k]
        return len(old)


__all__ = [
    "CANCELLED",
    "EXPIRED",
    "POSTED",
    "SEATED",
    "WAITING",
    "MemoryPairings",
    "Placed",
    "SearchRow",
    "SqlPairings",
]
