"""Password reset over HTTP (docs/accounts.md#password-reset): ask for a link by name or e-mail
address (202, the same answer whoever it names), ask whom a link is for, and set the new password
with it (200 with the session cookie, as a sign-in). Cross-site requests are refused as a
sign-in's are (``accounts/origin.py``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ludoteca.server.accounts.reset import RESET_SECONDS, PasswordResets
from ludoteca.server.accounts.rules import MAX_ADDRESS, MAX_PASSWORD
from ludoteca.server.messages import ErrorCode, Rejected
from ludoteca.server.notify.wording import lang_of

from .accounts import browser_of, with_session
from .deps import Client, State

router = APIRouter(tags=["accounts"])
ASKED = {
    "message": "if an account has this name or this confirmed e-mail address, a link to set a "
    f"new password is on its way there; it works once, for {RESET_SECONDS / 60:.0f} minutes",
}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Ask(_Body):
    who: Annotated[
        StrictStr, Field(min_length=1, max_length=MAX_ADDRESS, description="a name or an address")
    ]
    lang: Annotated[StrictStr, Field(max_length=8)] = "en"


class Link(_Body):
    token: Annotated[StrictStr, Field(max_length=300, description="the mailed link's token")]


class NewPassword(Link):
    password: Annotated[StrictStr, Field(max_length=MAX_PASSWORD)]


async def get_resets(state: State) -> PasswordResets:
    if state.resets is None or not state.notifier.mail_on:
        raise Rejected(ErrorCode.NOT_FOUND, "this server sends no e-mail, so no reset links")
    return state.resets


Resets = Annotated[PasswordResets, Depends(get_resets)]


@router.post(
    "/api/password-reset",
    status_code=202,
    summary="Mail a link to set a new password (the same answer whether anyone has the name)",
)
async def ask(body: Ask, resets: Resets, client: Client) -> dict[str, Any]:
    await resets.ask(body.who, lang_of(body.lang), client)
    return ASKED


@router.post(
    "/api/password-reset/account",
    summary="Whose password a reset link sets (400 bad_reset_link: used, expired or forged)",
)
async def whose(body: Link, resets: Resets) -> dict[str, Any]:
    account = await resets.account(body.token)
    return {"name": account.name}


@router.post(
    "/api/password-reset/password",
    summary="Set the new password with the link: every session ends, this browser signs in",
)
async def set_password(
    body: NewPassword, request: Request, resets: Resets, client: Client
) -> JSONResponse:
    signed = await resets.finish(body.token, body.password, client, browser_of(request))
    return with_session(request, signed)
