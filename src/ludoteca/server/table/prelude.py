"""Format 5: the table's side of the chain from its creation (``core.prelude``,
``docs/fairness.md#the-prelude``). Each change before the deal is stored first (a seat taken, a
commitment, the close, a reveal, the deal), then its event is added to the stored prelude and to
the row, so that the next message carries the head that binds it. An event is stored at its place:
another process that added one first makes this one read the prelude again and add it after.

A process stopped between a change and its event leaves a stored row the prelude does not yet
bind: ``missing`` gives what the row shows and the prelude lacks (the creation, a seat taken or
freed, a commitment while they are open, a reveal), added before the next event, the close or the
deal, so the record a later process signs still follows the rules. An event the prelude already
holds is not added twice (a retry, or another process that added it first)."""

from __future__ import annotations

from typing import Any

from ludoteca.core.prelude import (
    close_event,
    commit_event,
    create_event,
    leave_event,
    prelude_heads,
    replay_prelude,
    reveal_event,
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
    for event in [*missing(row, events), *events]:
        if bound(row.prelude, event):
            continue
        for _ in range(8):
            try:
                await storage.add_event(row.id, len(row.prelude), event)
                break
            except ConflictError:
                row.prelude = await storage.load_prelude(row.id)
        else:
            raise ConflictError(f"table {row.id}: the prelude kept moving")
        row.prelude.append(event)


def bound(events: list[dict[str, Any]], event: dict[str, Any]) -> bool:
    """Whether the prelude already holds ``event`` (so adding it again would repeat it)."""
    kind, seat = event["event"], event.get("seat")
    if kind == "create":
        return bool(events)
    if kind in ("sit", "leave"):
        taken = isinstance(seat, int) and _occupants(events).get(seat) is not None
        return taken if kind == "sit" else not taken
    since = _since_sit(events, seat) if seat is not None else events
    if kind == "commit":
        commits = [e for e in since if e["event"] == "commit"]
        return bool(commits) and commits[-1]["commitment"] == event["commitment"]
    return any(e["event"] == kind and e.get("seat") == seat for e in since)


def _occupants(events: list[dict[str, Any]]) -> dict[int, str | None]:
    """Who holds each seat after ``events`` (a seat never taken is absent)."""
    names: dict[int, str | None] = {}
    for e in events:
        if e["event"] == "sit":
            names[e["seat"]] = e["name"]
        elif e["event"] == "leave":
            names[e["seat"]] = None
    return names


def _since_sit(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The events about ``seat`` since it was last taken."""
    sat = [i for i, e in enumerate(events) if e["event"] == "sit" and e["seat"] == seat]
    return [e for e in events[sat[-1] + 1 if sat else 0 :] if e.get("seat") == seat]


def missing(row: TableRow, coming: tuple[dict[str, Any], ...] = ()) -> list[dict[str, Any]]:
    """What the stored row shows and the prelude lacks, in the prelude's order (the creation,
    seats taken or freed, commitments while open, reveals once closed); what ``coming`` adds
    anyway is left to it."""
    found: list[dict[str, Any]] = []
    if not row.prelude and not any(e["event"] == "create" for e in coming):
        found += created(row, row.params)
    events = [*row.prelude, *found]
    seats = _occupants(events)
    for n in range(len(row.seats)):
        if held(row, n) and seats.get(n) is None:
            found.append(sit_of(row, n))
        elif not held(row, n) and seats.get(n) is not None and row.status == Status.OPEN:
            found.append(leave_event(n))
    closed = any(e["event"] == "close" for e in events)
    for n, seat in enumerate(row.seats):
        if seat.commitment is not None and seat.kind == SeatKind.HUMAN and not closed:
            found.append(commit_event(n, seat.commitment))
        elif seat.contribution is not None and seat.salt is not None and closed:
            found.append(reveal_event(n, seat.contribution, seat.salt))
    later = [*row.prelude]
    kept = []
    for event in found:
        if not bound(later, event) and not any(_same(event, c) for c in coming):
            kept.append(event)
            later.append(event)
    return kept


def _same(one: dict[str, Any], other: dict[str, Any]) -> bool:
    return one["event"] == other["event"] and one.get("seat") == other.get("seat")


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
