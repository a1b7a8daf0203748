"""Operations: the health check."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from ludoteca import __version__
from ludoteca.server.messages import Status
from ludoteca.server.table.pacing import FIRED_TWICE

from .deps import State

router = APIRouter(tags=["operations"])


@router.get("/healthz", summary="Health: database reachable, tables served, broken tables")
async def health(state: State) -> JSONResponse:
    storage = state.storage
    try:
        await asyncio.wait_for(storage.ping(), 5)
    except Exception as exc:
        return JSONResponse({"status": "failing", "db": repr(exc)}, status_code=503)
    lobby = state.lobby
    cluster = lobby.services.cluster
    unreachable = await cluster.ping()
    problems = state.watch.problems()
    doubles = cluster.doubles()
    if doubles:
        problems.append(
            f"{len(doubles)} table(s) driven by another process too in the last minute "
            f"({', '.join(doubles[:5])}): do all processes share one Redis and prefix?"
        )
    skew = state.watch.skew
    return JSONResponse(
        {
            "status": "degraded" if lobby.residency.broken or unreachable or problems else "ok",
            "redis": unreachable or ("ok" if cluster.shared else None),
            "problems": problems,  # the clock off the database's, processes that disagree
            "clock_skew": None if skew is None else round(skew, 3),
            "db": storage.dialect,
            "tables": sum(t.row.status == Status.PLAYING for t in lobby.residency.tables.values()),
            "in_memory": len(lobby.residency.tables),
            "broken": len(lobby.residency.broken),
            # turn-based tables: whether this process fires the deadlines, how many tables it
            # read for one, and how many of those another process had fired first
            "deadline_duty": state.deadlines.on_duty,
            "deadlines_fired": state.deadlines.fired,
            "fired_twice": sum(FIRED_TWICE.values()),
            # rated tables whose rating failed (set aside; docs/accounts.md says what to do)
            "ratings_failed": await state.accounts.failed_ratings(),
            "connections": len(state.connections),
            "limits": state.limits.backend,
            "process": cluster.name,  # "solo", or this process's name among several
            "driving": sum(cluster.drives(t) for t in lobby.residency.tables),
            "version": __version__,
        }
    )
