"""'Your turn' notifications over HTTP (docs/turn-based.md): what the server offers, a device's
push subscription (for the signed-in account, or for one seat by its token), an account's e-mail
address (confirmed by a mailed link), one-click unsubscribe by a signed link, and the state of
the seats a browser holds ("my tables": whose turn, until when).

Subscribing needs the session (a cookie: the same-origin rule of every signed-in request,
``accounts/origin.py``) or the seat's token; unsubscribing needs the link the server signed."""

from __future__ import annotations

import time
from html import escape
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, StrictStr

from ludoteca.server.accounts.rules import RuleError, check_address
from ludoteca.server.messages import MAX_TOKEN, ErrorCode, Rejected, Status
from ludoteca.server.notify.notifier import Notifier, offer
from ludoteca.server.notify.push import BadSubscription, allowed_endpoint, allowed_keys
from ludoteca.server.notify.wording import lang_of, words, zone_of
from ludoteca.server.site.pages import accepted_language

from .accounts import HeldSeat, MaybeMe, Me, seats_held
from .deps import Client, LobbyDep, State, rate_limit

router = APIRouter(tags=["notifications"])


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Keys(_Body):
    p256dh: Annotated[StrictStr, Field(max_length=128)]
    auth: Annotated[StrictStr, Field(max_length=64)]


class Subscription(_Body):
    endpoint: Annotated[StrictStr, Field(max_length=2048)]
    keys: Keys
    lang: Annotated[StrictStr, Field(max_length=8)] = "en"
    zone: Annotated[StrictStr, Field(max_length=64, description="IANA time zone")] = "UTC"
    table: Annotated[StrictStr, Field(max_length=32)] | None = Field(
        None, description="a guest's seat: the table, with the seat's token"
    )
    token: Annotated[StrictStr, Field(max_length=MAX_TOKEN)] | None = None


class MailAddress(_Body):
    address: Annotated[StrictStr, Field(max_length=254)]
    lang: Annotated[StrictStr, Field(max_length=8)] = "en"
    zone: Annotated[StrictStr, Field(max_length=64)] = "UTC"


class Seats(_Body):
    seats: Annotated[list[HeldSeat], Field(max_length=50)]


async def get_notifier(state: State) -> Notifier:
    return state.notifier


NotifierDep = Annotated[Notifier, Depends(get_notifier)]
Limited = Depends(rate_limit("notify"))


@router.get("/api/notify", summary="What notifications this server sends (push key, mail)")
async def offered(notifier: NotifierDep) -> dict[str, object]:
    return offer(notifier.settings, notifier.keys)


@router.post(
    "/api/notify/push",
    status_code=201,
    dependencies=[Limited],
    summary="Push 'your turn' to this device: for my account (session) or one seat (token)",
)
async def subscribe(
    body: Subscription, me: MaybeMe, notifier: NotifierDep, lobby: LobbyDep
) -> dict[str, Any]:
    if not notifier.push_on:
        raise Rejected(ErrorCode.NOT_FOUND, "this server sends no push notifications")
    try:
        endpoint = allowed_endpoint(body.endpoint, notifier.settings)
        p256dh, auth = allowed_keys(body.keys.p256dh, body.keys.auth)
    except BadSubscription as exc:
        raise Rejected(ErrorCode.BAD_REQUEST, str(exc)) from None
    seat: tuple[str, int] | None = None
    if body.table is not None:
        table = await lobby.residency.peek(body.table)
        number = table.seat_for_token(body.token)
        if number is None:
            raise Rejected(ErrorCode.BAD_TOKEN, "that token holds no seat at this table")
        seat = (table.id, number)
    elif me is None:
        raise Rejected(ErrorCode.NOT_SIGNED_IN, "sign in, or name a seat and its token")
    store = notifier.store
    sub_id = await store.run(
        store.add_push,
        (endpoint, p256dh, auth),
        lang_of(body.lang),
        zone_of(body.zone),
        time.time(),
        account_id=None if seat else me.account.id if me else None,
        seat=seat,
    )
    return {"id": sub_id, "unsubscribe": notifier.keys.sign("push", sub_id)}


@router.get("/api/notify/unsubscribe", include_in_schema=False)
async def unsubscribe_page(t: str, request: Request) -> HTMLResponse:
    """A link opened in a browser asks first (mail scanners open links too); the button posts."""
    said = words(accepted_language(request.headers.get("accept-language", "")))
    form = (
        f'<form method="post" action="/api/notify/unsubscribe?t={escape(t[:300])}">'
        f'<button type="submit">{escape(said["stop"])}</button></form>'
    )
    return _page(said["unsubscribe_ask"], form)


@router.post(
    "/api/notify/unsubscribe",
    dependencies=[Limited],
    summary="One-click unsubscribe (RFC 8058) with the link's signed token",
)
async def unsubscribe(t: str, request: Request, notifier: NotifierDep) -> Response:
    said = words(accepted_language(request.headers.get("accept-language", "")))
    store = notifier.store
    sub_id = notifier.keys.verify(t[:300], "push")
    account_id = notifier.keys.verify(t[:300], "mail")
    if sub_id is not None:
        await store.run(store.drop_push, sub_id)
    elif account_id is not None:
        await store.run(store.drop_mail, account_id)
    else:
        raise Rejected(ErrorCode.BAD_TOKEN, "this unsubscribe link was not made by this server")
    if "application/json" in request.headers.get("accept", ""):
        return Response(status_code=204)
    return _page(said["unsubscribed"], "")


@router.get("/api/notify/confirm", include_in_schema=False)
async def confirm(t: str, request: Request, notifier: NotifierDep) -> HTMLResponse:
    said = words(accepted_language(request.headers.get("accept-language", "")))
    found = notifier.keys.verify(t[:600], "confirm")
    account_id, _, rest = (found or "").partition("|")
    expires, _, address = rest.partition("|")
    store = notifier.store
    if (
        found is None
        or not expires.isdigit()
        or int(expires) < time.time()
        or not await store.run(store.confirm_mail, account_id, address, time.time())
    ):
        return _page(said["bad_link"], "", status=400)
    return _page(said["confirmed"], "")


# --------------------------------------------------------------------------- account
@router.get("/api/me/notify", summary="My notifications: the address, whether confirmed, devices")
async def my_notifications(me: Me, notifier: NotifierDep) -> dict[str, Any]:
    store = notifier.store
    mail = await store.run(store.mail_of, me.account.id)
    devices = await store.run(store.push_count, me.account.id)
    return {
        "mail": None if mail is None else mail.address,
        "confirmed": bool(mail and mail.confirmed),
        "devices": devices,
    }


@router.put(
    "/api/me/notify/mail",
    status_code=202,
    summary="Be told by e-mail (a link is mailed to confirm the address is mine)",
)
async def set_mail(
    body: MailAddress, me: Me, notifier: NotifierDep, state: State, client: Client
) -> dict[str, Any]:
    if not notifier.mail_on:
        raise Rejected(ErrorCode.NOT_FOUND, "this server sends no e-mail")
    try:
        address = check_address(body.address)
    except RuleError as exc:
        raise Rejected(ErrorCode.BAD_REQUEST, str(exc)) from None
    for key in (f"account:{me.account.id}", client):
        await rate_limit("notify_mail")(state, key)
    store = notifier.store
    lang = lang_of(body.lang)
    await store.run(store.set_mail, me.account.id, address, lang, zone_of(body.zone), time.time())
    await notifier.confirm(me.account.id, address, lang)
    return {"mail": address, "confirmed": False}


@router.delete("/api/me/notify/mail", status_code=204, summary="No more e-mail")
async def drop_mail(me: Me, notifier: NotifierDep) -> Response:
    await notifier.store.run(notifier.store.drop_mail, me.account.id)
    return Response(status_code=204)


# -------------------------------------------------------------------------- my tables
@router.post(
    "/api/seats",
    dependencies=[Depends(rate_limit("seats"))],
    summary="The state of the seats a browser holds: whose turn, and until when",
)
async def seats_state(body: Seats, lobby: LobbyDep) -> list[dict[str, Any]]:
    found = []
    for table, seat, _ in await seats_held(lobby, body.seats):
        mine = table.status == Status.PLAYING and table.to_move() == seat
        deadline = table.deadline(seat) if mine else None
        found.append(
            {
                "table": table.id,
                "game": table.row.game,
                "status": table.row.status,
                "seat": seat,
                "turn_seconds": table.row.turn_seconds,
                "my_turn": mine,
                "deadline": deadline,
            }
        )
    found.sort(key=lambda s: (not s["my_turn"], s["deadline"] or 0))
    return found


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{escape(title)} · ludoteca</title></head><body><main>"
        f'<h1>{escape(title)}</h1>{body}<p><a href="/">ludoteca</a></p></main></body></html>'
    )
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})
