"""A person resigns: a bot of the table's level plays their seat from the next step on, marked
as the record marks any takeover (``bot_from``), and the match goes on under the game's rules.
Rated, a seat a bot took over is placed last whatever the bot then does (``docs/accounts.md``)."""

from __future__ import annotations

from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ConflictError

from .table import Table


async def resign(table: Table, seat: int) -> None:
    """The person at ``seat`` resigns; Rejected (nothing changed) before the deal, after the
    end, for a seat a bot already plays, or when a step was stored meanwhile (ask again)."""
    async with table.lock:
        if table.match is None or table.status in (Status.OPEN, Status.STARTING):
            raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
        if table.status != Status.PLAYING:
            raise Rejected(ErrorCode.MATCH_OVER, "the match is over")
        row = table.seats[seat]
        if row.kind != SeatKind.HUMAN:
            raise Rejected(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat already")
        level, version = table.services.settings.table_level, table.version
        try:
            await table.services.storage.take_over(table.id, seat, level, version)
        except ConflictError:
            await table.catch_up()
            raise Rejected(
                ErrorCode.STALE_VERSION, "the table moved on meanwhile: resign again"
            ) from None
        row.kind, row.level, row.bot_from, row.away = SeatKind.BOT, level, version, False
    log("resigned", table=table.id, seat=seat, after=version)
    await table.after_change()
