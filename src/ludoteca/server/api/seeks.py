"""``/api/seeks``: open challenges in the lobby (``lobby/seeks.py``; docs/protocol.md#seeks).

A seek is an open table its poster sits at, listed with ``seek`` (rated or casual, the poster's
name and rating, since when): ``POST`` posts one, ``GET`` lists them, ``POST .../take`` sits
you at it (the last seat taken starts the match), ``DELETE`` withdraws it (the poster's seat
token as ``Authorization: Bearer``). Its id is its table's id.

A rated seek needs an account on both sides; a guest may post and take casual ones. The
browser's device cookie (given here when missing, as by quick pairing) keeps a person from
taking their own seek from a second account."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt
from starlette.websockets import WebSocket

from ludoteca.server.accounts.devices import DEVICE, this_device
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.pairing import Pairing
from ludoteca.server.lobby.seeks import Seeks
from ludoteca.server.messages import MAX_NAME_INPUT, MAX_SEATS
from ludoteca.server.social.service import Social

from .accounts import AccountsDep, MaybeMe
from .deps import Client, State, bearer, links, rate_limit
from .pairing import rating_for
from .seats import keep_device, seeker, take
from .tables import PACE_DOC, TURN_DOC, Authorization, Pace, TurnSeconds

router = APIRouter(tags=["seeks"])

TableId = Annotated[str, Path(min_length=1, max_length=64)]
DeviceCookie = Annotated[str | None, Cookie(alias=DEVICE, max_length=64)]


class PostSeek(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(max_length=64, description="game id, one of GET /api/games")]
    players: Annotated[StrictInt, Field(ge=2, le=MAX_SEATS)] = Field(
        2, description="the table's seats, yours included (the game's range)"
    )
    pace: Pace = Field("real-time", description=PACE_DOC)
    turn_seconds: TurnSeconds | None = Field(None, description=TURN_DOC)
    rated: StrictBool = Field(False, description="a rated match (you must be signed in)")
    name: Annotated[str, Field(max_length=MAX_NAME_INPUT)] = Field(
        "Player", description="your name at the table (signed in: your account's)"
    )


class TakeSeek(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=MAX_NAME_INPUT)] = Field(
        "Player", description="your name at the table (signed in: your account's)"
    )


def seeks_for(
    lobby: Lobby, pairing: Pairing, accounts: Accounts, social: Social, connections: set[WebSocket]
) -> Seeks:
    """The lobby's seeks, with who is kept apart (blocks), who may not post or take
    (suspended), how a rated seek's table is marked, and what counts as online."""
    online: Callable[[], int] = lambda: len(connections)  # noqa: E731
    return Seeks(
        lobby,
        pairing,
        kept_apart=social.apart,
        may_post=social.may_pair,
        mark_rated=accounts.mark_rated,
        online=online,
    )


@router.post(
    "/api/seeks",
    status_code=201,
    summary="Post a seek: an open table that anyone in the lobby takes with one tap",
    dependencies=[Depends(rate_limit("create"))],
)
async def post_seek(  # noqa: PLR0917
    body: PostSeek,
    request: Request,
    state: State,
    me: MaybeMe,
    accounts: AccountsDep,
    client: Client,
    device: DeviceCookie = None,
) -> JSONResponse:
    """``{table, seat, token, invite, websocket}``: you sit at the table's first seat; go to
    it (your seat connection keeps the seek alive)."""
    cookie = this_device(device)
    rating = None
    if me is not None:
        rating = await rating_for(accounts, me.account.id, body.game)
    who = seeker(me, body.name, cookie, rating)
    table, seat, token = await state.seeks.post(
        body.game,
        players=body.players,
        pace=body.pace,
        turn_seconds=body.turn_seconds,
        rated=body.rated,
        seeker=who,
        client=client,
    )
    if me is not None:
        await accounts.hold_seat(me.account, table.id, seat, token)
    answer = {
        "table": state.seeks.decorate(table.summary()),
        "seat": seat,
        "token": token,
        **links(request, table.id),
    }
    return keep_device(JSONResponse(answer, status_code=201), request, cookie, device)


@router.get("/api/seeks", summary="The seeks waiting in the lobby, newest first")
async def list_seeks(
    state: State,
    me: MaybeMe,
    game: Annotated[str | None, Query(max_length=64)] = None,
) -> list[dict[str, Any]]:
    """Each seek's table summary (with ``seek``); none of a person you blocked or who blocked
    you."""
    kept = await state.social.unheard(me.account.id) if me is not None else frozenset()
    page, _ = await state.lobby.residency.listing("open", game, 0, 200)
    return [
        state.seeks.decorate(t)
        for t in page
        if state.seeks.seek_of(t["id"]) is not None and not state.seeks.hidden(t["id"], kept)
    ]


@router.post(
    "/api/seeks/{table_id}/take",
    summary="Take a seek: sit at its table (the last seat taken starts the match)",
    dependencies=[Depends(rate_limit("join"))],
)
async def take_seek(  # noqa: PLR0917
    table_id: TableId,
    body: TakeSeek,
    request: Request,
    response: Response,
    state: State,
    me: MaybeMe,
    accounts: AccountsDep,
    device: DeviceCookie = None,
) -> dict[str, Any]:
    """``{table, seat, token, invite, websocket}``, as a join answers."""
    return await take(table_id, body.name, request, response, me, accounts, device)


@router.delete(
    "/api/seeks/{table_id}",
    status_code=204,
    summary="Withdraw your seek (its table closes)",
    response_class=Response,
)
async def cancel_seek(
    table_id: TableId, state: State, authorization: Authorization = None
) -> Response:
    """Your seat token at the seek's table as ``Authorization: Bearer``."""
    await state.seeks.cancel(table_id, bearer(authorization))
    return Response(status_code=204)
