"""A store in the process's memory (``memory://``): what the SQL store does, without a database.

For in-process tests of the table and the lobby, and for trying the server without a file. It
keeps the same rules as the SQL store — a step is stored once, a version that moved or a table no
longer open is a ConflictError — and the shared contract test (tests/server/test_storage.py) holds
both to them. Everything is lost when the process ends.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .pairings import MemoryPairings, SearchRow
from .rows import (
    DONE,
    EXPIRED,
    FAILED,
    QUEUED,
    RUNNING,
    TURN_BASED,
    ActionRow,
    AnalysisRow,
    Append,
    Census,
    ConflictError,
    RematchRow,
    SeatRow,
    TablePage,
    TableRow,
    check_new_table,
    check_page,
    check_positive,
    decode_cursor,
    page_of,
    status_filter,
    to_json,
)


@dataclass(slots=True)
class _Stored:
    row: TableRow  # seats kept apart, by number, as the SQL store keeps them
    seats: dict[int, SeatRow] = field(default_factory=dict)
    actions: list[ActionRow] = field(default_factory=list)


def _key(row: TableRow) -> tuple[float, str]:
    return row.created_at, row.id


class MemoryStorage(MemoryPairings):
    """Tables, seats and actions in dictionaries; every call copies in and out."""

    def __init__(self) -> None:
        self._tables: dict[str, _Stored] = {}
        self._analyses: dict[str, AnalysisRow] = {}
        self._rematches: dict[str, RematchRow] = {}
        self._searches: dict[str, SearchRow] = {}
        self._aborts: dict[str, tuple[str, float]] = {}  # by table: who aborted it, when
        self._closed = False

    @property
    def dialect(self) -> str:
        return "memory"

    def _open(self) -> None:
        if self._closed:
            raise RuntimeError("the storage is closed")

    # ------------------------------------------------------------------------------ writes
    async def create_table(self, row: TableRow) -> None:
        self._open()
        check_new_table(row)
        if row.id in self._tables:
            raise ConflictError(f"there is already a table {row.id}")
        kept = replace(
            row,
            params=json.loads(to_json(row.params)),
            outcome=None if row.outcome is None else json.loads(to_json(row.outcome)),
            seats=[],
            prelude=[],  # only ``add_event`` adds to it
        )
        self._tables[row.id] = _Stored(kept, {s.seat: replace(s) for s in row.seats})

    async def update_seat(self, table_id: str, seat: SeatRow) -> None:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or seat.seat not in stored.seats:
            raise ConflictError(f"table {table_id} has no seat {seat.seat}")
        self._put_seat(stored, seat)

    async def take_over(self, table_id: str, seat: int, level: str, version: int) -> None:
        self._open()
        stored = self._tables.get(table_id)
        found = None if stored is None else stored.seats.get(seat)
        if stored is None or found is None or found.kind != "human":
            raise ConflictError(f"table {table_id} has no person at seat {seat}")
        if stored.row.version != version or stored.row.status != "playing":
            raise ConflictError(f"table {table_id} is not playing at version {version}")
        stored.seats[seat] = replace(found, kind="bot", level=level, bot_from=version, away=False)

    async def end_table(
        self,
        table_id: str,
        version: int,
        outcome: dict[str, Any],
        abort: tuple[str, float] | None = None,
    ) -> None:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or stored.row.status != "playing" or stored.row.version != version:
            raise ConflictError(f"table {table_id} is not playing at version {version}")
        stored.row.status, stored.row.due_at = "over", None
        stored.row.outcome = json.loads(to_json(outcome))
        if abort is not None:
            self._aborts[table_id] = abort

    async def count_aborts(self, who: str, since: float) -> int:
        self._open()
        return sum(w == who and at >= since for w, at in self._aborts.values())

    @staticmethod
    def _put_seat(stored: _Stored, seat: SeatRow) -> None:
        """A seat as it is now, but for a person's commitment, contribution and salt, which only
        ``commit_seat`` and ``reveal_seat`` write (a seat that is no one's has none)."""
        kept = stored.seats[seat.seat] if seat.kind == "human" else SeatRow(seat.seat, "", "")
        stored.seats[seat.seat] = replace(
            seat, contribution=kept.contribution, commitment=kept.commitment, salt=kept.salt
        )

    async def start_table(
        self,
        table_id: str,
        seats: Sequence[SeatRow],
        started_at: float,
        status: str = "playing",
    ) -> None:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or stored.row.status != "open":
            raise ConflictError(f"table {table_id} is no longer open")
        if any(s.seat not in stored.seats for s in seats):
            raise ConflictError(f"table {table_id} has no seat among {[s.seat for s in seats]}")
        for seat in seats:
            self._put_seat(stored, seat)
        stored.row.status = status
        stored.row.started_at = stored.row.turn_started_at = started_at
        stored.row.due_at = started_at if stored.row.pace == TURN_BASED else None

    async def deal_table(self, table_id: str, dealt_at: float) -> list[SeatRow]:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or stored.row.status != "starting":
            raise ConflictError(f"table {table_id} is not waiting to be dealt")
        stored.row.status = "playing"
        stored.row.turn_started_at = dealt_at
        stored.row.due_at = dealt_at if stored.row.pace == TURN_BASED else None
        return [replace(stored.seats[n]) for n in sorted(stored.seats)]

    async def open_reveals(self, table_id: str, at: float) -> None:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or stored.row.status != "starting" or stored.row.revealing_at is not None:
            raise ConflictError(f"table {table_id} is not taking commitments")
        stored.row.revealing_at = at

    async def commit_seat(self, table_id: str, seat: int, commitment: str) -> None:
        stored = self._seed_seat(table_id, seat, revealing=False)
        kept = stored.seats[seat]
        stored.seats[seat] = replace(kept, commitment=commitment, contribution=None, salt=None)

    async def reveal_seat(self, table_id: str, seat: int, contribution: str, salt: str) -> None:
        stored = self._seed_seat(table_id, seat, revealing=True)
        stored.seats[seat] = replace(stored.seats[seat], contribution=contribution, salt=salt)

    def _seed_seat(self, table_id: str, seat: int, revealing: bool) -> _Stored:
        self._open()
        stored = self._tables.get(table_id)
        row = stored.row if stored is not None else None
        if row is None or (
            not (row.status == "starting" and row.revealing_at is not None)
            if revealing
            else not (row.status in ("open", "starting") and row.revealing_at is None)
        ):
            raise ConflictError(
                f"table {table_id} is not taking {'reveals' if revealing else 'commitments'}"
            )
        assert stored is not None
        if seat not in stored.seats:
            raise ConflictError(f"table {table_id} has no seat {seat}")
        return stored

    async def append(self, item: Append) -> None:
        self._open()
        stored = self._tables.get(item.table_id)
        step = item.step
        if stored is None or stored.row.version != step.seq - 1:
            raise ConflictError(f"table {item.table_id} already has step {step.seq}")
        outcome = None if item.outcome is None else json.loads(to_json(item.outcome))
        stored.actions.append(step)
        stored.row.version = step.seq
        stored.row.turn_started_at = item.turn_started_at
        stored.row.status = "playing" if outcome is None else "over"
        stored.row.outcome = outcome
        stored.row.due_at = item.due_at
        if item.seat is not None:
            kept = stored.seats[step.seat]
            stored.seats[step.seat] = replace(
                item.seat,
                contribution=kept.contribution,
                commitment=kept.commitment,
                salt=kept.salt,
                token_hash=kept.token_hash,
            )

    async def due_tables(self, now: float, limit: int = 200) -> list[tuple[str, int, float]]:
        self._open()
        check_positive(limit)
        due = [
            (s.row.id, s.row.version, s.row.due_at)
            for s in self._tables.values()
            if s.row.status == "playing" and s.row.due_at is not None and s.row.due_at <= now
        ]
        return sorted(due, key=lambda d: d[2])[:limit]

    async def set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or stored.row.version != version:
            return False
        stored.row.due_at = due_at
        return True

    async def expire_tables(self, table_ids: Iterable[str]) -> list[str]:
        self._open()
        wanted = set(table_ids)
        return self._expire([s.row for s in self._tables.values() if s.row.id in wanted])

    async def expire_open_tables(self, older_than: float) -> list[str]:
        self._open()
        return self._expire([s.row for s in self._tables.values() if s.row.created_at < older_than])

    @staticmethod
    def _expire(rows: list[TableRow]) -> list[str]:
        expired = sorted((r for r in rows if r.status == "open"), key=_key)
        for row in expired:
            row.status = EXPIRED
        return [r.id for r in expired]

    # ------------------------------------------------------------------------------- reads
    def _copy(self, stored: _Stored) -> TableRow:
        row = copy.deepcopy(stored.row)
        row.seats = [replace(stored.seats[n]) for n in sorted(stored.seats)]
        return row

    async def load_table(self, table_id: str) -> TableRow | None:
        self._open()
        stored = self._tables.get(table_id)
        return None if stored is None else self._copy(stored)

    async def versions(self, table_ids: Iterable[str]) -> dict[str, tuple[int, str]]:
        self._open()
        found = (self._tables.get(t) for t in table_ids)
        return {s.row.id: (s.row.version, s.row.status) for s in found if s is not None}

    async def load_actions(
        self, table_id: str, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        self._open()
        stored = self._tables.get(table_id)
        last = len(stored.actions) if stored is not None and upto is None else upto or 0
        return [] if stored is None else [a for a in stored.actions if after < a.seq <= last]

    def _newest_first(self, statuses: list[str] | None, game: str | None) -> list[_Stored]:
        found = [
            s
            for s in self._tables.values()
            if (statuses is None or s.row.status in statuses) and game in (None, s.row.game)
        ]
        return sorted(found, key=lambda s: _key(s.row), reverse=True)

    async def tables_with_status(
        self, statuses: Iterable[str], limit: int = 1000, *, sleeping: bool = True
    ) -> list[TableRow]:
        self._open()
        check_positive(limit)
        found = self._newest_first(status_filter(statuses), None)
        if not sleeping:
            found = [
                s for s in found if not (s.row.pace == TURN_BASED and s.row.status == "playing")
            ]
        return [self._copy(s) for s in found[:limit]]

    async def list_tables(
        self,
        *,
        statuses: Iterable[str] | None = None,
        game: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        offset: int = 0,
    ) -> TablePage:
        self._open()
        check_page(limit, offset)
        after = None if cursor is None else decode_cursor(cursor)
        found = self._newest_first(status_filter(statuses), game)
        if after is not None:
            found = [s for s in found if _key(s.row) < after]
        rows = [self._copy(s) for s in found[offset : offset + limit + 1]]
        return page_of(rows, limit)

    async def count_tables(
        self,
        *,
        statuses: Iterable[str] | None = None,
        game: str | None = None,
        owner: str | None = None,
    ) -> int:
        self._open()
        found = self._newest_first(status_filter(statuses), game)
        return sum(owner in (None, s.row.owner) for s in found)

    # ---------------------------------------------------------------------------- analyses
    async def queue_analysis(self, table_id: str, at: float) -> bool:
        self._open()
        if table_id in self._analyses:
            return False
        self._analyses[table_id] = AnalysisRow(table_id, QUEUED, at)
        return True

    async def claim_analysis(
        self, at: float, stale_before: float, max_attempts: int
    ) -> AnalysisRow | None:
        self._open()
        waiting = sorted(
            (
                job
                for job in self._analyses.values()
                if job.status == QUEUED
                or (job.status == RUNNING and (job.claimed_at or 0.0) < stale_before)
            ),
            key=lambda job: (job.queued_at, job.table_id),
        )
        for job in waiting:
            if job.attempts >= max_attempts:
                job.status, job.done_at = FAILED, at
                job.result = f"its worker stopped {job.attempts} times"
                continue
            job.status, job.claimed_at, job.attempts = RUNNING, at, job.attempts + 1
            return replace(job)
        return None

    async def finish_analysis(self, table_id: str, result: str, failed: bool, at: float) -> None:
        self._open()
        job = self._analyses.get(table_id)
        if job is not None:
            job.status, job.result, job.done_at = FAILED if failed else DONE, result, at

    async def load_analysis(self, table_id: str) -> AnalysisRow | None:
        self._open()
        job = self._analyses.get(table_id)
        return None if job is None else replace(job)

    # ------------------------------------------------------------------------------ prelude
    async def add_event(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        self._open()
        stored = self._tables.get(table_id)
        if stored is None or len(stored.row.prelude) != seq:
            raise ConflictError(f"table {table_id} cannot take prelude event {seq}")
        stored.row.prelude.append(json.loads(json.dumps(event)))

    async def load_prelude(self, table_id: str) -> list[dict[str, Any]]:
        self._open()
        stored = self._tables.get(table_id)
        return [] if stored is None else copy.deepcopy(stored.row.prelude)

    # ---------------------------------------------------------------------------- rematches
    async def offer_rematch(self, row: RematchRow) -> bool:
        self._open()
        if row.table_id in self._rematches:
            return False
        self._rematches[row.table_id] = _copy_rematch(row, 0)
        return True

    async def update_rematch(self, row: RematchRow, version: int) -> bool:
        self._open()
        stored = self._rematches.get(row.table_id)
        if stored is None or stored.version != version:
            return False
        self._rematches[row.table_id] = _copy_rematch(row, version + 1)
        return True

    async def load_rematch(self, table_id: str) -> RematchRow | None:
        self._open()
        stored = self._rematches.get(table_id)
        return None if stored is None else _copy_rematch(stored, stored.version)

    async def ping(self) -> None:
        self._open()

    async def census(self) -> Census:
        self._open()
        return Census(time.time())

    async def close(self) -> None:
        self._closed = True


def _copy_rematch(row: RematchRow, version: int) -> RematchRow:
    return replace(row, answers=list(row.answers), hashes=list(row.hashes), version=version)
