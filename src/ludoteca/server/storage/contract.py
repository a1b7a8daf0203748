"""The storage protocol: everything the table and the lobby ask of a store, all of it async."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from .pairings import Placed, SearchRow
from .rows import (
    ActionRow,
    AnalysisRow,
    Append,
    Census,
    RematchRow,
    SeatRow,
    TablePage,
    TableRow,
)


class Storage(Protocol):
    """Tables, seats and accepted actions, durable once a call returns.

    The store is the authority on what happened: ``append`` stores step ``n`` of a table only if
    the table is at version ``n - 1``, so of two writers of the same step exactly one succeeds and
    the other gets ``ConflictError``. Rows given to a store are copied; rows it returns are the
    caller's to change.
    """

    @property
    def dialect(self) -> str:
        """What holds the data: ``sqlite``, ``postgresql`` or ``memory``."""
        ...

    async def create_table(self, row: TableRow) -> None:
        """Store a new table and its seats (ConflictError if the id is taken; ValueError if the row
        lists a seat twice or its params are not JSON)."""
        ...

    async def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Replace one seat, but for a person's commitment, contribution and salt (written only
        by ``commit_seat`` and ``reveal_seat``; a seat that is no one's, open or a bot's, has
        none). ConflictError if the table has no such seat."""
        ...

    async def take_over(self, table_id: str, seat: int, level: str, version: int) -> None:
        """A bot of ``level`` plays a person's seat after step ``version`` (``bot_from``;
        the person resigned), its seed and commitment kept. ConflictError, nothing changed,
        unless the table is playing at ``version`` and the seat is a person's."""
        ...

    async def end_table(
        self,
        table_id: str,
        version: int,
        outcome: dict[str, Any],
        abort: tuple[str, float] | None = None,
    ) -> None:
        """The match ends other than by the rules: the table is ``over`` with ``outcome`` (the
        ending's shape, ``core.ending.ended_outcome``, and its ``ended``) and no due time;
        ``abort`` (who, when) is kept for ``count_aborts``. ConflictError, nothing changed,
        unless it is playing at ``version``."""
        ...

    async def count_aborts(self, who: str, since: float) -> int:
        """How many aborts ``who`` made at ``since`` or later."""
        ...

    async def start_table(
        self,
        table_id: str,
        seats: Sequence[SeatRow],
        started_at: float,
        status: str = "playing",
    ) -> None:
        """Store the seats as they start and the table's new ``status``: ``playing`` (dealt at
        once) or ``starting`` (waiting for the players' contributions). ConflictError (and
        nothing stored) if the table is no longer open."""
        ...

    async def deal_table(self, table_id: str, dealt_at: float) -> list[SeatRow]:
        """A starting table is dealt: it plays, the first turn's clock from ``dealt_at``; returns
        its seats as stored at that moment (every reveal stored before, none after).
        ConflictError if it is not waiting to be dealt."""
        ...

    async def open_reveals(self, table_id: str, at: float) -> None:
        """A starting table closes its commitments and opens the reveals (``revealing_at``).
        ConflictError if it is not starting or its reveals are open already."""
        ...

    async def commit_seat(self, table_id: str, seat: int, commitment: str) -> None:
        """A seat's commitment (its contribution and salt cleared), while the table is open or
        starting and its commitments are not closed. ConflictError otherwise (nothing stored)."""
        ...

    async def reveal_seat(self, table_id: str, seat: int, contribution: str, salt: str) -> None:
        """A seat's contribution and salt, while the table's reveals are open and it is not
        dealt. ConflictError otherwise (nothing stored). The caller checks them against the
        seat's commitment."""
        ...

    async def append(self, item: Append) -> None:
        """Store one accepted action and the table's new version, clock and (once over) outcome;
        returns once durable. ConflictError if the step exists or the table's version moved."""
        ...

    async def load_table(self, table_id: str) -> TableRow | None: ...

    async def add_event(self, table_id: str, seq: int, event: dict[str, Any]) -> None:
        """Store event ``seq`` (from 0) of the table's prelude; ConflictError if that place is
        taken (another writer added an event first)."""

    async def load_prelude(self, table_id: str) -> list[dict[str, Any]]:
        """The table's prelude, in order (``load_table`` reads it too)."""

    async def versions(self, table_ids: Iterable[str]) -> dict[str, tuple[int, str]]:
        """The version and status of each of these tables that exists (one cheap read: how a
        process checks that the tables it holds have not moved without it hearing)."""
        ...

    async def load_actions(
        self, table_id: str, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        """The table's actions with ``after < seq <= upto``, in order. Pass the ``version`` of a
        row read just before as ``upto``: a step is stored in the same transaction that moves
        the version, so the row and the steps then describe one moment."""
        ...

    async def tables_with_status(
        self, statuses: Iterable[str], limit: int = 1000, *, sleeping: bool = True
    ) -> list[TableRow]:
        """Tables in these states, newest first (what the lobby reloads at start-up); without
        ``sleeping``, not the turn-based tables in play (they sleep in the database)."""
        ...

    async def due_tables(self, now: float, limit: int = 200) -> list[tuple[str, int, float]]:
        """The playing tables whose ``due_at`` is ``now`` or before, soonest first, as (id,
        version, due_at): what the deadlines loop fires (``docs/turn-based.md``)."""
        ...

    async def set_due(self, table_id: str, version: int, due_at: float | None) -> bool:
        """Write the table's ``due_at`` if it is still at ``version``; False if it moved on."""
        ...

    async def list_tables(
        self,
        *,
        statuses: Iterable[str] | None = None,
        game: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        offset: int = 0,
    ) -> TablePage:
        """One page of tables, newest first, optionally of some states and one game. Pass the
        page's ``next_cursor`` back for the next page (tables created meanwhile do not shift it),
        or skip ``offset`` tables. ValueError for a limit outside 1..500, a negative offset or a
        cursor this method did not give."""
        ...

    async def count_tables(
        self,
        *,
        statuses: Iterable[str] | None = None,
        game: str | None = None,
        owner: str | None = None,
    ) -> int:
        """How many tables ``list_tables`` would page through with these filters; with ``owner``,
        only the tables opened by that owner."""
        ...

    async def expire_tables(self, table_ids: Iterable[str]) -> list[str]:
        """Mark those of these tables that are still open (not started) ``expired``; return them.
        A table that starts meanwhile stays as it is."""
        ...

    async def expire_open_tables(self, older_than: float) -> list[str]:
        """Mark every table still open that was created before ``older_than`` ``expired``; return
        their ids, oldest first."""
        ...

    async def queue_analysis(self, table_id: str, at: float) -> bool:
        """Queue a finished match for analysis (``docs/analysis.md``); False (nothing changes)
        when it is queued, analysed or given up on already."""
        ...

    async def claim_analysis(
        self, at: float, stale_before: float, max_attempts: int
    ) -> AnalysisRow | None:
        """Take the oldest job waiting, or one whose worker claimed it before ``stale_before`` and
        never finished (it died): ``running`` from ``at``, one attempt more. One UPDATE re-checks
        the job's state, so of several processes claiming it exactly one gets it. A job whose
        worker died ``max_attempts`` times is ``failed`` instead. None when nothing waits."""
        ...

    async def finish_analysis(self, table_id: str, result: str, failed: bool, at: float) -> None:
        """Store a job's result: the analysis (``done``), or why there is none (``failed``)."""
        ...

    async def load_analysis(self, table_id: str) -> AnalysisRow | None: ...

    async def offer_rematch(self, row: RematchRow) -> bool:
        """Store a rematch offer at version 0; False (nothing changes) when the table has one
        already, whatever its state."""
        ...

    async def update_rematch(self, row: RematchRow, version: int) -> bool:
        """Replace the table's offer with ``row`` at ``version + 1``, only if it is still at
        ``version``; False (nothing changes) if another writer moved it first."""
        ...

    async def load_rematch(self, table_id: str) -> RematchRow | None: ...

    async def add_search(self, row: SearchRow) -> None:
        """Store a new search of the pairing pool at version 0."""
        ...

    async def load_search(self, search_id: str) -> SearchRow | None: ...

    async def waiting_searches(
        self, game: str | None = None, state: str = "waiting"
    ) -> list[SearchRow]:
        """The searches still waiting (of one game, or of every game), oldest first; with
        ``state`` "posted", the lobby's seeks instead."""
        ...

    async def table_searches(self, table_id: str) -> list[SearchRow]:
        """The searches seated at a table, by seat."""
        ...

    async def update_search(self, row: SearchRow, version: int) -> bool:
        """Replace a search with ``row`` at ``version + 1``, only if it is still at
        ``version``; False (nothing changes) if another writer moved it first."""
        ...

    async def seat_searches(
        self, table_id: str, size: int, level: str | None, members: list[Placed], at: float
    ) -> bool:
        """Seat every member at ``table_id`` (of ``size`` seats, bots of ``level`` at the
        others) in one write, only if each is still waiting at the version read; False and
        nothing changed otherwise."""
        ...

    async def forget_searches(self, ended_before: float) -> int:
        """Delete the searches that ended (seated, cancelled, expired) before a time."""
        ...

    async def ping(self) -> None:
        """Raise if the store cannot answer (the health check)."""
        ...

    async def census(self) -> Census:
        """The database's clock, and the labels of the server processes connected to this
        database and schema (PostgreSQL; none for SQLite and memory, which serve one process)."""
        ...

    async def close(self) -> None:
        """Let appends in flight finish, then release the store."""
        ...
