"""``/api/tables`` and ``/api/play-now``: creating, listing, joining, leaving, starting tables.

Every body is checked before any work: strict whole numbers and booleans, players, seats, seat
numbers and levels in range, names no longer than 64 characters (they are then cleaned to 24).
"""

from __future__ import annotations

import contextlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request, Response
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
)

from ludoteca.bots import LEVELS
from ludoteca.server.accounts.devices import DEVICE
from ludoteca.server.lobby.lobby import Lobby, SeatRequest
from ludoteca.server.lobby.rematch import Rematches
from ludoteca.server.messages import MAX_NAME_INPUT, MAX_SEATS, ErrorCode, Rejected, Status
from ludoteca.server.table.table import Table

from .accounts import AccountsDep, MaybeMe
from .deps import Client, LobbyDep, State, bearer, links, rate_limit
from .seats import one_seat, take

router = APIRouter(tags=["tables"])


def _known_level(level: str) -> str:
    if level not in LEVELS:
        raise ValueError(f"a bot level is one of {', '.join(LEVELS)}")
    return level


Level = Annotated[
    str, AfterValidator(_known_level), Field(json_schema_extra={"enum": list(LEVELS)})
]
Name = Annotated[str, Field(max_length=MAX_NAME_INPUT)]
TurnSeconds = Annotated[StrictInt, Field(ge=1, le=7 * 24 * 3600)]
ReserveSeconds = Annotated[StrictInt, Field(ge=0, le=7 * 24 * 3600)]
Pace = Literal["real-time", "turn-based"]
PACE_DOC = "real-time (default: a clock per move) or turn-based (a move a day or so)"
TURN_DOC = (
    "seconds per move: real-time 5 to 3600 (default 60), turn-based 3600 to 604800 "
    "(default 86400); the server's settings may narrow them"
)
OptionValue = StrictBool | StrictInt | StrictFloat | Annotated[StrictStr, Field(max_length=64)]
Params = Annotated[dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=16)]
PARAMS_DOC = (
    "the game's table options, by name (GET /api/games lists each game's options, their values "
    "and defaults); an option left out takes its default"
)
RESERVE_DOC = "turn-based: each seat's reserve beyond its moves' time, for the whole match"


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatSpec(_Body):
    bot: StrictBool = Field(
        False, description="true: a bot takes this seat; false: a seat for a person"
    )
    level: Level | None = Field(
        None, description="the bot's level (default: medium); only with bot: true"
    )

    @field_validator("level")
    @classmethod
    def _level_for_bots(cls, level: str | None, info: ValidationInfo) -> str | None:
        if level is not None and not info.data.get("bot", False):
            raise ValueError("only a bot's seat has a level: this seat is for a person")
        return level


class CreateTable(_Body):
    game: Annotated[str, Field(max_length=64, description="game id, one of GET /api/games")]
    params: Params | None = Field(None, description=PARAMS_DOC)
    players: Annotated[StrictInt, Field(ge=1, le=MAX_SEATS)] | None = Field(
        None, description="number of seats (default: the game's minimum)"
    )
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=MAX_SEATS)] | None = Field(
        None, description="each seat: a bot or a person (default: you, then bots)"
    )
    pace: Pace = Field("real-time", description=PACE_DOC)
    turn_seconds: TurnSeconds | None = Field(None, description=TURN_DOC)
    reserve_seconds: ReserveSeconds | None = Field(None, description=RESERVE_DOC)
    name: Name | None = Field(None, description="your name: you sit at the first seat for a person")
    start: StrictBool = Field(
        False,
        description="start at once; empty seats are taken by bots (required for bots only)",
        validate_default=True,
    )
    rated: StrictBool = Field(
        False, description="a rated table (you must be signed in, and so must whoever joins)"
    )
    chat: Literal["phrases", "text"] = Field(
        "phrases",
        description="the table's chat: quick phrases only (default), or free text too "
        "(from signed-in people)",
    )

    @field_validator("start")
    @classmethod
    def _someone_starts(cls, start: bool, info: ValidationInfo) -> bool:
        seats = info.data.get("seats")
        if not start and seats and all(seat.bot for seat in seats):
            raise ValueError(
                "every seat is a bot: there is no seat for you, and nobody could start it "
                "later (send start: true for bots only)"
            )
        return start


class PlayNow(_Body):
    game: Annotated[str, Field(max_length=64)]
    params: Params | None = Field(None, description=PARAMS_DOC)
    players: Annotated[StrictInt, Field(ge=1, le=MAX_SEATS)] | None = None
    level: Level = "medium"
    name: Name = "Player"
    pace: Pace = Field("real-time", description=PACE_DOC)
    turn_seconds: TurnSeconds | None = Field(None, description=TURN_DOC)
    reserve_seconds: ReserveSeconds | None = Field(None, description=RESERVE_DOC)
    rated: StrictBool = Field(False, description="a rated match (you must be signed in)")


class Commitment(_Body):
    commitment: str = Field(
        max_length=64,
        description="your commitment to your own seed: SHA-256 of the seed, a newline and a salt, "
        "as 64 lowercase hex digits",
    )


class Revelation(_Body):
    seed: str = Field(
        min_length=1,
        max_length=64,
        description="your own seed for the deal: 1 to 64 printable ASCII characters, no spaces",
    )
    salt: str = Field(
        max_length=64, description="the salt you committed with: 32 lowercase hex digits"
    )


class JoinTable(_Body):
    name: Name | None = Field(None, description="your name at the table")
    seat: Annotated[StrictInt, Field(ge=0, le=MAX_SEATS - 1)] | None = Field(
        None, description="a particular seat (0-based); default: the first free"
    )


Authorization = Annotated[str | None, Header(max_length=256)]


@router.get("/api/tables", summary="A page of tables by status (default: open ones), newest first")
async def list_tables(  # noqa: PLR0917
    state: State,
    response: Response,
    me: MaybeMe,
    status: Literal["open", "starting", "playing", "over"] = Query("open"),
    game: Annotated[str | None, Query(max_length=64)] = None,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> list[dict[str, Any]]:
    """Open tables carry ``seek`` (None unless posted as a seek); a seek of a person you blocked
    or who blocked you is left out."""
    page, total = await state.lobby.residency.listing(status, game, offset, limit)
    response.headers["X-Total-Count"] = str(total)
    if status != "open":
        return page
    kept = await state.social.unheard(me.account.id) if me is not None else frozenset()
    seeks = state.seeks
    return [seeks.decorate(t) for t in page if not seeks.hidden(t["id"], kept)]


@router.post(
    "/api/tables",
    status_code=201,
    summary="Create a table",
    dependencies=[Depends(rate_limit("create"))],
)
async def create_table(  # noqa: PLR0917
    body: CreateTable,
    request: Request,
    lobby: LobbyDep,
    client: Client,
    me: MaybeMe,
    accounts: AccountsDep,
    state: State,
) -> dict[str, Any]:
    """A signed-in creator sits under their account's name and holds the seat on every device."""
    if body.rated and me is None:
        raise Rejected(ErrorCode.NOT_SIGNED_IN, "sign in to make a rated table")
    seats = [SeatRequest(s.bot, s.level) for s in body.seats] if body.seats else None
    table, seat, token = await lobby.create(
        body.game,
        players=body.players,
        options=body.params,
        seats=seats,
        turn_seconds=body.turn_seconds,
        name=me.account.name if me is not None else body.name,
        start=body.start,
        client=client,
        pace=body.pace,
        reserve_seconds=body.reserve_seconds,
    )
    if body.rated:
        await accounts.mark_rated(table.id, table.game.spec.id)
    await state.chat.configure(table.id, body.chat == "text")
    if me is not None and seat is not None and token is not None:
        await accounts.hold_seat(me.account, table.id, seat, token)
    summary = table.summary() | {"rated": body.rated}
    return {"table": summary, "seat": seat, "token": token, **links(request, table.id)}


@router.post(
    "/api/play-now",
    status_code=201,
    summary="Play against bots now",
    dependencies=[Depends(rate_limit("create"))],
)
async def play_now(
    body: PlayNow, request: Request, lobby: LobbyDep, me: MaybeMe, accounts: AccountsDep
) -> dict[str, Any]:
    if body.rated and me is None:
        raise Rejected(ErrorCode.NOT_SIGNED_IN, "sign in to play a rated match")
    table, seat, token = await lobby.play_now(
        body.game,
        players=body.players,
        options=body.params,
        level=body.level,
        name=me.account.name if me is not None else body.name,
        turn_seconds=body.turn_seconds,
        pace=body.pace,
        reserve_seconds=body.reserve_seconds,
    )
    if body.rated:
        await accounts.mark_rated(table.id, table.game.spec.id)
    if me is not None and seat is not None and token is not None:
        await accounts.hold_seat(me.account, table.id, seat, token)
    summary = table.summary() | {"rated": body.rated}
    return {"table": summary, "seat": seat, "token": token, **links(request, table.id)}


@router.get("/api/tables/{table_id}", summary="A table's public summary")
async def one_table(table_id: str, request: Request, lobby: LobbyDep) -> dict[str, Any]:
    table = await lobby.residency.peek(table_id)
    return {"table": table.summary(), **links(request, table.id)}


@router.get(
    "/api/tables/{table_id}/rating",
    summary="Whether the match is rated and, once rated, each person's rating change",
)
async def table_rating(table_id: str, lobby: LobbyDep, accounts: AccountsDep) -> dict[str, Any]:
    """``state``: casual, waiting (ask again in a second), rated (with ``changes``: seat,
    name, before, after, change, provisional), not_rated or failed (with ``reason``)."""
    table = await lobby.residency.peek(table_id)
    return await accounts.table_rating(table.id)


@router.post(
    "/api/tables/{table_id}/join",
    summary="Take a free seat",
    dependencies=[Depends(rate_limit("join"))],
)
async def join(  # noqa: PLR0917
    table_id: str,
    body: JoinTable,
    request: Request,
    response: Response,
    lobby: LobbyDep,
    me: MaybeMe,
    accounts: AccountsDep,
) -> dict[str, Any]:
    """A signed-in person holds the seat on every device; an account holds one seat of a
    table (422 ``already_seated``); nobody sits with a person either of them blocked (403
    ``blocked``). A seek's table is taken with the seek's rules (``POST /api/seeks/{id}/take``)."""
    if await request.app.state.ludoteca.seeks.posted(table_id):
        device = request.cookies.get(DEVICE)
        return await take(table_id, body.name or "Player", request, response, me, accounts, device)
    rated = await accounts.is_rated(table_id[:64])
    if rated and me is None:
        raise Rejected(ErrorCode.NOT_SIGNED_IN, "this table is rated: sign in to join it")
    if me is not None:
        await request.app.state.ludoteca.social.may_sit(me.account.id, table_id[:64])
        await one_seat(lobby, accounts, me.account, table_id)
    seat, token = await lobby.join(
        table_id, me.account.name if me is not None else body.name, body.seat
    )
    if me is not None:
        try:
            await accounts.hold_seat(me.account, table_id, seat, token)
        except Rejected:  # the same account joined at once from elsewhere: this seat goes
            await lobby.leave(table_id, token)
            raise
    table = await lobby.residency.peek(table_id)
    summary = table.summary() | {"rated": rated}
    return {"table": summary, "seat": seat, "token": token, **links(request, table.id)}


@router.post("/api/tables/{table_id}/leave", summary="Leave your seat")
async def leave(
    table_id: str, lobby: LobbyDep, accounts: AccountsDep, authorization: Authorization = None
) -> dict[str, Any]:
    """Left before the start, the seat is nobody's: an account's link to it ends. Left after
    the end, the rematch offered there lapses."""
    token = bearer(authorization)
    freed = await lobby.leave(table_id, token)
    if freed is not None and token is not None:
        await accounts.release_seat(table_id, freed, token, left=True)
    table = await lobby.residency.peek(table_id)
    if table.row.status == Status.OVER:
        with contextlib.suppress(Rejected):  # none was live
            await Rematches(lobby).decline(table_id, token, reason="left")
    return {"table": table.summary()}


@router.post(
    "/api/tables/{table_id}/commit",
    summary="Commit to your own seed for the deal (before anyone reveals)",
)
async def commit(
    table_id: str, body: Commitment, lobby: LobbyDep, authorization: Authorization = None
) -> dict[str, Any]:
    table, seat = await _seated(lobby, table_id, authorization)
    await table.commit(seat, body.commitment)
    return {"table": table.summary()}


@router.post(
    "/api/tables/{table_id}/reveal",
    summary="Reveal your seed and its salt (once the table's commitments are closed)",
)
async def reveal(
    table_id: str, body: Revelation, lobby: LobbyDep, authorization: Authorization = None
) -> dict[str, Any]:
    table, seat = await _seated(lobby, table_id, authorization)
    await table.reveal(seat, body.seed, body.salt)
    return {"table": table.summary()}


async def _seated(lobby: Lobby, table_id: str, authorization: str | None) -> tuple[Table, int]:
    """The table and the seat the bearer token holds there (``bad_token`` if none)."""
    table = await lobby.residency.get(table_id)
    seat = table.seat_for_token(bearer(authorization))
    if seat is None:
        raise Rejected(ErrorCode.BAD_TOKEN, "this token holds no seat at this table")
    return table, seat


@router.post(
    "/api/tables/{table_id}/start",
    summary="Start (bots fill seats)",
    dependencies=[Depends(rate_limit("start"))],
)
async def start(
    table_id: str, lobby: LobbyDep, authorization: Authorization = None
) -> dict[str, Any]:
    table = await lobby.start(table_id, bearer(authorization))
    return {"table": table.summary()}
