"""Replays of finished matches: every version's view and log entry, for one seat or a spectator.

The views are made by replaying the stored steps through ``Match``, the same authority that made
them during the match, so the view at version k is the one the server sent that seat at version k.
The browser never re-implements a rule: a record file opened on the replay page is posted to
``POST /api/replay`` and comes back as the same list of views.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Body, Query
from fastapi.responses import JSONResponse

from ludoteca.core import verify
from ludoteca.core.match import Match
from ludoteca.core.record import MatchRecord, RecordError
from ludoteca.games import get
from ludoteca.server.messages import ErrorCode, Rejected, http_status

from .deps import LobbyDep

JSON = dict[str, Any]
RECORD = Body(description="a match record, as from /api/tables/{table_id}/record")


class ReplayRejected(Exception):
    """A replay that cannot be made: an ``ErrorCode`` for the client (its HTTP status from the
    protocol's table), and the verifier's ``problems`` when a record does not check out."""

    def __init__(self, code: ErrorCode, message: str, problems: list[JSON] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = http_status(code)
        self.problems = problems or []

    def response(self) -> JSONResponse:
        body: JSON = {"error": self.code, "message": self.message}
        if self.problems:
            body["problems"] = self.problems
        return JSONResponse(body, status_code=self.status)


def replay_json(record: MatchRecord, seat: int | None) -> JSON:
    """Every version of a finished, verified match as ``seat`` saw it (None = a spectator):
    ``steps[k]`` holds the view and legal actions at version k and the log entry that made it."""
    try:
        deal = record.deal()
    except RecordError:
        raise ReplayRejected(
            ErrorCode.BAD_REQUEST, "the match is not over: its replay opens at the end"
        ) from None
    if seat is not None and not 0 <= seat < len(record.players):
        raise ReplayRejected(
            ErrorCode.BAD_REQUEST,
            f"seat {seat} is not a seat of this match (0–{len(record.players) - 1})",
        )
    match = Match(get(record.game), record.params, deal, record.players)

    def frame(seat_of: int | None, by: str | None, action: str | None, events: list[Any]) -> JSON:
        return {
            "version": match.version,
            "view": match.view(seat),
            "legal": match.legal(seat),
            "entry": {
                "v": match.version,
                "seat": seat_of,
                "by": by,
                "action": action,
                "events": [e.for_seat(seat) for e in events],
            },
        }

    steps = [frame(None, None, None, list(match.opening_events))]
    for step in record.actions:
        events = match.act(step.seat, step.action, step.by)
        steps.append(frame(step.seat, step.by, step.action, events))
    if record.ended is not None:  # aborted, or ended by the operator: the last view says so
        match.end(record.ended)
        steps[-1] |= {"view": match.view(seat), "legal": []}
    return {
        "game": record.game,
        "seat": seat,
        "commitment": record.commitment,
        "fingerprint": record.fingerprint,
        "players": [p.to_json() for p in record.players],
        "steps": steps,
    }


def checked_replay(data: Any, seat: int | None) -> JSON:
    """A record file's replay: verified first (commitment, re-deal, every action, outcome), so a
    tampered record gets the verifier's problems, by check code, and no replay."""
    verdict = verify(data, get)
    if not verdict.ok:
        first = verdict.problems[0]
        raise ReplayRejected(
            ErrorCode.BAD_REQUEST,
            f"the record does not check out ({first.check}): {first.message}",
            [p.to_json() for p in verdict.problems],
        )
    return replay_json(MatchRecord.from_json(data), seat)


router = APIRouter(tags=["records"])
SEAT = Query(None, ge=0, description="the seat whose view to replay (0-based); none: a spectator's")


@router.get(
    "/api/tables/{table_id}/replay",
    summary="A finished match, version by version, as one seat (or a spectator) saw it",
)
async def table_replay(table_id: str, lobby: LobbyDep, seat: int | None = SEAT) -> Any:
    try:
        record = await lobby.record(table_id)
    except Rejected as exc:
        body = {"error": exc.code, "message": exc.message}
        return JSONResponse(body, status_code=http_status(exc.code))
    try:
        return await asyncio.to_thread(replay_json, record, seat)
    except ReplayRejected as exc:
        return exc.response()


@router.post(
    "/api/replay",
    summary="A record file, checked, then version by version as one seat (or a spectator) saw it",
)
async def record_replay(record: dict[str, Any] = RECORD, seat: int | None = SEAT) -> Any:
    try:
        return await asyncio.to_thread(checked_replay, record, seat)
    except ReplayRejected as exc:
        return exc.response()
