"""A table's pace as pure arithmetic: when the seat to move must have moved, when the table must
next act by itself (``due_at``), and the acting seat after a step (its away flag, its timeouts in
a row, the reserve it drew, a bot taking it over). Nothing here reads the time or stores.

Real-time tables keep the clock of ``clock.TurnClock`` (an away seat gets a short grace). At a
turn-based table a turn lasts ``turn_seconds`` plus what is left of the seat's reserve; being
away changes nothing; a turn the table had to finish for the person is a timeout, and after
``takeover_after`` timeouts in a row a bot plays the seat for the rest of the match
(``docs/turn-based.md``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from ludoteca.core.record import Actor
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind
from ludoteca.server.storage import SeatRow, TableRow
from ludoteca.server.storage.rows import PACES, REAL_TIME, TURN_BASED

from .clock import TurnClock

if TYPE_CHECKING:
    from ludoteca.server.config import Settings

DEFAULT_TURN_BASED_SECONDS = 24 * 3600
PRESETS = (12 * 3600, 24 * 3600, 3 * 24 * 3600)  # what the lobby page offers

FIRED_TWICE: Counter[str] = Counter()
"""Deadlines this process fired that another process had fired already (it stored nothing: the
step's version fenced it), by table: logged as ``fired_twice``, shown by ``/healthz``."""


def turn_based(row: TableRow) -> bool:
    return row.pace == TURN_BASED


def reserve_left(row: TableRow, seat: SeatRow) -> float:
    return max(0.0, row.reserve_seconds - seat.reserve_used)


def deadline(row: TableRow, seat: SeatRow, turn_started_at: float, grace: float) -> float:
    """When the person at ``seat``, to move since ``turn_started_at``, must have moved."""
    if turn_based(row):
        return turn_started_at + row.turn_seconds + reserve_left(row, seat)
    away = seat.kind == SeatKind.HUMAN and seat.away
    return TurnClock(row.turn_seconds, grace).deadline(turn_started_at, away)


def due(
    row: TableRow, to_move: int | None, turn_started_at: float, now: float, bot_delay: float
) -> float | None:
    """When a turn-based table must act by itself at the latest (None for a real-time table, or
    one with nothing to do): the deadline of the person to move, or a bot's move."""
    if not turn_based(row) or to_move is None or row.status != "playing":
        return None
    seat = row.seats[to_move]
    if seat.kind == SeatKind.BOT:
        return now + bot_delay
    return deadline(row, seat, turn_started_at, 0.0)


def acted(
    row: TableRow,
    seat: SeatRow,
    by: Actor,
    *,
    turn_over: bool,
    now: float,
    seq: int,
    takeover_after: int,
    level: str,
) -> SeatRow | None:
    """The seat that took step ``seq`` as it is afterwards (None: unchanged). ``turn_over``: the
    step ended its turn (the seat to move changed)."""
    if seat.kind != SeatKind.HUMAN:
        return None
    after = replace(seat, away=by == "table")
    if turn_based(row) and turn_over:
        started = row.turn_started_at or now
        if by == "table":
            after.timeouts, after.reserve_used = seat.timeouts + 1, float(row.reserve_seconds)
        else:
            over = max(0.0, now - started - row.turn_seconds)
            after.timeouts = 0
            after.reserve_used = min(float(row.reserve_seconds), seat.reserve_used + over)
        if after.timeouts >= takeover_after:  # a bot plays the seat from the next step on
            after.kind, after.level, after.bot_from, after.away = SeatKind.BOT, level, seq, False
    return None if after == seat else after


def chosen(
    settings: Settings, pace: str, turn_seconds: int | None, reserve_seconds: int | None
) -> tuple[int, int]:
    """The time per move and the reserve of a new table at ``pace``, checked against the
    settings (Rejected, saying what is allowed, if they are out of range)."""
    if pace not in PACES:
        raise Rejected(ErrorCode.BAD_REQUEST, f"pace is one of {', '.join(PACES)}, not {pace!r}")
    if pace == REAL_TIME:
        if reserve_seconds:
            raise Rejected(ErrorCode.BAD_REQUEST, "only a turn-based table has a reserve")
        low, high = settings.min_turn_seconds, settings.max_turn_seconds
        turn = settings.default_turn_seconds if turn_seconds is None else turn_seconds
    else:
        low, high = settings.min_turn_based_seconds, settings.max_turn_based_seconds
        turn = DEFAULT_TURN_BASED_SECONDS if turn_seconds is None else turn_seconds
        turn = min(max(turn, low), high) if turn_seconds is None else turn
    if not low <= turn <= high:
        raise Rejected(
            ErrorCode.BAD_REQUEST,
            f"turn_seconds must be between {low} and {high} for a {pace} table",
        )
    reserve = reserve_seconds or 0
    if not 0 <= reserve <= settings.max_reserve_seconds:
        raise Rejected(
            ErrorCode.BAD_REQUEST,
            f"reserve_seconds must be between 0 and {settings.max_reserve_seconds}",
        )
    return turn, reserve
