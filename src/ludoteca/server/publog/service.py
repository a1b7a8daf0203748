"""The public log of tables, served (``docs/log.md``): every table is appended when its
commitments close, and its end when it ends; tree heads are signed with the record-signing key;
inclusion and consistency proofs are answered from a Merkle tree kept in memory (32 bytes a
table, read from the store once, then only what other processes appended since).

A table told as ended (``ended``, in the process that stored its last step) gets its ``over``
entry in the background. ``sweep`` (the ``publog`` background task) finds the tables the log
holds with no end yet and looks at each: one that finished gets ``over``, one marked expired
(the operator ended it after its commitments closed) gets ``expired``, one no longer in the
database gets ``gone`` — so a table that never finishes stays in the log with what became of it.
It also appends any table this process holds whose deal is fixed and whose entry is missing: one
whose entry could not be stored when its commitments closed (the database away for a moment), or
whose process stopped between the two (the table is read again, by this process or another, and
held while it plays).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from ludoteca.core.ending import log_status
from ludoteca.core.merkle import MerkleTree, leaf_hash
from ludoteca.core.prelude import closed_head
from ludoteca.core.publog import TreeHead, head_payload, status_entry, table_entry
from ludoteca.server.logs import log
from ludoteca.server.messages import Status
from ludoteca.server.signing import KeyRing
from ludoteca.server.storage import Storage, TableRow

from .store import Entry, LogStore

BATCH = 10_000  # leaf hashes read at once
SWEEP = 200  # unfinished tables looked at per sweep
MAX_ENTRIES = 1000  # entries one request may ask for
FIXED = (Status.PLAYING, Status.OVER)  # a table dealt (with its commitments closed, if any)


class LogHook(Protocol):
    """What a table tells the log: its commitments closed (awaited: the entry is stored before
    anyone reveals), and it ended (must not block nor raise)."""

    async def closed(self, row: TableRow) -> None: ...

    def ended(self, table_id: str, status: str, version: int) -> None: ...


class NoLog:
    """No public log (tests of the table alone)."""

    async def closed(self, row: TableRow) -> None:
        return None

    def ended(self, table_id: str, status: str, version: int) -> None:
        return None


def entry_of(row: TableRow) -> str:
    """The entry of a table whose commitments just closed (``starting``), or that was dealt at
    once (``playing``), whenever it is made."""
    # (a seat that is no person's has no commitment: the store keeps none for it)
    seats = [(s.seat, s.kind, s.commitment) for s in sorted(row.seats, key=lambda s: s.seat)]
    at = row.revealing_at or row.started_at or 0.0
    return table_entry(
        row.id,
        row.game,
        row.format,
        server_commitment=row.commitment,
        seats=seats,
        status=str(Status.STARTING if row.revealing_at is not None else Status.PLAYING),
        at=at,
        chain=closed_head(row.prelude) if row.format >= 5 else None,
    )


class PublicLog:
    def __init__(self, store: LogStore, keys: KeyRing, now: Callable[[], float]) -> None:
        self.store = store
        self.keys = keys
        self.now = now
        self.tree = MerkleTree()
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self.pending: dict[str, str] = {}  # entries that could not be stored yet, by table
        self._swept = -1  # the sweep's place among the tables without an end

    # --------------------------------------------------------------------------- appending
    async def closed(self, row: TableRow) -> None:
        entry = entry_of(row)
        try:
            await self.add(row.id, "table", entry)
        except Exception as exc:  # the sweep appends it again
            self.pending[row.id] = entry
            log("publog_append_failed", logging.ERROR, table=row.id, error=repr(exc))

    def ended(self, table_id: str, status: str, version: int) -> None:
        self._spawn(self._end(table_id, status, version))

    async def _end(self, table_id: str, status: str, version: int) -> None:
        try:
            await self.add(table_id, status, status_entry(table_id, status, version, self.now()))
        except Exception as exc:  # the sweep finds it
            log("publog_append_failed", logging.ERROR, table=table_id, error=repr(exc))

    async def add(self, table_id: str, kind: str, leaf: str) -> Entry:
        entry = await self.store.append(
            table_id, kind, leaf, leaf_hash(leaf.encode()).hex(), self.now()
        )
        log("publog_appended", table=table_id, kind=kind, index=entry.index)
        return entry

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for the entries being appended in the background (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def sweep(self, storage: Storage, held: Iterable[TableRow] = ()) -> int:
        """Append what is missing: the entries of tables that failed (``pending``) or are held
        here (``held``) with their deal fixed and no entry, the end of tables that ended unseen.
        Returns how many entries it appended."""
        added = 0
        for table_id, entry in list(self.pending.items()):
            await self.add(table_id, "table", entry)
            del self.pending[table_id]
            added += 1
        fixed = {r.id: r for r in held if r.revealing_at is not None or r.status in FIXED}
        logged = await self.store.logged(list(fixed)) if fixed else set()
        for table_id in sorted(set(fixed) - logged):
            await self.add(table_id, "table", entry_of(fixed[table_id]))
            added += 1
        waiting = await self.store.unfinished(self._swept, SWEEP)
        # the next sweep goes on from here, and starts again once it reached the end
        self._swept = waiting[-1].index if len(waiting) == SWEEP else -1
        for table_id in [e.table_id for e in waiting]:
            found = await storage.load_table(table_id)
            if found is None:
                status, version = "gone", 0
            elif found.status == Status.OVER:
                status, version = log_status(found.outcome), found.version
            elif found.status == Status.EXPIRED:
                status, version = str(found.status), found.version
            else:
                continue
            await self.add(table_id, status, status_entry(table_id, status, version, self.now()))
            added += 1
        return added

    async def run(
        self, storage: Storage, held: Callable[[], Iterable[TableRow]], every: float = 60.0
    ) -> None:
        while True:
            try:
                await self.sweep(storage, held())
            except Exception as exc:
                log("publog_sweep_failed", logging.WARNING, error=repr(exc))
            await asyncio.sleep(every)

    # --------------------------------------------------------------------------- answering
    async def sync(self) -> int:
        """Read the entries appended since (by any process); the log's size."""
        async with self._lock:
            while True:
                found = await self.store.hashes(len(self.tree), BATCH)
                for h in found:
                    self.tree.append(h)
                if len(found) < BATCH:
                    return len(self.tree)

    async def head(self) -> TreeHead:
        """The signed head of the log as it is now (the one signed before, for a size seen
        before: never two roots for one size)."""
        size = await self.sync()
        kept = await self.store.head(size)
        if kept is not None:
            return kept
        root = self.tree.root(size).hex()
        signature = self.keys.current.sign(head_payload(size, root))
        return await self.store.keep_head(
            TreeHead(size, root, signature.value, signature.key_id), self.now()
        )

    async def inclusion(self, table_id: str, size: int | None) -> tuple[Entry, int, list[str]]:
        """A table's entry, the tree size, and the audit path; LookupError (not in the log),
        ValueError (a size the log does not have, or too small to hold the entry)."""
        entry = await self.store.entry(table_id, "table")
        if entry is None:
            raise LookupError(f"table {table_id} is not in the log")
        current = await self.sync()
        size = current if size is None else size
        if not entry.index < size <= current:
            raise ValueError(
                f"entry {entry.index} is in trees of size {entry.index + 1} to {current}, "
                f"not {size}"
            )
        return entry, size, [h.hex() for h in self.tree.audit_path(entry.index, size)]

    async def consistency(self, first: int, second: int) -> list[str]:
        current = await self.sync()
        if not 0 <= first <= second <= current:
            raise ValueError(
                f"first and second must satisfy 0 ≤ first ≤ second ≤ {current} (the log's size)"
            )
        return [h.hex() for h in self.tree.consistency_path(first, second)]

    async def entries(self, start: int, end: int) -> list[Entry]:
        if not 0 <= start < end or end - start > MAX_ENTRIES:
            raise ValueError(f"ask for 1 to {MAX_ENTRIES} entries: 0 ≤ start < end")
        return await self.store.entries(start, end)

    def close(self) -> None:
        self.store.close()


__all__ = ["LogHook", "NoLog", "PublicLog", "entry_of"]
