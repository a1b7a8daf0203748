"""An operator ends a table. A table nobody has started yet (open) ends as an expired one does:
it leaves the lobby, its seats are nobody's, and no match record exists. A table already dealt is
not ended from the desk: its signed record may only hold a match the rules played, so the
operator suspends the person and the table plays on (their seat's clock runs out and the
table plays for them, docs/turn-based.md)."""

from __future__ import annotations

from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, Status

from .desk import TableEnder


def table_ender(lobby: Lobby) -> TableEnder:
    async def end(table_id: str) -> str:
        residency = lobby.residency
        table = await residency.peek(table_id)
        if table.row.status != Status.OPEN:
            raise Rejected(
                ErrorCode.NOT_OPEN,
                "only a table that has not started can be ended: suspend the person instead",
            )
        ended = await residency.storage.expire_tables([table.id])
        if not ended:
            raise Rejected(ErrorCode.NOT_OPEN, "the table started meanwhile")
        held = residency.held.pop(table.id, None)
        table = held.table if held is not None else table
        table.stop()
        table.row.status = Status.EXPIRED
        await table.after_change()
        log("table_ended_by_operator", table=table.id)
        return str(Status.EXPIRED)

    return end
