"""``/api/tables/{id}/chat``: a table's chat as one of its seats read it, for the replay of a
finished match (docs/protocol.md#chat). Only a seat's token opens it: the seats' room is read
by the people who sat there, and the spectators' room with it once the match is over."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header

from ludoteca.server.chat import keep_all
from ludoteca.server.messages import ErrorCode, Rejected, Status

from .accounts import MaybeMe
from .deps import LobbyDep, State, bearer

router = APIRouter(tags=["tables"])

Authorization = Annotated[str | None, Header(max_length=256)]


@router.get("/api/tables/{table_id}/chat", summary="The table's chat, as a seat read it")
async def table_chat(
    table_id: str,
    lobby: LobbyDep,
    state: State,
    me: MaybeMe,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """``{type: "chat_history", text, messages}``, as a connecting seat receives it; 403
    ``bad_token`` without the token of a seat of the table."""
    table = await lobby.residency.get(table_id)
    seat = table.seat_for_token(bearer(authorization))
    if seat is None:
        raise Rejected(ErrorCode.BAD_TOKEN, "only the people seated at a table read its chat")
    keep = await state.chat.hook(me.account.id) if me is not None else keep_all
    over = table.row.status == Status.OVER
    return await state.chat.history_for(table_id, seat, over, keep)
