"""A person resigns. In a 2-player match (record format 5) that ends the match at once, the
other seat the winner: the record states it (``ended``: ``{"by": "resign", "seat": S}``), through
the path every ending takes (``table.ending``), and rated, it is a loss for the resigner and a
win for the other. With more players a bot of the table's level plays their seat from the next
step on, marked as the record marks any takeover (``bot_from``), and the match goes on under the
game's rules; rated, a seat a bot took over is placed last whatever the bot then does
(``docs/accounts.md``). A 2-player table of an older format (dealt before format 5) is taken
over the same way: its record cannot state an ending.

The chain binds each takeover at the version it was made (format 4), every takeover of one
version in the order of the seats, as the verifiers link them; so a second seat cannot be handed
over at a version where another already was (a receipt taken between the two would no longer
match the record): that resign is ``resign_later``, to be sent again after the next step."""

from __future__ import annotations

from ludoteca.core.ending import resigned
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ConflictError

from .ending import end_by_resign
from .table import Table

ATTEMPTS = 3
"""How often a resign is tried again when another process stored a step meanwhile."""


async def resign(table: Table, seat: int) -> None:
    """The person at ``seat`` resigns; Rejected (nothing changed) before the deal, after the
    end, for a seat a bot already plays, or at a version where another seat was just handed to
    a bot. A step stored meanwhile by another process is read and the resign tried again. In a
    2-player match of format 5 the resign ends the match, the other seat the winner."""
    if len(table.seats) == 2 and table.row.format >= 5:
        for attempt in range(ATTEMPTS):
            try:  # the same refusals as an abort's, under the table's lock
                await end_by_resign(table, resigned(seat))
            except Rejected as exc:  # a step stored meanwhile: read (the ending did) and again
                if exc.code != ErrorCode.STALE_VERSION or attempt + 1 == ATTEMPTS:
                    raise
                continue
            log("resigned", table=table.id, seat=seat, ended=True)
            return
    await hand_over(table, seat)


async def hand_over(table: Table, seat: int) -> None:
    """A resign at a table of 3 or more (or of an older format): a bot of the table's level
    takes the person's seat over at this version, and the match plays on; Rejected as
    ``resign`` says."""
    for attempt in range(ATTEMPTS):
        async with table.lock:
            if table.match is None or table.status in (Status.OPEN, Status.STARTING):
                raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
            if table.status != Status.PLAYING:
                raise Rejected(ErrorCode.MATCH_OVER, "the match is over")
            row = table.seats[seat]
            if row.kind != SeatKind.HUMAN:
                raise Rejected(ErrorCode.NOT_YOUR_TURN, "a bot plays this seat already")
            level, version = table.services.settings.table_level, table.version
            if any(s.bot_from == version for s in table.seats):
                raise Rejected(
                    ErrorCode.RESIGN_LATER,
                    "another seat was handed to a bot at this move: resign after the next move",
                )
            try:
                await table.services.storage.take_over(table.id, seat, level, version)
            except ConflictError:
                await table.catch_up()
                if attempt + 1 == ATTEMPTS:
                    raise Rejected(
                        ErrorCode.STALE_VERSION, "the table moved on meanwhile: resign again"
                    ) from None
                continue
            row.kind, row.level, row.bot_from, row.away = SeatKind.BOT, level, version, False
            table.ledger.take_over(row)  # the match marks it and its chain binds it (format 4)
        log("resigned", table=table.id, seat=seat, after=version)
        await table.after_change()
        return
