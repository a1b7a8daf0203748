"""What storage keeps: tables, their seats and their accepted actions, as plain rows.

Both stores (SQL and in-memory) take and give these, and check their input the same way here.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

MAX_PAGE = 500
"""The most tables one page of ``list_tables`` may hold."""
EXPIRED = "expired"
"""The status of an open table nobody started in time (``expire_tables``)."""


class ConflictError(Exception):
    """Another writer got there first (a step stored twice, a version that moved, a table no longer
    open, a seat that is gone): reload the table and try again."""


@dataclass(slots=True)
class SeatRow:
    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = field(default=None, repr=False)
    away: bool = False
    contribution: str | None = None  # revealed (format 3: only once the reveals are open)
    commitment: str | None = None  # format 3: SHA-256 of the contribution, a newline, the salt
    salt: str | None = None
    # turn-based tables (revision 0007): the person's timeouts in a row, the reserve drawn, and
    # the step after which a bot took the seat for the rest of the match (None: it did not)
    timeouts: int = 0
    reserve_used: float = 0.0
    bot_from: int | None = None


REAL_TIME = "real-time"
TURN_BASED = "turn-based"
PACES = (REAL_TIME, TURN_BASED)


@dataclass(slots=True)
class TableRow:
    id: str
    game: str
    params: dict[str, Any]
    seed: str = field(repr=False)  # format 2: the server's secret; format 1: the match seed
    commitment: str
    status: str
    turn_seconds: int
    created_at: float
    started_at: float | None = None
    turn_started_at: float | None = None
    version: int = 0
    outcome: dict[str, Any] | None = None
    seats: list[SeatRow] = field(default_factory=list)
    format: int = 5  # new tables: record format 5, the chain from creation (core.prelude)
    owner: str | None = field(default=None, repr=False)  # who opened it (a digest), if anyone
    revealing_at: float | None = None  # when a starting table closed its commitments
    pace: str = REAL_TIME  # or TURN_BASED (revision 0007)
    reserve_seconds: int = 0  # turn-based: each seat's reserve beyond its turns, for the match
    # turn-based: when the table must act by itself at the latest (a person's deadline, a bot's
    # move); a hint never later than that, read by the deadlines loop (``server/deadlines``)
    due_at: float | None = None
    # format 5 (revision 0017): every event from the table's creation to the deal, in order;
    # ``load_table`` reads it (a row from a listing has it empty)
    prelude: list[dict[str, Any]] = field(default_factory=list, repr=False)


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int
    action: str
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class Append:
    """One accepted action waiting to be stored, with the table's new clock, outcome and due
    time, and the acting seat as it is after the step (its away flag, timeouts, reserve drawn, a
    bot's takeover; None: unchanged), stored in the step's own transaction."""

    table_id: str
    step: ActionRow
    turn_started_at: float
    outcome: dict[str, Any] | None
    seat: SeatRow | None = None
    due_at: float | None = None


@dataclass(frozen=True, slots=True)
class TablePage:
    """One page of ``list_tables``; ``next_cursor`` asks for the next one (None: no more)."""

    rows: list[TableRow]
    next_cursor: str | None


def check_new_table(row: TableRow) -> None:
    """A table row fit to store: JSON params and outcome, seats numbered once each."""
    numbers = [s.seat for s in row.seats]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"table {row.id} lists a seat twice: {numbers}")
    to_json(row.params)
    if row.outcome is not None:
        to_json(row.outcome)


def to_json(value: dict[str, Any]) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"not storable as JSON: {exc}") from None


def check_page(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise ValueError(f"limit must be between 1 and {MAX_PAGE}, not {limit}")
    if offset < 0:
        raise ValueError(f"offset must be 0 or more, not {offset}")


def check_positive(limit: int) -> None:
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")


def status_filter(statuses: Iterable[str] | None) -> list[str] | None:
    if statuses is None:
        return None
    if isinstance(statuses, str):
        return [statuses]  # "open" means the one status, not the letters of it
    return list(statuses)


def encode_cursor(row: TableRow) -> str:
    """Where the next page starts: after this table, in (created_at, id) descending order."""
    raw = json.dumps([row.created_at, row.id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def page_of(rows: list[TableRow], limit: int) -> TablePage:
    """A page from up to ``limit + 1`` rows in order (an extra row means there is a next page)."""
    shown = rows[:limit]
    return TablePage(shown, encode_cursor(shown[-1]) if len(rows) > limit else None)


def decode_cursor(cursor: str) -> tuple[float, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created_at, table_id = json.loads(raw)
    except (binascii.Error, ValueError, TypeError):
        raise ValueError(f"not a cursor given by list_tables: {cursor!r}") from None
    if not isinstance(created_at, int | float) or not isinstance(table_id, str):
        raise ValueError(f"not a cursor given by list_tables: {cursor!r}")
    return float(created_at), table_id


@dataclass(frozen=True, slots=True)
class Census:
    """What the database says about the processes serving it: its clock (seconds since the
    epoch, read by the database) and the label of each server process connected to it (the same
    database and schema), e.g. ``"ludoteca 1a2b3c4d 5e6f7a8b9c0d"`` (see ``engine_for``)."""

    now: float
    labels: tuple[str, ...] = ()


QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
"""The states of a match's analysis (``Storage.queue_analysis`` and after)."""


@dataclass(slots=True)
class AnalysisRow:
    """A finished match's analysis job: its state, when it was queued, how many workers took it,
    and the result (the analysis as JSON once ``done``; why not, once ``failed``)."""

    table_id: str
    status: str
    queued_at: float
    claimed_at: float | None = None
    attempts: int = 0
    result: str | None = field(default=None, repr=False)
    done_at: float | None = None


OFFERED = "offered"
ACCEPTED = "accepted"
DECLINED = "declined"
LAPSED = "lapsed"
REMATCH_STATES = (OFFERED, ACCEPTED, DECLINED, LAPSED)


@dataclass(slots=True)
class RematchRow:
    """A rematch offered at the end of table ``table_id`` (revision 0012): the new table's id,
    fixed when the offer is made (so of two creators only one can store it), each seat's answer
    (``yes``, ``no``, ``bot`` for a seat a bot held from the start, None not yet) and the hash of
    the token each person who accepted will hold there. ``version`` counts the writes: a write
    is stored only over the version it read."""

    table_id: str
    new_table: str
    state: str
    offered_by: int
    offered_at: float
    expires_at: float
    answers: list[str | None]
    hashes: list[str | None]
    rated: bool = False
    reason: str | None = None  # why an offer was declined (who declined, or left)
    version: int = 0
