"""Match records: a table's record as stored, and checking any record."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ludoteca.core import verify
from ludoteca.games import get

from .deps import LobbyDep

router = APIRouter(tags=["records"])


@router.get(
    "/api/tables/{table_id}/record",
    summary="The match record (seed and outcome once the match is over)",
)
async def record(table_id: str, lobby: LobbyDep) -> dict[str, Any]:
    found: dict[str, Any] = (await lobby.record(table_id)).to_json()
    return found


@router.get("/api/keys", summary="The server's record-signing keys (Ed25519), current first")
async def signing_keys(lobby: LobbyDep) -> dict[str, Any]:
    return {"keys": [k.to_json() for k in lobby.services.keys.published()]}


@router.post(
    "/api/verify", summary="Check a match record: commitment, re-deal, every action, outcome"
)
async def verify_record(record: dict[str, Any]) -> dict[str, Any]:
    verdict = await asyncio.to_thread(verify, record, get)
    result: dict[str, Any] = verdict.to_json()
    return result
