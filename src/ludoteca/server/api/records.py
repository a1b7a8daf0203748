"""Match records: a table's record as stored, and checking any record."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter

from ludoteca.core import Receipt, verify
from ludoteca.games import get
from ludoteca.server.messages import ErrorCode, Rejected

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
    "/api/verify",
    summary="Check a match record: signature, commitment, seed, re-deal, every action, "
    "chain, outcome, and the receipts given",
    description='The body is a match record, or `{"record": RECORD, "receipts": '
    '[{"table", "version", "chain"}, ...]}` to check it also against the chain '
    "heads a player was shown.",
)
async def verify_record(body: dict[str, Any]) -> dict[str, Any]:
    record, receipts = verify_body(body)
    verdict = await asyncio.to_thread(verify, record, get, receipts=receipts)
    result: dict[str, Any] = verdict.to_json()
    return result


def verify_body(body: dict[str, Any]) -> tuple[Any, list[Receipt]]:
    """The record and the receipts of a ``POST /api/verify`` body: a bare record (no receipts),
    or ``{"record": ..., "receipts": [...]}``. Malformed receipts are refused (422)."""
    if "record" not in body:
        return body, []
    extra = set(body) - {"record", "receipts"}
    if extra:
        raise Rejected(ErrorCode.BAD_REQUEST, f"unknown fields next to 'record': {sorted(extra)}")
    given = body.get("receipts", [])
    if not isinstance(given, list):
        raise Rejected(ErrorCode.BAD_REQUEST, "'receipts' is a list of {table, version, chain}")
    try:
        receipts = [Receipt.from_json(item) for item in given]
    except ValueError as exc:
        raise Rejected(ErrorCode.BAD_REQUEST, str(exc)) from None
    return body["record"], receipts
