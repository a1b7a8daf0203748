"""An operator ends a table. A table nobody has started yet (open) ends as an expired one does:
it leaves the lobby, its seats are nobody's, and no match record exists. A dealt table ends at
once for everyone with no winner and no rating change (``table.ending``): its signed record
states that the operator ended it (not who, nor why: the desk's audit log keeps both). A table
whose deal is under way (its seats committing or revealing) is ended once dealt."""

from __future__ import annotations

from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, Status
from ludoteca.server.table.ending import end_by_operator

from .desk import TableEnder

ENDED = "ended"
"""What the desk answers for a dealt table it ended (an open one: ``expired``)."""


def table_ender(lobby: Lobby) -> TableEnder:
    async def end(table_id: str) -> str:
        residency = lobby.residency
        table = await residency.peek(table_id)
        if table.row.status == Status.PLAYING:
            await end_by_operator(table)
            log("table_ended_by_operator", table=table.id, dealt=True)
            return ENDED
        if table.row.status != Status.OPEN:
            raise Rejected(
                ErrorCode.NOT_OPEN,
                "this table's deal is under way or it has ended: end it once it is dealt",
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
