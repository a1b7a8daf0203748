"""What taking a seat needs at more than one route: an account holds one seat of a table, the
browser's device cookie (given when missing), and sitting at a seek's table with its rules
(``POST /api/seeks/{id}/take``, and a join of a seek's table)."""

from __future__ import annotations

from typing import Any, TypeVar

from fastapi import Request, Response

from ludoteca.server.accounts.devices import (
    DEVICE,
    DEVICE_PATH,
    DEVICE_SECONDS,
    device_digest,
    this_device,
)
from ludoteca.server.accounts.play import already_seated
from ludoteca.server.accounts.rows import Account, Session
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.seeks import Seeker

from .deps import AppState, links

ResponseT = TypeVar("ResponseT", bound=Response)


def keep_device(
    response: ResponseT, request: Request, cookie: str, device: str | None
) -> ResponseT:
    """The answer, giving the browser its device cookie when it came without one."""
    if cookie != device:
        secure = request.url.scheme == "https"
        response.set_cookie(
            DEVICE,
            cookie,
            max_age=DEVICE_SECONDS,
            path=DEVICE_PATH,
            secure=secure,
            httponly=True,
            samesite="strict",
        )
    return response


async def one_seat(lobby: Lobby, accounts: Accounts, account: Account, table_id: str) -> None:
    """``already_seated`` when the account still holds a seat of this table."""
    held = await accounts.seat_at(account, table_id)
    if held is None:
        return
    table = await lobby.residency.peek(table_id)
    if table.seat_for_token(held.token) == held.seat:
        raise already_seated(held.seat)
    await accounts.release_seat(table_id, held.seat, held.token, left=False)  # left behind


def seeker(me: Session | None, name: str, device: str, rating: float | None = None) -> Seeker:
    """Who posts or takes a seek; ``rating`` the account's at the game, when given."""
    account = me.account if me is not None else None
    return Seeker(
        name=account.name if account is not None else name,
        account=account.id if account is not None else None,
        device=device_digest(device),
        rating=rating,
    )


async def take(  # noqa: PLR0917
    table_id: str,
    name: str,
    request: Request,
    response: Response,
    me: Session | None,
    accounts: Accounts,
    device: str | None,
) -> dict[str, Any]:
    """Sit at the seek's table with its rules (also what joining a seek's table does)."""
    state: AppState = request.app.state.ludoteca
    cookie = this_device(device)
    keep_device(response, request, cookie, device)
    row = await state.seeks.load(table_id)
    table_id = row.table_id or table_id
    if me is not None:
        await one_seat(state.lobby, accounts, me.account, table_id)
    who = seeker(me, name, cookie)
    seat, token = await state.seeks.take(table_id, who)
    if me is not None:
        await accounts.hold_seat(me.account, table_id, seat, token)
    table = await state.lobby.residency.peek(table_id)
    summary = table.summary() | {"rated": row.rated}
    return {"table": summary, "seat": seat, "token": token, **links(request, table_id)}
