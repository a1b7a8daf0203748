"""The public log of tables (``docs/log.md``): the signed tree head, a table's entry with its
audit path, consistency proofs between two sizes, and the entries themselves for monitors."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ludoteca.server.messages import ErrorCode, Rejected

from .deps import State

router = APIRouter(tags=["public log"])

Size = Annotated[int, Query(ge=0, le=2**62)]


@router.get("/api/log/head", summary="The log's signed tree head: size, root, signature, key id")
async def head(state: State) -> dict[str, Any]:
    return (await state.publog.head()).to_json()


@router.get(
    "/api/log/tables/{table_id}",
    summary="A table's entry in the log and its RFC 6962 audit path in the tree of `size` "
    "entries (default: the whole log)",
)
async def inclusion(
    table_id: str, state: State, size: Annotated[int | None, Query(ge=1, le=2**62)] = None
) -> dict[str, Any]:
    try:
        entry, size, path = await state.publog.inclusion(table_id, size)
    except LookupError as exc:
        raise Rejected(ErrorCode.NO_TABLE, str(exc)) from None
    except ValueError as exc:
        raise Rejected(ErrorCode.BAD_REQUEST, str(exc)) from None
    return {"index": entry.index, "size": size, "leaf": entry.leaf, "path": path}


@router.get(
    "/api/log/consistency",
    summary="The RFC 6962 proof that the log of `first` entries is a prefix of the one of `second`",
)
async def consistency(first: Size, second: Size, state: State) -> dict[str, Any]:
    try:
        return {"path": await state.publog.consistency(first, second)}
    except ValueError as exc:
        raise Rejected(ErrorCode.BAD_REQUEST, str(exc)) from None


@router.get(
    "/api/log/entries",
    summary="Entries `start` to `end - 1` (at most 1000), each its index and text, for monitors",
)
async def entries(start: Size, end: Size, state: State) -> dict[str, Any]:
    try:
        found = await state.publog.entries(start, end)
    except ValueError as exc:
        raise Rejected(ErrorCode.BAD_REQUEST, str(exc)) from None
    return {"entries": [{"index": e.index, "leaf": e.leaf} for e in found]}
