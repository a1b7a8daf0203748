"""Tables that sleep: a turn-based table whose turn is a person's, with nobody at it, leaves
memory and lets its lease go; it lives in the database until it is opened or its ``due_at`` comes
(``deadlines``; ``docs/turn-based.md``). This module decides whether a table may sleep;
``Residency.doze`` lets it."""

from __future__ import annotations

from ludoteca.server.messages import SeatKind, Status
from ludoteca.server.table import pacing
from ludoteca.server.table.table import Table


def sleeps_until(table: Table, now: float, margin: float = 1.0) -> float | None:
    """When the table must next act, if it may sleep until then: a turn-based table whose turn
    is a person's, with nobody connected here or elsewhere, no change under way, and its deadline
    more than ``margin`` seconds away (its timer is not about to fire). None if it may not."""
    seat = table.to_move()
    if (
        not pacing.turn_based(table.row)
        or table.row.status != Status.PLAYING
        or seat is None
        or table.seats[seat].kind != SeatKind.HUMAN
        or table.listeners
        or table.audience.elsewhere
        or table.lock.locked()
    ):
        return None
    due_at = table.due()
    if due_at is None or due_at <= now + margin:
        return None
    return due_at
