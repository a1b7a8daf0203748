"""Accounts over HTTP (JSON in and out): sign up and in with a password or a passkey, the
session, what the server holds about me (export, deletion), my tables, profiles and leaderboards.
The security model is docs/accounts.md."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ludoteca.games import all_games
from ludoteca.server.accounts.devices import DEVICE, DEVICE_PATH, DEVICE_SECONDS
from ludoteca.server.accounts.rows import Browser, Session, SignedIn
from ludoteca.server.accounts.rules import MAX_PASSWORD
from ludoteca.server.accounts.service import COOKIE, MARK, Accounts
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.messages import MAX_TOKEN, ErrorCode, Rejected
from ludoteca.server.table.table import Table

from .deps import Client, LobbyDep, State

router = APIRouter(tags=["accounts"])


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Body):
    name: Annotated[StrictStr, Field(max_length=64, description="2 to 24 characters")]
    password: Annotated[StrictStr, Field(max_length=MAX_PASSWORD)]


class PasskeyStart(_Body):
    name: Annotated[StrictStr, Field(max_length=64)] | None = Field(
        None, description="the new account's name (omit when signed in: a further passkey)"
    )


class PasskeyCredential(_Body):
    credential: dict[str, Any] = Field(
        description="the PublicKeyCredential as JSON (ids and buffers in base64url)"
    )


class HeldSeat(_Body):
    table: Annotated[StrictStr, Field(max_length=32)]
    token: Annotated[StrictStr, Field(max_length=MAX_TOKEN)]


class KeepSeats(_Body):
    seats: Annotated[list[HeldSeat], Field(max_length=50)]


async def seats_held(lobby: Lobby, seats: list[HeldSeat]) -> list[tuple[Table, int, HeldSeat]]:
    """The tables and seats that these (table, token) pairs hold, in their order; a pair naming
    no table, or a token that holds no seat there, is passed over."""
    found = []
    for held in seats:
        try:
            table = await lobby.residency.peek(held.table)
        except Rejected:
            continue
        seat = table.seat_for_token(held.token)
        if seat is not None:
            found.append((table, seat, held))
    return found


async def get_accounts(state: State) -> Accounts:
    return state.accounts


AccountsDep = Annotated[Accounts, Depends(get_accounts)]


async def current_session(request: Request, accounts: AccountsDep) -> Session | None:
    return await accounts.session(request.cookies.get(COOKIE))


async def signed_in(session: Annotated[Session | None, Depends(current_session)]) -> Session:
    if session is None:
        raise Rejected(ErrorCode.NOT_SIGNED_IN, "sign in first")
    return session


MaybeMe = Annotated[Session | None, Depends(current_session)]
Me = Annotated[Session, Depends(signed_in)]


def origin_of(request: Request) -> tuple[str, str]:
    """This server as the browser sees it: the passkeys' relying party id and origin."""
    url = request.url
    return url.hostname or "localhost", f"{url.scheme}://{url.netloc}"


def browser_of(request: Request) -> Browser:
    """The cookies a sign-in reads: the session it replaces and the browser's device cookie."""
    return Browser(request.cookies.get(COOKIE), request.cookies.get(DEVICE))


def with_session(request: Request, signed: SignedIn, status: int = 200) -> JSONResponse:
    """The new session's cookies, and the browser's device cookie (docs/accounts.md), kept
    after signing out: the browser stays known to the accounts that signed in on it."""
    response = JSONResponse({"name": signed.account.name}, status_code=status)
    settings = request.app.state.ludoteca.settings
    secure = request.url.scheme == "https"
    lifetime = int(settings.session_max_seconds)
    # name, value, lifetime, path, whether scripts may not read it, SameSite
    cookies: list[tuple[str, str, int, str, bool, Literal["lax", "strict"]]] = [
        (COOKIE, signed.token, lifetime, "/", True, "lax"),
        (MARK, "1", lifetime, "/", False, "lax"),
        (DEVICE, signed.device, DEVICE_SECONDS, DEVICE_PATH, True, "strict"),
    ]
    for name, value, max_age, path, httponly, samesite in cookies:
        response.set_cookie(
            name,
            value,
            max_age=max_age,
            path=path,
            httponly=httponly,
            samesite=samesite,
            secure=secure,
        )
    return response


def signed_out(request: Request) -> Response:
    response = Response(status_code=204)
    secure = request.url.scheme == "https"
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure)
    response.delete_cookie(MARK, path="/", samesite="lax", secure=secure)
    return response


# -------------------------------------------------------------------------- passwords
@router.post(
    "/api/accounts",
    status_code=201,
    summary="Sign up with a name and a password (201 with the session cookie)",
)
async def sign_up(
    body: Credentials, request: Request, accounts: AccountsDep, client: Client
) -> JSONResponse:
    signed = await accounts.sign_up(body.name, body.password, client, browser_of(request))
    return with_session(request, signed, 201)


@router.post(
    "/api/session",
    summary="Sign in with a name and a password (401 bad_login for either being wrong)",
)
async def sign_in(
    body: Credentials, request: Request, accounts: AccountsDep, client: Client
) -> JSONResponse:
    signed = await accounts.sign_in(body.name, body.password, client, browser_of(request))
    return with_session(request, signed)


@router.get(
    "/api/session",
    summary="Whether this browser is signed in, and as whom (never 401: for pages to ask)",
)
async def session_state(session: MaybeMe) -> dict[str, Any]:
    return {"name": None if session is None else session.account.name}


@router.delete("/api/session", status_code=204, summary="Sign out (this session)")
async def sign_out(request: Request, me: Me, accounts: AccountsDep) -> Response:
    await accounts.sign_out(me)
    return signed_out(request)


@router.delete("/api/sessions", status_code=204, summary="Sign out everywhere (every session)")
async def sign_out_everywhere(request: Request, me: Me, accounts: AccountsDep) -> Response:
    await accounts.sign_out_everywhere(me.account)
    return signed_out(request)


# --------------------------------------------------------------------------- passkeys
@router.post(
    "/api/passkeys/options",
    summary="Start making a passkey: for a new account (name) or the signed-in one",
)
async def passkey_options(
    body: PasskeyStart, request: Request, accounts: AccountsDep, me: MaybeMe, client: Client
) -> dict[str, Any]:
    if me is None:
        await accounts.limit_signup(client)
    rp_id, _ = origin_of(request)
    return await accounts.passkey_options(
        rp_id, name=body.name, account=None if me is None else me.account
    )


@router.post(
    "/api/passkeys",
    status_code=201,
    summary="Finish making a passkey (201 with the session cookie)",
)
async def add_passkey(
    body: PasskeyCredential, request: Request, accounts: AccountsDep
) -> JSONResponse:
    rp_id, origin = origin_of(request)
    signed = await accounts.register_passkey(body.credential, rp_id, origin, browser_of(request))
    return with_session(request, signed, 201)


@router.post("/api/passkeys/login-options", summary="Start signing in with a passkey")
async def passkey_login_options(request: Request, accounts: AccountsDep) -> dict[str, Any]:
    rp_id, _ = origin_of(request)
    return await accounts.login_options(rp_id)


@router.post("/api/passkeys/login", summary="Sign in with a passkey (200 with the cookie)")
async def passkey_login(
    body: PasskeyCredential, request: Request, accounts: AccountsDep, client: Client
) -> JSONResponse:
    rp_id, origin = origin_of(request)
    signed = await accounts.login_passkey(
        body.credential, rp_id, origin, client, browser_of(request)
    )
    return with_session(request, signed)


# --------------------------------------------------------------------------------- me
@router.get("/api/me", summary="Who is signed in (401 when nobody)")
async def me(me: Me) -> dict[str, Any]:
    return {"name": me.account.name, "password": me.account.password_hash is not None}


@router.delete(
    "/api/me",
    status_code=204,
    summary="Delete my account: sessions, passkeys, ratings and the link to my matches",
)
async def delete_me(request: Request, me: Me, accounts: AccountsDep) -> Response:
    await accounts.delete(me.account)
    return signed_out(request)


@router.get("/api/me/export", summary="Everything the server holds about me, as JSON")
async def export(me: Me, accounts: AccountsDep, state: State) -> JSONResponse:
    found = await accounts.export(me.account)
    found["friends"] = await state.social.export(me.account)
    return JSONResponse(
        found,
        headers={"Content-Disposition": 'attachment; filename="ludoteca-account.json"'},
    )


@router.get("/api/me/tables", summary="My tables, newest first, with each seat's token")
async def my_tables(me: Me, accounts: AccountsDep) -> list[dict[str, Any]]:
    return await accounts.my_tables(me.account)


@router.post(
    "/api/me/seats",
    summary="Keep the seats this browser holds (a guest who signs up keeps them)",
)
async def keep_seats(
    body: KeepSeats, me: Me, accounts: AccountsDep, lobby: LobbyDep
) -> dict[str, Any]:
    kept = []
    for table, seat, held in await seats_held(lobby, body.seats):
        try:
            await accounts.hold_seat(me.account, table.id, seat, held.token)
        except Rejected:  # already_seated: an account keeps one seat of a table
            continue
        kept.append({"table": table.id, "seat": seat})
    return {"kept": kept}


# -------------------------------------------------------------- profiles, leaderboards
@router.get(
    "/api/players/{name}",
    summary="A player's profile: ratings per game with their history, recent matches",
)
async def player(name: str, accounts: AccountsDep) -> dict[str, Any]:
    return await accounts.profile(name)


@router.get("/api/leaderboard/{game_id}", summary="The best ratings in a game (mu - 3 sigma)")
async def leaderboard(
    game_id: str,
    accounts: AccountsDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    if game_id not in all_games():
        raise Rejected(ErrorCode.NO_GAME, f"there is no game '{game_id[:64]}'")
    return {"game": game_id, "players": await accounts.leaderboard(game_id, limit)}
