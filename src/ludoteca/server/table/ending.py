"""A match ends other than by the rules: a person aborts it before their first move
(``docs/protocol.md#aborting``), the operator ends it from the desk, or a person resigns a
2-player match (``docs/protocol.md#resigning``, from ``table.resign``). Each way the table ends at
once for everyone and the record states it (``ended``, bound by the chain and the signature,
``docs/records.md#an-ended-match``); an abort or the operator's end has no winner and moves no
rating, a resign is won by the other seat, rated as any finished match and analysed.

An abort is allowed only to a person (not a bot, nor a seat a bot took over) who has not moved
yet (``core.ending``: the same rule the verifiers check), and only ``aborts_per_day`` times in 24
hours per account, or per address for a guest, counted from the stored aborts, so that the limit
holds across processes and restarts."""

from __future__ import annotations

import hashlib

from ludoteca.core.ending import RESIGN, aborted, by_operator, ended_outcome, log_status
from ludoteca.core.spec import JSON
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, Status
from ludoteca.server.storage import ConflictError, Storage

from .table import Table

DAY = 24 * 3600.0


def abort_key(account: str | None, address: str) -> str:
    """Whom an abort counts against: the account, or for a guest the address they play from
    (a digest: the store keeps no address)."""
    who = f"account:{account}" if account is not None else f"address:{address}"
    return hashlib.sha256(f"ludoteca/abort\n{who}".encode()).hexdigest()


async def abort(table: Table, seat: int, who: str) -> None:
    """The person at ``seat`` aborts the match (``who``: ``abort_key``); Rejected, nothing
    changed: before the deal, after the end, for a bot's seat or once the person has moved
    (``not_abortable``), and past the daily limit (``abort_limit``)."""
    await _end(table, aborted(seat), who)


async def end_by_operator(table: Table) -> None:
    """The operator ends a dealt table (the desk keeps who and why; the record says only
    that the operator ended it)."""
    await _end(table, by_operator(), None)


async def end_by_resign(table: Table, ended: JSON) -> None:
    """The person at ``ended["seat"]`` resigns a 2-player match (``core.ending.resigned``): it
    ends at once, the other seat the winner (``table.resign`` checks the seat and the table)."""
    await _end(table, ended, None)


async def _end(table: Table, ended: JSON, who: str | None) -> None:
    services = table.services
    async with table.lock:
        await table.current()  # clustered: the row as stored, not a copy behind it
        match = table.match
        if match is None or table.status in (Status.OPEN, Status.STARTING):
            raise Rejected(ErrorCode.NOT_STARTED, "the match has not been dealt yet")
        if table.status != Status.PLAYING:
            raise Rejected(ErrorCode.MATCH_OVER, "the match is over")
        problem = match.ending_problem(ended)  # a bot's seat, a move made, an older format
        if problem:
            code = ErrorCode.NOT_YOUR_TURN if ended["by"] == RESIGN else ErrorCode.NOT_ABORTABLE
            raise Rejected(code, problem)
        now = services.now()
        if who is not None:
            limit = services.settings.aborts_per_day
            if await services.storage.count_aborts(who, now - DAY) >= limit:
                raise Rejected(
                    ErrorCode.ABORT_LIMIT,
                    f"you have aborted {limit} matches in the last 24 hours: play this one",
                )
        outcome = ended_outcome(ended).to_json() | {"ended": ended}
        try:
            await services.storage.end_table(
                table.id, table.version, outcome, None if who is None else (who, now)
            )
        except ConflictError:
            await table.catch_up()
            raise Rejected(
                ErrorCode.STALE_VERSION, "the table moved on meanwhile; here is the current state"
            ) from None
        table.row.status, table.row.outcome, table.row.due_at = Status.OVER, outcome, None
        table.ledger.apply_ending()
    log("match_ended", table=table.id, ended=ended, version=table.version)
    if ended["by"] == RESIGN:  # a result: analysed as a match the rules ended
        services.analyses.match_over(table.id)
    services.publog.ended(table.id, log_status(outcome), table.version)
    await table.after_change()


async def end_stored(storage: Storage, table_id: str) -> str:
    """The operator's end where no table is held (``ludoteca admin end``, beside the server):
    an open table expires, a dealt one ends in the database as ``end_by_operator`` ends it (the
    server holding it reads it again when it next polls its tables' versions, and the public
    log's sweep appends its end). Returns ``expired`` or ``ended``."""
    row = await storage.load_table(table_id[:64])
    if row is None:
        raise Rejected(ErrorCode.NO_TABLE, f"there is no table '{table_id[:32]}'")
    if row.status == Status.OPEN and await storage.expire_tables([row.id]):
        return str(Status.EXPIRED)
    if row.status != Status.PLAYING:
        raise Rejected(
            ErrorCode.NOT_OPEN,
            "this table's deal is under way or it has ended: end it once it is dealt",
        )
    if row.format < 5:
        raise Rejected(
            ErrorCode.NOT_ABORTABLE, "this table's record cannot state an ending: play it out"
        )
    ended = by_operator()
    outcome = ended_outcome(ended).to_json() | {"ended": ended}
    try:
        await storage.end_table(row.id, row.version, outcome)
    except ConflictError:
        raise Rejected(
            ErrorCode.STALE_VERSION, "the table moved on meanwhile: end it again"
        ) from None
    log("match_ended", table=row.id, ended=ended, version=row.version)
    return "ended"
