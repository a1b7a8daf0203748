"""A match that ends other than by the rules (``docs/records.md#an-ended-match``): aborted by a
person before their first move, ended by the operator, or resigned by a person in a 2-player
match. The record states it in one field, ``ended`` (``{"by": "abort", "seat": S}``,
``{"by": "operator"}`` or ``{"by": "resign", "seat": S}``); the chain binds it as one more link
after the last step. An abort or the operator's end has the one "no result" outcome: no winner,
no draw, no scores, the reason ``aborted`` or ``operator``; a resign has a result: the other seat
wins, no draw, no scores, the reason ``resigned``.

The rules of who may end a match live here once, for the server that refuses and for the
verifier that checks a record: an abort is a person's (not a bot's, nor a seat a bot took over)
with no step of its own (``by: "player"``) yet; a resign is a person's in a match of exactly 2
seats; either only in a match the rules have not ended."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from .outcome import Outcome
from .spec import JSON


class Player(Protocol):
    """A record's seat, as far as the rules of ending read it (``record.Player``)."""

    @property
    def bot(self) -> bool: ...


class Step(Protocol):
    """A record's step, as far as the rules of ending read it (``record.Step``)."""

    @property
    def seat(self) -> int: ...

    @property
    def by(self) -> str: ...


ABORT = "abort"
OPERATOR = "operator"
RESIGN = "resign"
SEATED = (ABORT, RESIGN)
"""The endings made by a person at a seat (``{"by": ..., "seat": S}``)."""
REASONS = {ABORT: "aborted", OPERATOR: "operator", RESIGN: "resigned"}
"""The outcome's ``reason`` for each way of ending."""


def aborted(seat: int) -> JSON:
    return {"by": ABORT, "seat": seat}


def by_operator() -> JSON:
    return {"by": OPERATOR}


def resigned(seat: int) -> JSON:
    return {"by": RESIGN, "seat": seat}


def ended_problem(ended: Any, players: int) -> str | None:
    """Why ``ended`` is not a well-formed ending, or None: exactly ``{"by": "abort", "seat": S}``
    or ``{"by": "resign", "seat": S}`` with ``S`` a seat number (a JSON integer from 0 to
    players-1), or ``{"by": "operator"}``."""
    if isinstance(ended, dict):
        by, seat = ended.get("by"), ended.get("seat")
        if by == OPERATOR and set(ended) == {"by"}:
            return None
        if (
            by in SEATED
            and set(ended) == {"by", "seat"}
            and isinstance(seat, int)
            and not isinstance(seat, bool)
            and 0 <= seat < players
        ):
            return None
    return (
        f'field \'ended\' must be {{"by": "abort", "seat": S}} or {{"by": "resign", "seat": S}} '
        f'(S from 0 to {players - 1}) or {{"by": "operator"}}'
    )


def end_event(ended: JSON) -> JSON:
    """The chain link of an ending, after the last step and its takeovers: ``{"event": "end",
    "by": "abort", "seat": S}``, ``{"event": "end", "by": "operator"}`` or ``{"event": "end",
    "by": "resign", "seat": S}``."""
    return {"event": "end", **ended}


def log_status(outcome: dict[str, Any] | None) -> str:
    """The public log's word for a finished table with this stored outcome: ``over`` (a resigned
    match too: it has a result, like a match the rules ended), or ``aborted`` / ``ended`` (by the
    operator) for a match that ended with no result."""
    ended = (outcome or {}).get("ended")
    if not isinstance(ended, dict) or ended.get("by") == RESIGN:
        return "over"
    return "aborted" if ended.get("by") == ABORT else "ended"


def ended_outcome(ended: JSON) -> Outcome:
    """The outcome of an ended match: nobody wins, no draw, no scores; a resign (2 seats: the
    rules of ending allow no other) is won by the other seat."""
    if ended["by"] == RESIGN:
        return Outcome((1 - int(ended["seat"]),), REASONS[RESIGN], False, ())
    return Outcome((), REASONS[str(ended["by"])], False, ())


def abort_problem(players: Sequence[Player], steps: Sequence[Step], seat: int) -> str | None:
    """Why the person at ``seat`` may not abort after ``steps``, or None (the match must also be
    live: the caller checks that)."""
    if players[seat].bot:
        return f"seat {seat} is a bot's: only a person may abort"
    for n, step in enumerate(steps, 1):
        if step.seat == seat and step.by == "player":
            return (
                f"seat {seat} made a move of its own (step {n}): "
                "only a person who has not moved yet may abort"
            )
    return None


def ending_problem(
    players: Sequence[Player], steps: Sequence[Step], over: bool, ended: JSON
) -> str | None:
    """Why a match after ``steps`` (``over``: ended by the rules) cannot end as ``ended``."""
    if over:
        return f"the match is over by the rules after {len(steps)} actions: it was not ended"
    if ended["by"] == ABORT:
        return abort_problem(players, steps, int(ended["seat"]))
    if ended["by"] == RESIGN:
        return resign_problem(players, int(ended["seat"]))
    return None


def resign_problem(players: Sequence[Player], seat: int) -> str | None:
    """Why the person at ``seat`` may not end the match by resigning, or None (the match must
    also be live: the caller checks that). With more than 2 seats a resign is not an ending: a
    bot takes the seat over and the match plays on."""
    if len(players) != 2:
        return f"a match of {len(players)} players is not ended by a resign: a bot takes the seat"
    if players[seat].bot:
        return f"seat {seat} is a bot's: only a person may resign"
    return None
