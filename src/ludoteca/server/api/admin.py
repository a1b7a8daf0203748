"""The operator's desk over HTTP (``/api/admin/…``): reports, hiding a message, muting and
suspending, ending a table, the audit log. Every route answers 403 ``not_operator`` to a
person who is not an operator, signed in or not; operators are made only with
``ludoteca admin grant``. Each action needs a ``why`` and is written to the audit log.
docs/moderation.md is the guide."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Response
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ludoteca.server.social.desk import MAX_WHY

from .accounts import MaybeMe
from .deps import State

Why = Annotated[StrictStr, Field(min_length=1, max_length=MAX_WHY, description="for the audit log")]


async def operator(me: MaybeMe, state: State) -> str:
    """The operator's name; 403 ``not_operator`` for anyone else, signed in or not."""
    return await state.desk.operator(None if me is None else me.account)


Operator = Annotated[str, Depends(operator)]
router = APIRouter(tags=["operators"], dependencies=[Depends(operator)])


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Because(_Body):
    why: Why


class HideMessage(_Body):
    table: Annotated[StrictStr, Field(min_length=1, max_length=32)]
    message: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    why: Why


class Sanction(_Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    kind: Literal["mute", "suspend"]
    seconds: Annotated[int, Field(ge=60, le=10 * 365 * 86400)] | None = Field(
        None, description="how long; omitted or null: for good"
    )
    why: Why


class Lift(_Body):
    name: Annotated[StrictStr, Field(min_length=1, max_length=64)]
    kind: Literal["mute", "suspend"]
    why: Why


@router.get("/api/admin/reports", summary="Reports: open ones oldest first, or closed ones")
async def reports(
    state: State,
    closed: bool = False,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    return {"reports": await state.desk.reports(closed, limit)}


@router.post("/api/admin/reports/{report_id}/close", status_code=204, summary="Close a report")
async def close_report(
    report_id: Annotated[int, Path(ge=1, le=2**31 - 1)], body: Because, who: Operator, state: State
) -> Response:
    await state.desk.close_report(who, report_id, body.why)
    return Response(status_code=204)


@router.post("/api/admin/messages/hide", status_code=204, summary="Hide a chat message")
async def hide_message(body: HideMessage, who: Operator, state: State) -> Response:
    await state.desk.hide_message(who, body.table, body.message, body.why)
    return Response(status_code=204)


@router.post("/api/admin/sanctions", status_code=204, summary="Mute or suspend an account")
async def sanction(body: Sanction, who: Operator, state: State) -> Response:
    await state.desk.sanction(who, body.name, body.kind, body.seconds, body.why)
    return Response(status_code=204)


@router.post("/api/admin/sanctions/lift", status_code=204, summary="Lift a mute or suspension")
async def lift(body: Lift, who: Operator, state: State) -> Response:
    await state.desk.lift(who, body.name, body.kind, body.why)
    return Response(status_code=204)


@router.get("/api/admin/accounts/{name}", summary="An account's sanctions in force")
async def account(name: str, state: State) -> dict[str, Any]:
    return {"sanctions": await state.desk.sanctions_of(name)}


@router.post("/api/admin/tables/{table_id}/end", summary="End a table that has not started")
async def end_table(table_id: str, body: Because, who: Operator, state: State) -> dict[str, Any]:
    return {"status": await state.desk.end_table(who, table_id, body.why)}


@router.get("/api/admin/audit", summary="The audit log, newest first")
async def audit(state: State, limit: Annotated[int, Query(ge=1, le=1000)] = 200) -> dict[str, Any]:
    return {"audit": await state.desk.audit(limit)}
