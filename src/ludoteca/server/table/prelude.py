"""Format 5: the table's side of the chain from its creation (``core.prelude``,
``docs/fairness.md#the-prelude``). Each change before the deal is stored first (a seat taken, a
commitment, the close, a reveal, the deal), then its event is added to the stored prelude and to
the row, so that the next message carries the head that binds it. An event is stored at its place:
another process that added one first makes this one read the prelude again and add it after."""

from __future__ import annotations

from typing import Any

from ludoteca.core.prelude import (
    close_event,
    create_event,
    prelude_heads,
    replay_prelude,
    sit_event,
    withheld_event,
)
from ludoteca.server.messages import ErrorCode, Rejected, SeatKind, Status
from ludoteca.server.storage import ConflictError, Storage, TableRow

PRELUDE_FORMAT = 5


def refuse_once_dealt(row: TableRow) -> None:
    """A commitment or a reveal is refused once the table dealt (or was never going to wait)."""
    if row.status not in (Status.OPEN, Status.STARTING):
        raise Rejected(ErrorCode.ALREADY_DEALT, "the match is already dealt")
    if row.format < 2:
        raise Rejected(
            ErrorCode.ALREADY_DEALT,
            "this table was made before players' seeds: its deal is fixed",
        )


def chained(row: TableRow) -> bool:
    return row.format >= PRELUDE_FORMAT


async def extend(storage: Storage, row: TableRow, *events: dict[str, Any]) -> None:
    """Add events to the table's prelude (stored, then kept on the row); nothing for a table of
    an older format."""
    if not chained(row):
        return
    for event in events:
        for _ in range(8):
            try:
                await storage.add_event(row.id, len(row.prelude), event)
                break
            except ConflictError:
                row.prelude = await storage.load_prelude(row.id)
        else:
            raise ConflictError(f"table {row.id}: the prelude kept moving")
        row.prelude.append(event)


def created(row: TableRow, params: dict[str, Any]) -> list[dict[str, Any]]:
    """The creation and every seat already held (bots asked for, the person who opened it)."""
    events = [create_event(row.game, params, row.id, row.commitment)]
    return events + [sit_of(row, seat) for seat in range(len(row.seats)) if held(row, seat)]


def held(row: TableRow, seat: int) -> bool:
    return row.seats[seat].kind in (SeatKind.HUMAN, SeatKind.BOT)


def sit_of(row: TableRow, seat: int) -> dict[str, Any]:
    s = row.seats[seat]
    bot = s.kind == SeatKind.BOT
    return sit_event(seat, s.name, bot, s.level if bot else None)


def seated_at_start(row: TableRow) -> list[dict[str, Any]]:
    """The bots the start seated in the empty seats: the seats the prelude still has empty."""
    if not chained(row):
        return []
    seats = _seats(row)
    return [sit_of(row, n) for n, s in enumerate(seats) if s is None and held(row, n)]


def _seats(row: TableRow) -> list[str | None]:
    """Who the prelude seats at each seat so far (None: nobody)."""
    names: list[str | None] = [None] * len(row.seats)
    for event in row.prelude:
        if event["event"] == "sit":
            names[event["seat"]] = event["name"]
        elif event["event"] == "leave":
            names[event["seat"]] = None
    return names


def closing(row: TableRow) -> list[dict[str, Any]]:
    return [close_event()] if chained(row) else []


def at_deal(row: TableRow) -> list[dict[str, Any]]:
    """At the deal: the close if the table dealt without waiting (nobody to wait for), and each
    seat that committed and did not reveal in time."""
    if not chained(row):
        return []
    events = [] if any(e["event"] == "close" for e in row.prelude) else [close_event()]
    return events + [
        withheld_event(s.seat)
        for s in row.seats
        if s.commitment is not None
        and s.contribution is None
        and s.bot_from is None
        and s.kind == SeatKind.HUMAN
    ]


def head(row: TableRow) -> str | None:
    """The head after the prelude so far (None before the first event or for an older format)."""
    heads = prelude_heads(row.prelude) if chained(row) else []
    return heads[-1] if heads else None


__all__ = [
    "PRELUDE_FORMAT",
    "at_deal",
    "chained",
    "closing",
    "created",
    "extend",
    "head",
    "replay_prelude",
    "seated_at_start",
    "sit_of",
]
