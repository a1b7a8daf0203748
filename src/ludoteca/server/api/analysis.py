"""The analysis of a finished match (docs/analysis.md): 200 with it, 202 while it is made.

Served with each better action's events (``best.events``): what the action would have done at
that step, as the deciding seat would have seen it, so the page words it with the log's own
sentences instead of an action code."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ludoteca.core.errors import LudotecaError
from ludoteca.core.match import Match
from ludoteca.core.record import MatchRecord, RecordError
from ludoteca.games import get
from ludoteca.server.messages import Rejected

from .deps import LobbyDep, State

router = APIRouter(tags=["records"])
JSON = dict[str, Any]


def with_events(record: MatchRecord, body: JSON) -> JSON:
    """``body`` with ``best.events`` on each decision whose best action is not the one taken:
    the events of that action from the position before the step, for the deciding seat (the
    match is over: its seed is public). A step that does not replay leaves the rest as it is."""
    wanted = {
        d["version"]: d
        for d in body.get("decisions", [])
        if d.get("best") and d["best"].get("action") != d["taken"]["action"]
    }
    if not wanted:
        return body
    body = copy.deepcopy(body)  # the answer may be a cached one: it stays as it was stored
    wanted = {d["version"]: d for d in body["decisions"] if d["version"] in wanted}
    try:
        match = Match(get(record.game), record.params, record.deal(), record.players)
        for version, step in enumerate(record.actions, 1):
            d = wanted.get(version)
            if d is not None:
                try:
                    prepared = match.prepare(d["seat"], d["best"]["action"])
                    d["best"]["events"] = [e.for_seat(d["seat"]) for e in prepared.events]
                except LudotecaError:
                    pass  # an action the analysis wrote that no longer reads: its code stays
            match.act(step.seat, step.action, step.by)
    except (LudotecaError, RecordError, KeyError):
        pass
    return body


@router.get(
    "/api/tables/{table_id}/analysis",
    summary="The analysis of a finished match: each person's decisions, their win chance "
    "against the best action's, and the mistakes",
    description="200 with `status` `done` and the analysis (or `failed` and why there is none); "
    "202 with `status` `queued` or `running` while a worker searches it (ask again); 404 for no "
    "such table, a match not over, or a server that analyses nothing. Each decision whose best "
    "action is not the one taken carries `best.events`: what that action would have done, as "
    "the deciding seat would have seen it.",
)
async def analysis(table_id: str, state: State, lobby: LobbyDep) -> Any:
    status, body = await state.analyst.answer(table_id)
    if status == 200 and body.get("decisions"):
        try:
            record = await lobby.record(table_id)
        except Rejected:
            return JSONResponse(body, status_code=status)
        body = await asyncio.to_thread(with_events, record, body)
    return JSONResponse(body, status_code=status)
