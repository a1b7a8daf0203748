"""The analysis of a finished match (docs/analysis.md): 200 with it, 202 while it is made."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from .deps import State

router = APIRouter(tags=["records"])


@router.get(
    "/api/tables/{table_id}/analysis",
    summary="The analysis of a finished match: each person's decisions, their win chance "
    "against the best action's, and the mistakes",
    description="200 with `status` `done` and the analysis (or `failed` and why there is none); "
    "202 with `status` `queued` or `running` while a worker searches it (ask again); 404 for no "
    "such table, a match not over, or a server that analyses nothing.",
)
async def analysis(table_id: str, state: State) -> Any:
    status, body = await state.analyst.answer(table_id)
    return JSONResponse(body, status_code=status)
