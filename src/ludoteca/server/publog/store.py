"""What the public log keeps (revision 0011, ``docs/log.md``): its entries, append-only, and the
tree heads signed so far. One protocol, two stores: ``SqlLogStore`` (the tables' database,
SQLite or PostgreSQL) and ``MemoryLogStore`` (beside the in-memory table store, and for tests).

Indexes are dense and unique however many processes append: on PostgreSQL an append takes a
transaction-scoped advisory lock, reads the next index and inserts it, so the committed entries
are always a prefix 0…n−1; the primary key on the index is the backstop (an append that loses
a race anyway tries again). One table has at most one entry of each kind: a second append of it
answers the index the first one got.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import ParamSpec, Protocol, TypeVar

from sqlalchemy import and_, func, insert, select, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError

from ludoteca.core.publog import TreeHead
from ludoteca.server.storage.schema import publog_entries, publog_heads

P = ParamSpec("P")
T = TypeVar("T")
APPEND_TRIES = 20
LOCK_KEY = 0x6C75646F6C6F67  # "ludolog": the advisory lock of appends on PostgreSQL


@dataclass(frozen=True, slots=True)
class Entry:
    index: int
    table_id: str
    kind: str  # "table", or the status of a status entry
    leaf: str
    leaf_hash: str  # hex


class LogStore(Protocol):
    async def append(self, table_id: str, kind: str, leaf: str, leaf_hash: str, at: float) -> Entry:
        """Append an entry (its index is the log's size); the one already there when this table
        has an entry of this kind (nothing changes)."""
        ...

    async def hashes(self, start: int, limit: int) -> list[bytes]:
        """The leaf hashes of entries ``start``, ``start + 1``, … (at most ``limit``)."""
        ...

    async def entries(self, start: int, end: int) -> list[Entry]:
        """Entries ``start`` to ``end - 1`` that exist, in order."""
        ...

    async def entry(self, table_id: str, kind: str) -> Entry | None: ...

    async def logged(self, table_ids: list[str]) -> set[str]:
        """Those of these tables that have a ``table`` entry."""
        ...

    async def unfinished(self, after: int, limit: int) -> list[Entry]:
        """``table`` entries after index ``after`` whose table has no other: those whose end is
        not logged yet, in index order."""
        ...

    async def head(self, size: int) -> TreeHead | None: ...

    async def keep_head(self, head: TreeHead, at: float) -> TreeHead:
        """Keep a signed head; the one kept before for its size, if any (that one stands)."""
        ...

    def close(self) -> None: ...


class MemoryLogStore:
    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._by_key: dict[tuple[str, str], Entry] = {}
        self._heads: dict[int, TreeHead] = {}

    async def append(self, table_id: str, kind: str, leaf: str, leaf_hash: str, at: float) -> Entry:
        found = self._by_key.get((table_id, kind))
        if found is not None:
            return found
        entry = Entry(len(self._entries), table_id, kind, leaf, leaf_hash)
        self._entries.append(entry)
        self._by_key[table_id, kind] = entry
        return entry

    async def hashes(self, start: int, limit: int) -> list[bytes]:
        return [bytes.fromhex(e.leaf_hash) for e in self._entries[start : start + limit]]

    async def entries(self, start: int, end: int) -> list[Entry]:
        return self._entries[max(start, 0) : max(end, 0)]

    async def entry(self, table_id: str, kind: str) -> Entry | None:
        return self._by_key.get((table_id, kind))

    async def logged(self, table_ids: list[str]) -> set[str]:
        return {t for t in table_ids if (t, "table") in self._by_key}

    async def unfinished(self, after: int, limit: int) -> list[Entry]:
        ended = {t for t, k in self._by_key if k != "table"}
        found = [
            e for e in self._entries[after + 1 :] if e.kind == "table" and e.table_id not in ended
        ]
        return found[:limit]

    async def head(self, size: int) -> TreeHead | None:
        return self._heads.get(size)

    async def keep_head(self, head: TreeHead, at: float) -> TreeHead:
        return self._heads.setdefault(head.size, head)

    def close(self) -> None:
        return None


def _entry(r: object) -> Entry:
    return Entry(r.idx, r.table_id, r.kind, r.leaf, r.leaf_hash)  # type: ignore[attr-defined]


class SqlLogStore:
    """The log in the tables' database; blocking calls on one worker thread of its own."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="publog")

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    async def append(self, table_id: str, kind: str, leaf: str, leaf_hash: str, at: float) -> Entry:
        return await self._run(self.append_now, table_id, kind, leaf, leaf_hash, at)

    def append_now(self, table_id: str, kind: str, leaf: str, leaf_hash: str, at: float) -> Entry:
        """``append``, blocking (several threads or processes may call it at once)."""
        for _ in range(APPEND_TRIES):
            try:
                with self.engine.begin() as conn:
                    found = self._find(conn, table_id, kind)
                    if found is not None:
                        return found
                    if conn.dialect.name == "postgresql":
                        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
                        found = self._find(conn, table_id, kind)  # appended while we waited
                        if found is not None:
                            return found
                    index = conn.execute(
                        select(func.coalesce(func.max(publog_entries.c.idx) + 1, 0))
                    ).scalar_one()
                    conn.execute(
                        insert(publog_entries).values(
                            idx=index,
                            table_id=table_id,
                            kind=kind,
                            leaf=leaf,
                            leaf_hash=leaf_hash,
                            at=at,
                        )
                    )
                return Entry(index, table_id, kind, leaf, leaf_hash)
            except IntegrityError:  # another writer took this index, or this table's entry
                continue
            except OperationalError:  # SQLite written by another process meanwhile (busy)
                time.sleep(0.01)
                continue
        raise RuntimeError(f"could not append to the public log in {APPEND_TRIES} tries")

    @staticmethod
    def _find(conn: Connection, table_id: str, kind: str) -> Entry | None:
        found = conn.execute(
            select(publog_entries).where(
                and_(publog_entries.c.table_id == table_id, publog_entries.c.kind == kind)
            )
        ).first()
        return None if found is None else _entry(found)

    async def hashes(self, start: int, limit: int) -> list[bytes]:
        return await self._run(self._hashes, start, limit)

    def _hashes(self, start: int, limit: int) -> list[bytes]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(publog_entries.c.idx, publog_entries.c.leaf_hash)
                .where(publog_entries.c.idx >= start)
                .order_by(publog_entries.c.idx)
                .limit(limit)
            ).all()
        found = []
        for expected, row in enumerate(rows, start):
            if row.idx != expected:  # not committed yet: the prefix ends here
                break
            found.append(bytes.fromhex(row.leaf_hash))
        return found

    async def entries(self, start: int, end: int) -> list[Entry]:
        return await self._run(self._entries, start, end)

    def _entries(self, start: int, end: int) -> list[Entry]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(publog_entries)
                .where(and_(publog_entries.c.idx >= start, publog_entries.c.idx < end))
                .order_by(publog_entries.c.idx)
            ).all()
        return [_entry(r) for r in rows]

    async def entry(self, table_id: str, kind: str) -> Entry | None:
        return await self._run(self._entry_of, table_id, kind)

    def _entry_of(self, table_id: str, kind: str) -> Entry | None:
        with self.engine.connect() as conn:
            return self._find(conn, table_id, kind)

    async def logged(self, table_ids: list[str]) -> set[str]:
        return await self._run(self._logged, table_ids)

    def _logged(self, table_ids: list[str]) -> set[str]:
        found: set[str] = set()
        with self.engine.connect() as conn:
            for start in range(0, len(table_ids), 500):
                rows = conn.execute(
                    select(publog_entries.c.table_id).where(
                        and_(
                            publog_entries.c.kind == "table",
                            publog_entries.c.table_id.in_(table_ids[start : start + 500]),
                        )
                    )
                ).all()
                found |= {r.table_id for r in rows}
        return found

    async def unfinished(self, after: int, limit: int) -> list[Entry]:
        return await self._run(self._unfinished, after, limit)

    def _unfinished(self, after: int, limit: int) -> list[Entry]:
        other = publog_entries.alias("other")
        ended = select(other.c.idx).where(
            and_(other.c.table_id == publog_entries.c.table_id, other.c.kind != "table")
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(publog_entries)
                .where(
                    and_(
                        publog_entries.c.kind == "table",
                        publog_entries.c.idx > after,
                        ~ended.exists(),
                    )
                )
                .order_by(publog_entries.c.idx)
                .limit(limit)
            ).all()
        return [_entry(r) for r in rows]

    async def head(self, size: int) -> TreeHead | None:
        return await self._run(self._head, size)

    def _head(self, size: int) -> TreeHead | None:
        with self.engine.connect() as conn:
            found = conn.execute(select(publog_heads).where(publog_heads.c.size == size)).first()
        return None if found is None else TreeHead(size, found.root, found.signature, found.key_id)

    async def keep_head(self, head: TreeHead, at: float) -> TreeHead:
        return await self._run(self._keep_head, head, at)

    def _keep_head(self, head: TreeHead, at: float) -> TreeHead:
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(publog_heads).values(
                        size=head.size,
                        root=head.root,
                        signature=head.signature,
                        key_id=head.key_id,
                        signed_at=at,
                    )
                )
        except IntegrityError:  # another process signed this size first: its head stands
            kept = self._head(head.size)
            assert kept is not None
            return kept
        return head


__all__ = ["Entry", "LogStore", "MemoryLogStore", "SqlLogStore"]
