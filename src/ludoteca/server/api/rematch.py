"""``/api/tables/{id}/rematch``: at the end of a match, offer the same people a new table,
accept the offer, decline it, or read it (``lobby/rematch.py``; docs/protocol.md#rematch).

Accepting (or offering) answers the person's seat and token at the new table, as a join
would; once everyone has accepted, the answer that completed it created the table. A rated
match's rematch is rated, the accounts that held seats hold theirs at the new table, and its
chat allows free text when the host's table did."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Header, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from ludoteca.server.accounts.service import Accounts
from ludoteca.server.chat import Chat
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.rematch import Rematches, rematch_token
from ludoteca.server.storage import RematchRow
from ludoteca.server.table.table import Table
from ludoteca.server.table.views import rematch_json, rotated

from .accounts import AccountsDep
from .deps import LobbyDep, State, bearer, links, rate_limit

router = APIRouter(tags=["tables"])

Authorization = Annotated[str | None, Header(max_length=256)]


class WantRematch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bots: StrictBool = Field(
        False,
        description="after an offer that ended because people declined or left: a bot takes "
        "each of their seats in the new offer (false: everyone is asked again)",
    )


def rematches(lobby: Lobby, accounts: Accounts, chat: Chat) -> Rematches:
    """The lobby's rematches, with what the accounts and the chat do before a new table is
    created."""

    async def prepare(row: RematchRow, table: Table) -> None:
        players = len(row.answers)

        def moved(seat: int, token: str) -> tuple[int, str]:
            return rotated(seat, players), rematch_token(token, row.new_table)

        if row.rated:
            await accounts.mark_rated(row.new_table, table.game.spec.id)
        await accounts.carry_seats(table.id, row.new_table, moved)
        await chat.configure(row.new_table, await chat.text_allowed(table.id))

    return Rematches(lobby, prepare)


@router.post(
    "/api/tables/{table_id}/rematch",
    summary="Offer a rematch, or accept the one offered",
    dependencies=[Depends(rate_limit("create"))],
)
async def want_rematch(  # noqa: PLR0917
    table_id: str,
    request: Request,
    lobby: LobbyDep,
    accounts: AccountsDep,
    state: State,
    body: Annotated[WantRematch | None, Body()] = None,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """``{rematch, table, seat, token}``: the offer after this answer, and your seat and token
    at the new table (``table``), which exists once ``rematch.state`` is ``accepted``."""
    rated = await accounts.is_rated(table_id[:64])
    bots = body is not None and body.bots
    done = await rematches(lobby, accounts, state.chat).want(
        table_id, bearer(authorization), rated=rated, bots=bots
    )
    now = lobby.services.now()
    return {
        "rematch": rematch_json(done.row, now),
        "table": done.row.new_table,
        "seat": done.seat,
        "token": done.token,
        **links(request, done.row.new_table),
    }


@router.delete(
    "/api/tables/{table_id}/rematch", summary="Decline the rematch offered", status_code=200
)
async def decline_rematch(
    table_id: str,
    lobby: LobbyDep,
    accounts: AccountsDep,
    state: State,
    authorization: Authorization = None,
) -> dict[str, Any]:
    """``{rematch}``: the offer, declined (it lapses for everyone); 409 ``no_rematch`` when
    no offer is live."""
    offers = rematches(lobby, accounts, state.chat)
    await offers.decline(table_id, bearer(authorization))
    return {"rematch": await offers.state(table_id)}


@router.get("/api/tables/{table_id}/rematch", summary="The rematch offered at a table's end")
async def rematch_state(
    table_id: str, lobby: LobbyDep, accounts: AccountsDep, state: State
) -> dict[str, Any]:
    """``{rematch}``: null when none was offered."""
    return {"rematch": await rematches(lobby, accounts, state.chat).state(table_id)}
