"""Operations: the health check."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from ludoteca import __version__
from ludoteca.server.protocol import Status
from ludoteca.server.storage import Storage

from .deps import State

router = APIRouter(tags=["operations"])


def _ping(storage: Storage) -> str:
    with storage.engine.connect() as conn:
        conn.execute(text("SELECT 1"))
    return storage.engine.dialect.name


@router.get("/healthz", summary="Health: database reachable, tables served, broken tables")
async def health(state: State) -> JSONResponse:
    storage = state.storage
    try:
        db = await asyncio.wait_for(storage.run(_ping, storage), 5)
    except Exception as exc:
        return JSONResponse({"status": "failing", "db": repr(exc)}, status_code=503)
    lobby = state.lobby
    return JSONResponse(
        {
            "status": "degraded" if lobby.broken else "ok",
            "db": db,
            "tables": sum(t.row.status == Status.PLAYING for t in lobby.tables.values()),
            "in_memory": len(lobby.tables),
            "broken": len(lobby.broken),
            "connections": len(state.connections),
            "limits": state.limits.backend,
            "version": __version__,
        }
    )
