"""Tables that sleep: a turn-based table whose turn is a person's, with nobody at it, leaves
memory and lets its lease go; it lives in the database until it is opened or its ``due_at`` comes
(``deadlines``; ``docs/turn-based.md``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ludoteca.server.logs import log
from ludoteca.server.messages import SeatKind, Status
from ludoteca.server.table import pacing

if TYPE_CHECKING:
    from .residency import Residency


async def doze(residency: Residency, table_id: str, margin: float = 1.0) -> bool:
    """A turn-based table whose turn is a person's, with nobody connected here or elsewhere,
    leaves memory (and this process lets its lease go): it sleeps in the database until it
    is opened or due (``docs/turn-based.md``). Not while its deadline is within ``margin``
    seconds (its timer is about to fire) or a change is under way. True if it left."""
    held = residency.held.get(table_id)
    if held is None or table_id in residency.broken:
        return False
    table = held.table
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
        return False
    due_at = table.due()
    if due_at is None or due_at <= residency.services.now() + margin:
        return False
    if table.row.due_at is None or abs(table.row.due_at - due_at) > 0.001:
        # read early (a due time stored as a hint): store the deadline it is really due at
        if not await residency.storage.set_due(table_id, table.version, due_at):
            return False  # it moved meanwhile: it is read again, and tried next time
        table.row.due_at = due_at
    if table_id not in residency.held or table.listeners or table.lock.locked():
        return False  # someone came while the due time was written
    residency.drop(table_id)
    if residency.services.cluster.drives(table_id):
        await residency.services.cluster.release(table_id)
    log("table_dozed", logging.DEBUG, table=table_id, due_at=round(due_at, 3))
    return True


async def doze_all(residency: Residency) -> int:
    """Every held table that may sleep leaves memory (the sweep)."""
    dozed = 0
    for table_id in list(residency.held):
        dozed += await doze(residency, table_id)
    return dozed
