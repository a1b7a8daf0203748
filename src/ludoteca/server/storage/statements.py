"""The SQL of the store, built once (per-statement overhead measured at ~150 µs in SQLAlchemy),
and the conversions between rows and the database's columns."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    case,
    insert,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import Connection

from .rows import SeatRow, TableRow, status_filter, to_json
from .schema import actions, seats, tables

ADVANCE = (
    update(tables)
    .where(and_(tables.c.id == bindparam("tid"), tables.c.version == bindparam("previous")))
    .values(
        version=bindparam("v"),
        turn_started_at=bindparam("started"),
        status=bindparam("status"),
        outcome=bindparam("result"),
        due_at=bindparam("due"),
    )
)
"""A table's next step: version, turn clock, due time, and status and outcome once over."""

PACE_FIELDS = ("away", "timeouts", "reserve_used", "kind", "level", "name", "bot_from")
ACTED = (
    update(seats)
    .where(and_(seats.c.table_id == bindparam("tid"), seats.c.seat == bindparam("number")))
    .values(**{name: bindparam(f"new_{name}") for name in PACE_FIELDS})
)
"""The seat that acted, as it is after the step (its away flag, timeouts, reserve, takeover)."""
SEED_FIELDS = ("contribution", "commitment", "salt")
TURN_FIELDS = ("timeouts", "reserve_used", "bot_from")  # written only with a step (``ACTED``)
SEAT = (
    update(seats)
    .where(and_(seats.c.table_id == bindparam("tid"), seats.c.seat == bindparam("number")))
    .values(
        kind=bindparam("new_kind"),
        name=bindparam("new_name"),
        level=bindparam("new_level"),
        token_hash=bindparam("new_token_hash"),
        away=bindparam("new_away"),
        # a person's commitment, contribution and salt are written only by ``commit_seat`` and
        # ``reveal_seat``; a seat that is no one's (freed, or a bot's) has none
        **{
            name: case((bindparam("new_kind") == "human", seats.c[name]), else_=None)
            for name in SEED_FIELDS
        },
    )
)
"""One seat as it is now (several seats in one executemany when a table starts)."""

# The statements of every match's life, built once: building one (and its cache key) per call
# measured two to three times the cost of running it on SQLite.
INSERT_TABLE = insert(tables)
INSERT_SEATS = insert(seats)
INSERT_ACTIONS = insert(actions)
START = (
    update(tables)
    .where(and_(tables.c.id == bindparam("tid"), tables.c.status == "open"))
    .values(
        status=bindparam("new_status"),
        started_at=bindparam("started"),
        turn_started_at=bindparam("turn_started"),
        due_at=case((tables.c.pace == "turn-based", bindparam("turn_started")), else_=None),
    )
)
DEAL = (
    update(tables)
    .where(and_(tables.c.id == bindparam("tid"), tables.c.status == "starting"))
    .values(
        status="playing",
        turn_started_at=bindparam("dealt"),
        # a turn-based table is due at once until it stores its first deadline (``set_due``)
        due_at=case((tables.c.pace == "turn-based", bindparam("dealt")), else_=None),
    )
)
SET_DUE = (
    update(tables)
    .where(and_(tables.c.id == bindparam("tid"), tables.c.version == bindparam("at_version")))
    .values(due_at=bindparam("due"))
)
OPEN_REVEALS = (
    update(tables)
    .where(
        and_(
            tables.c.id == bindparam("tid"),
            tables.c.status == "starting",
            tables.c.revealing_at.is_(None),
        )
    )
    .values(revealing_at=bindparam("at"))
)


LABEL = "'ludoteca ' || left(md5(current_database() || '/' || current_schema()), 8) || ' ' || "
CENSUS = text(
    "SELECT extract(epoch FROM clock_timestamp()) AS now, array("
    "SELECT DISTINCT application_name FROM pg_stat_activity WHERE application_name LIKE "
    + LABEL
    + "'%') AS labels"
)


def filters(statuses: Iterable[str] | None, game: str | None) -> ColumnElement[bool]:
    conditions: list[ColumnElement[bool]] = []
    wanted = status_filter(statuses)
    if wanted is not None:
        conditions.append(tables.c.status.in_(wanted))
    if game is not None:
        conditions.append(tables.c.game == game)
    return and_(true(), *conditions)


def acted_params(table_id: str, seat: SeatRow) -> dict[str, Any]:
    """The bind parameters of ``ACTED``."""
    values = seat_values(table_id, seat)
    return {"tid": table_id, "number": seat.seat} | {
        f"new_{name}": values[name] for name in PACE_FIELDS
    }


def table_values(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "params": to_json(row.params),
        "seed": row.seed,
        "commitment": row.commitment,
        "status": row.status,
        "turn_seconds": row.turn_seconds,
        "created_at": row.created_at,
        "started_at": row.started_at,
        "turn_started_at": row.turn_started_at,
        "version": row.version,
        "outcome": to_json(row.outcome) if row.outcome is not None else None,
        "format": row.format,
        "owner": row.owner,
        "revealing_at": row.revealing_at,
        "pace": row.pace,
        "reserve_seconds": row.reserve_seconds,
        "due_at": row.due_at,
    }


def seat_values(table_id: str, seat: SeatRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seat": seat.seat,
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "away": seat.away,
        "contribution": seat.contribution,
        "commitment": seat.commitment,
        "salt": seat.salt,
        "timeouts": seat.timeouts,
        "reserve_used": seat.reserve_used,
        "bot_from": seat.bot_from,
    }


def seat_params(table_id: str, seat: SeatRow) -> dict[str, Any]:
    """The bind parameters of ``SEAT`` (named apart from the columns they set)."""
    values = seat_values(table_id, seat)
    for name in SEED_FIELDS + TURN_FIELDS:
        del values[name]
    found = {"tid": values.pop("table_id"), "number": values.pop("seat")}
    return found | {f"new_{name}": value for name, value in values.items()}


def table_row(r: Any) -> TableRow:
    return TableRow(
        id=r["id"],
        game=r["game"],
        params=json.loads(r["params"]),
        seed=r["seed"],
        commitment=r["commitment"],
        status=r["status"],
        turn_seconds=r["turn_seconds"],
        created_at=r["created_at"],
        started_at=r["started_at"],
        turn_started_at=r["turn_started_at"],
        version=r["version"],
        outcome=json.loads(r["outcome"]) if r["outcome"] else None,
        format=r["format"],
        owner=r["owner"],
        revealing_at=r["revealing_at"],
        pace=r["pace"],
        reserve_seconds=r["reserve_seconds"],
        due_at=r["due_at"],
    )


def seats_of(conn: Connection, table_ids: list[str]) -> dict[str, list[SeatRow]]:
    """The seats of these tables, by table, in seat order."""
    found: dict[str, list[SeatRow]] = {t: [] for t in table_ids}
    if not table_ids:
        return found
    rows = conn.execute(select(seats).where(seats.c.table_id.in_(table_ids)).order_by(seats.c.seat))
    for r in rows:
        found[r.table_id].append(
            SeatRow(
                r.seat,
                r.kind,
                r.name,
                r.level,
                r.token_hash,
                bool(r.away),
                r.contribution,
                r.commitment,
                r.salt,
                r.timeouts,
                r.reserve_used,
                r.bot_from,
            )
        )
    return found


def awake() -> ColumnElement[bool]:
    """Not a turn-based table in play: those sleep in the database until they are due or opened
    (``docs/turn-based.md``)."""
    return ~and_(tables.c.pace == "turn-based", tables.c.status == "playing")
