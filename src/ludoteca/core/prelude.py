"""Format 5: the chain from the table's creation to the deal (``docs/fairness.md#the-prelude``).

Every event before the deal is a link of the chain: the table's creation (the server's
commitment), each seat taken or freed, each seat commitment, the closing of the commitments, each
reveal or its absence at the deadline. The deal (the format-4 header) is the next link, and the
steps follow as in format 4. So a head a person was shown before the deal binds the server's
commitment and every commitment made so far, and every head after it binds them all: a record
that changes any of them fails against a receipt taken at or after them.

``prelude_problem`` replays the events as the table lived them and says why a record's prelude
does not fit the rules or the record's own seats, or None.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .fairness import canonical_json, chain_next, is_hex64, salt_problem, seat_commitment

CHAIN_DOMAIN_5 = "ludoteca/5 chain"
EVENT_FIELDS: dict[str, frozenset[str]] = {
    "create": frozenset({"event", "game", "params", "table", "commitment"}),
    "sit": frozenset({"event", "seat", "name", "bot", "level"}),
    "leave": frozenset({"event", "seat"}),
    "commit": frozenset({"event", "seat", "commitment"}),
    "close": frozenset({"event"}),
    "reveal": frozenset({"event", "seat", "contribution", "salt"}),
    "withheld": frozenset({"event", "seat"}),
}
Event = dict[str, Any]


def create_event(game: str, params: dict[str, Any], table: str, commitment: str) -> Event:
    """The first link: the table as created, with the server's commitment."""
    return {
        "event": "create",
        "game": game,
        "params": params,
        "table": table,
        "commitment": commitment,
    }


def sit_event(seat: int, name: str, bot: bool = False, level: str | None = None) -> Event:
    """A person (or a bot, ``bot`` true with its level) takes a free seat."""
    event: Event = {"event": "sit", "seat": seat, "name": name, "bot": bot}
    if level is not None:
        event["level"] = level
    return event


def leave_event(seat: int) -> Event:
    """The seat is freed: its commitment goes with the person who leaves."""
    return {"event": "leave", "seat": seat}


def commit_event(seat: int, commitment: str) -> Event:
    """The person at ``seat`` commits (or replaces their commitment)."""
    return {"event": "commit", "seat": seat, "commitment": commitment}


def close_event() -> Event:
    return {"event": "close"}


def reveal_event(seat: int, contribution: str, salt: str) -> Event:
    return {"event": "reveal", "seat": seat, "contribution": contribution, "salt": salt}


def withheld_event(seat: int) -> Event:
    """At the deal: the seat committed and did not reveal in time."""
    return {"event": "withheld", "seat": seat}


def prelude_heads(events: Sequence[Event]) -> list[str]:
    """The head after each event: the first is SHA-256 of ``ludoteca/5 chain`` + newline + the
    creation's canonical JSON, each later one ``chain_next`` of the one before."""
    heads: list[str] = []
    for event in events:
        if not heads:
            heads.append(
                hashlib.sha256(CHAIN_DOMAIN_5.encode() + b"\n" + canonical_json(event)).hexdigest()
            )
        else:
            heads.append(chain_next(heads[-1], event))
    return heads


def closed_head(events: Sequence[Event]) -> str | None:
    """The head right after the ``close`` event (what the public log pins), or None."""
    heads = prelude_heads(events)
    for n, event in enumerate(events):
        if event.get("event") == "close":
            return heads[n]
    return None


@dataclass(slots=True)
class SeatState:
    """One seat as the prelude leaves it."""

    name: str | None = None
    bot: bool = False
    level: str | None = None
    commitment: str | None = None
    contribution: str | None = None
    salt: str | None = None
    withheld: bool = False


@dataclass(slots=True)
class Prelude:
    """The seats, and where the table stands, after the events replayed so far."""

    seats: list[SeatState]
    closed: bool = False


def replay_prelude(events: Sequence[Any], seats: int) -> Prelude | str:
    """The seats after the events, or why event ``n`` (from 1) breaks the rules: a seat is
    taken only when free and freed only when a person's; a person commits only while seated
    and before the close; the commitments close once; a reveal opens the seat's commitment;
    a seat withholds only what it committed; after the close nobody sits, leaves or commits."""
    state = Prelude([SeatState() for _ in range(seats)])
    for n, event in enumerate(events, 1):
        problem = _apply(state, event, n)
        if problem:
            return f"event {n}: {problem}"
    if not state.closed:
        return "the commitments never closed before the deal"
    for seat, s in enumerate(state.seats):
        if s.name is None:
            return f"seat {seat} is empty at the deal"
        if s.commitment is not None and s.contribution is None and not s.withheld:
            return f"seat {seat} committed and neither revealed nor was marked withheld"
    return state


def _apply(state: Prelude, event: Any, n: int) -> str | None:
    kind = event.get("event") if isinstance(event, dict) else None
    if kind not in EVENT_FIELDS:
        return "an event is an object whose 'event' is one of " + ", ".join(EVENT_FIELDS)
    assert isinstance(event, dict)
    unknown = sorted(set(event) - EVENT_FIELDS[kind])
    if unknown:
        return f"unknown field(s) {', '.join(unknown)}"
    if (kind == "create") != (n == 1):
        return "the first event, and only it, is the table's creation"
    if kind == "create":
        return None
    if kind == "close":
        if state.closed:
            return "the commitments close once"
        state.closed = True
        return None
    seat = event.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state.seats):
        return f"'seat' must be a seat number from 0 to {len(state.seats) - 1}"
    s = state.seats[seat]
    if kind in ("sit", "leave", "commit") and state.closed:
        return f"seat {seat}: a {kind} after the commitments closed"
    if kind == "sit":
        name, bot, level = event.get("name"), event.get("bot"), event.get("level")
        if not isinstance(name, str) or not isinstance(bot, bool):
            return "a sit needs a text 'name' and a true/false 'bot'"
        if level is not None and not isinstance(level, str):
            return "'level' must be a text"
        if s.name is not None:
            return f"seat {seat} is taken"
        state.seats[seat] = SeatState(name, bot, level)
    elif kind == "leave":
        if s.name is None or s.bot:
            return f"seat {seat} holds no person to leave"
        state.seats[seat] = SeatState()
    elif kind == "commit":
        if s.name is None or s.bot:
            return f"seat {seat}: only a seated person commits"
        if not is_hex64(event.get("commitment")):
            return "a commitment is 64 lowercase hex digits"
        s.commitment = event["commitment"]
    elif kind == "reveal":
        return _reveal(state, s, seat, event)
    elif s.commitment is None or s.contribution is not None or s.withheld or not state.closed:
        return f"seat {seat}: only a seat that committed and did not reveal withholds"
    else:
        s.withheld = True
    return None


def _reveal(state: Prelude, s: SeatState, seat: int, event: Event) -> str | None:
    if not state.closed:
        return f"seat {seat}: a reveal before the commitments closed"
    if s.commitment is None or s.contribution is not None or s.withheld:
        return f"seat {seat}: a reveal of no open commitment"
    given, salt = event.get("contribution"), event.get("salt")
    if not isinstance(given, str) or salt_problem(salt) is not None:
        return f"seat {seat}: a reveal needs a text 'contribution' and a 32-hex 'salt'"
    assert isinstance(salt, str)
    if seat_commitment(given, salt) != s.commitment:
        return f"seat {seat}: the reveal does not open its commitment"
    s.contribution, s.salt = given, salt
    return None


def prelude_problem(
    events: Sequence[Any],
    *,
    game: str,
    params: dict[str, Any],
    table: str | None,
    commitment: str,
    players: Sequence[tuple[str, bool, str | None]],
    commitments: Sequence[str | None],
    contributions: Sequence[str | None],
    salts: Sequence[str | None],
) -> str | None:
    """Why a format-5 record's ``prelude`` does not fit the rules or the record, or None:
    the creation names the record's game, parameters, table and commitment, and the seats it
    leaves at the deal are the record's seats as dealt (``players``: name, bot, level), with
    its commitments, contributions and salts."""
    if not events:
        return "the prelude is empty"
    first = events[0]
    want = create_event(game, params, table or "", commitment)
    if isinstance(first, dict) and first.get("event") == "create" and first != want:
        for key in ("game", "params", "table", "commitment"):
            if first.get(key) != want[key]:
                return f"event 1: the creation's {key} is not the record's"
    state = replay_prelude(events, len(players))
    if isinstance(state, str):
        return state
    for seat, (s, player) in enumerate(zip(state.seats, players, strict=True)):
        if (s.name, s.bot, s.level) != player:
            return f"seat {seat}: the prelude seats {s.name!r}, the record {player[0]!r}"
        if s.commitment != commitments[seat]:
            return f"seat {seat}: the prelude's commitment is not the record's"
        if (s.contribution, s.salt) != (contributions[seat], salts[seat]):
            return f"seat {seat}: the prelude's reveal is not the record's"
    return None


__all__ = [
    "CHAIN_DOMAIN_5",
    "EVENT_FIELDS",
    "Event",
    "close_event",
    "closed_head",
    "commit_event",
    "create_event",
    "leave_event",
    "prelude_heads",
    "prelude_problem",
    "replay_prelude",
    "reveal_event",
    "sit_event",
    "withheld_event",
]
