"""A match that ends other than by the rules (``docs/records.md#an-ended-match``): aborted by a
person before their first move, or ended by the operator. The record states it in one field,
``ended`` (``{"by": "abort", "seat": S}`` or ``{"by": "operator"}``); the chain binds it as one
more link after the last step, and the outcome is the one "no result" shape: no winner, no draw,
no scores, the reason ``aborted`` or ``operator``.

The rules of who may abort live here once, for the server that refuses an abort and for the
verifier that checks a record: a person's seat (not a bot's, nor one a bot took over) with no step
of its own (``by: "player"``) yet, in a match the rules have not ended."""

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
REASONS = {ABORT: "aborted", OPERATOR: "operator"}
"""The outcome's ``reason`` for each way of ending."""


def aborted(seat: int) -> JSON:
    return {"by": ABORT, "seat": seat}


def by_operator() -> JSON:
    return {"by": OPERATOR}


def ended_problem(ended: Any, players: int) -> str | None:
    """Why ``ended`` is not a well-formed ending, or None: exactly ``{"by": "abort", "seat": S}``
    with ``S`` a seat number (a JSON integer from 0 to players-1), or ``{"by": "operator"}``."""
    if isinstance(ended, dict):
        by, seat = ended.get("by"), ended.get("seat")
        if by == OPERATOR and set(ended) == {"by"}:
            return None
        if (
            by == ABORT
            and set(ended) == {"by", "seat"}
            and isinstance(seat, int)
            and not isinstance(seat, bool)
            and 0 <= seat < players
        ):
            return None
    return (
        f'field \'ended\' must be {{"by": "abort", "seat": S}} (S from 0 to {players - 1}) '
        'or {"by": "operator"}'
    )


def end_event(ended: JSON) -> JSON:
    """The chain link of an ending, after the last step and its takeovers: ``{"event": "end",
    "by": "abort", "seat": S}`` or ``{"event": "end", "by": "operator"}``."""
    return {"event": "end", **ended}


def log_status(outcome: dict[str, Any] | None) -> str:
    """The public log's word for a finished table with this stored outcome: ``over``, or
    ``aborted`` / ``ended`` (by the operator) for a match that ended other than by the rules."""
    ended = (outcome or {}).get("ended")
    if not isinstance(ended, dict):
        return "over"
    return "aborted" if ended.get("by") == ABORT else "ended"


def ended_outcome(ended: JSON) -> Outcome:
    """The outcome of an ended match: nobody wins, no draw, no scores."""
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
    return None
