"""``/api/pairing``: look for people to play a game with (``lobby/pairing.py``;
docs/protocol.md#pairing). A search is answered 202 with its id, which is its searcher's secret:
poll ``GET /api/pairing/{id}`` (each poll is the search's sign of life) until it says
``seated``, with the table, the seat and the token; ``DELETE`` stops looking.

A rated search needs an account (its rating for the game is where its window starts); a guest
may look for casual tables. A browser without a device cookie is given one here, as at a
sign-in (docs/accounts.md#devices): two searches from one browser are never paired, and a new
search from it ends its earlier one."""

from __future__ import annotations

import contextlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Cookie, Depends, Path, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from ludoteca.server.accounts.devices import DEVICE, device_digest, this_device
from ludoteca.server.accounts.ratings import START_SHOWN, Rating
from ludoteca.server.accounts.rows import Session
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.pairing import Pairing, Wanted
from ludoteca.server.messages import MAX_NAME_INPUT, MAX_SEATS, Rejected
from ludoteca.server.social.service import Social
from ludoteca.server.storage.pairings import SearchRow

from .accounts import AccountsDep, MaybeMe
from .deps import State, links, rate_limit
from .seats import keep_device
from .tables import Level, Pace

router = APIRouter(tags=["pairing"])

SearchId = Annotated[str, Path(min_length=8, max_length=64)]
MAX_BOTS_AFTER = 3600


class FindPeople(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(max_length=64, description="game id, one of GET /api/games")]
    players: Annotated[StrictInt, Field(ge=1, le=MAX_SEATS)] | Literal["any"] = Field(
        "any", description="the table's count of players, or any count the game allows"
    )
    pace: Pace = Field("real-time", description="real-time or turn-based")
    rated: StrictBool = Field(False, description="a rated match (you must be signed in)")
    bots_after: Annotated[StrictInt, Field(ge=0, le=MAX_BOTS_AFTER)] | None = Field(
        None,
        description="after this many seconds, start with bots in the empty seats; "
        "null: keep waiting for people",
    )
    bot_level: Level = Field("medium", description="the bots' level, when bots fill seats")
    name: Annotated[str, Field(max_length=MAX_NAME_INPUT)] = Field(
        "Player", description="your name at the table (signed in: your account's)"
    )


def pairing_for(lobby: Lobby, accounts: Accounts, social: Social) -> Pairing:
    """The lobby's pool, with what the accounts do before a paired table is created, and who
    is kept apart (blocks) or may not look at all (suspended)."""

    async def prepare(first: SearchRow, members: list[SearchRow]) -> None:
        del members
        if first.rated and first.table_id is not None:
            await accounts.mark_rated(first.table_id, first.game)

    return Pairing(lobby, prepare, kept_apart=social.apart, may_search=social.may_pair)


async def rating_for(accounts: Accounts, account_id: str, game: str) -> float:
    """The rating people see for the account at the game (the start of the scale before its
    first rated match)."""
    rows = await accounts.store.run(accounts.store.ratings_of, account_id)
    for r in rows:
        if r.game == game:
            return float(Rating(r.mu, r.sigma).displayed)
    return float(START_SHOWN)


@router.post(
    "/api/pairing",
    status_code=202,
    summary="Look for people to play a game with",
    dependencies=[Depends(rate_limit("join"))],
)
async def find_people(  # noqa: PLR0917
    body: FindPeople,
    request: Request,
    state: State,
    me: MaybeMe,
    accounts: AccountsDep,
    device: Annotated[str | None, Cookie(alias=DEVICE, max_length=64)] = None,
) -> JSONResponse:
    """``{id, state, looking, waited, ...}``: keep ``id`` secret and poll it."""
    cookie = this_device(device)
    account = me.account if me is not None else None
    rating = None
    if body.rated and account is not None:
        rating = await rating_for(accounts, account.id, body.game)
    wanted = Wanted(
        game=body.game,
        players=0 if body.players == "any" else body.players,
        pace=body.pace,
        rated=body.rated,
        bots_after=None if body.bots_after is None else float(body.bots_after),
        bot_level=body.bot_level,
        name=account.name if account is not None else body.name,
        account=account.id if account is not None else None,
        device=device_digest(cookie),
        rating=rating,
    )
    search_id, row = await state.pairing.search(wanted)
    described = await state.pairing.describe(search_id, row)
    answer = {"id": search_id} | await _seated(described, request, accounts, me)
    return keep_device(JSONResponse(answer, status_code=202), request, cookie, device)


async def _seated(
    answer: dict[str, Any], request: Request, accounts: Accounts, me: Session | None
) -> dict[str, Any]:
    """A seated search's answer with the table's links; a signed-in searcher's account holds
    the seat on every device."""
    if answer["state"] == "seated":
        answer |= links(request, answer["table"])
        if me is not None:
            with contextlib.suppress(Rejected):
                await accounts.hold_seat(
                    me.account, answer["table"], answer["seat"], answer["token"]
                )
    return answer


@router.get("/api/pairing/{search_id}", summary="A search: still waiting, or seated")
async def search_state(
    search_id: SearchId, request: Request, state: State, me: MaybeMe, accounts: AccountsDep
) -> dict[str, Any]:
    """``{state, looking, waited, ...}``; seated: ``table``, ``seat`` and ``token`` too."""
    return await _seated(await state.pairing.state(search_id), request, accounts, me)


@router.delete(
    "/api/pairing/{search_id}", status_code=204, summary="Stop looking", response_class=Response
)
async def cancel_search(search_id: SearchId, state: State) -> Response:
    """204 whatever the search's state was (a seated search stays seated: leave the table)."""
    await state.pairing.cancel(search_id)
    return Response(status_code=204)


@router.get("/api/looking", summary="How many people look for people to play, by game")
async def looking(state: State) -> dict[str, Any]:
    """``{games: {game: N}, online: N}``: the fresh searches and the posted seeks of each game,
    and the websockets open to this process (the lobby feed pushes the same counts)."""
    return await state.seeks.looking()
