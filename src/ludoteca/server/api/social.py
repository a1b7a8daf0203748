"""Friends and blocking over HTTP (JSON in and out, signed in): follow and unfollow by name,
remove a follower, block and unblock, the privacy setting, invite a friend to a table, report a
person, a table or a message; and the personal feed ``/ws/me`` (presence, invitations).
The rules are docs/accounts.md#friends-and-blocking; the wire is docs/protocol.md."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from ludoteca.server.accounts.origin import own_origin
from ludoteca.server.accounts.service import COOKIE
from ludoteca.server.chat import author_of
from ludoteca.server.messages import CloseCode, ErrorCode, Rejected
from ludoteca.server.notify.invites import tell_invite
from ludoteca.server.social.service import MAX_NOTE, REASONS

from .accounts import Me
from .deps import AppState, Client, State, rate_limit
from .sockets import admitted

router = APIRouter(tags=["friends"])
SESSION_CHECK = 30.0  # seconds between two looks at a feed's session
Name = Annotated[StrictStr, Field(min_length=1, max_length=64)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Person(_Body):
    name: Name


class Privacy(_Body):
    hide_online: StrictBool


class Invite(_Body):
    name: Name
    table: Annotated[StrictStr, Field(min_length=1, max_length=32)]


class Report(_Body):
    kind: Literal["account", "table", "message"]
    name: Name | None = Field(None, description="whom (for a message: its author)")
    table: Annotated[StrictStr, Field(max_length=32)] | None = None
    message: Annotated[StrictStr, Field(max_length=64)] | None = None
    reason: Literal[REASONS] = Field(description=", ".join(REASONS))  # type: ignore[valid-type]
    note: Annotated[StrictStr, Field(max_length=MAX_NOTE)] = ""


@router.get("/api/friends", summary="Whom I follow (online, tables), my followers, my blocks")
async def friends(me: Me, state: State) -> dict[str, Any]:
    following = await state.social.run(state.social.store.following, me.account.id)
    online = await state.feed.online(i for i, _ in following)
    return await state.social.friends(me.account, online)


@router.post("/api/friends", status_code=204, summary="Follow a person by name")
async def follow(body: Person, me: Me, state: State) -> Response:
    await state.social.follow(me.account, body.name)
    return Response(status_code=204)


@router.delete("/api/friends/{name}", status_code=204, summary="Stop following a person")
async def unfollow(name: str, me: Me, state: State) -> Response:
    await state.social.unfollow(me.account, name)
    return Response(status_code=204)


@router.delete("/api/followers/{name}", status_code=204, summary="Remove a follower")
async def remove_follower(name: str, me: Me, state: State) -> Response:
    await state.social.remove_follower(me.account, name)
    return Response(status_code=204)


@router.post("/api/blocks", status_code=204, summary="Block a person by name")
async def block(body: Person, me: Me, state: State) -> Response:
    await state.social.block(me.account, body.name)
    return Response(status_code=204)


@router.delete("/api/blocks/{name}", status_code=204, summary="Unblock a person")
async def unblock(name: str, me: Me, state: State) -> Response:
    await state.social.unblock(me.account, name)
    return Response(status_code=204)


@router.put("/api/me/privacy", status_code=204, summary="Hide (or show) my online status")
async def privacy(body: Privacy, me: Me, state: State) -> Response:
    await state.social.set_hide_online(me.account, body.hide_online)
    return Response(status_code=204)


@router.post(
    "/api/invites",
    status_code=204,
    summary="Invite a person to a table by name (a notice on their pages, push or mail)",
    dependencies=[Depends(rate_limit("join"))],
)
async def invite(body: Invite, me: Me, state: State) -> Response:
    them = await state.social.invite(me.account, body.name, body.table)
    if them.id in state.feed.listeners and state.feed.cursor is not None:  # told now, not later
        await state.feed.deliver()
    task = asyncio.create_task(tell_invite(state.notifier, them.id, me.account.name, body.table))
    state.social.pending.add(task)
    task.add_done_callback(state.social.pending.discard)
    return Response(status_code=204)


@router.post("/api/reports", status_code=201, summary="Report a person, a table or a message")
async def report(body: Report, me: Me, state: State) -> dict[str, Any]:
    """A message is named by its table and id; its author is the chat's, whatever ``name``
    says (404 ``no_message`` when the table holds no such message)."""
    author = None
    if body.kind == "message" and body.table and body.message:
        found, author = await author_of(state.chat, body.table, body.message)
        if not found:
            raise Rejected(ErrorCode.NO_MESSAGE, "there is no such message at this table")
    report_id = await state.social.report(
        me.account, body.kind, body.name, body.table, body.message, body.reason, body.note, author
    )
    return {"id": report_id}


@router.websocket("/ws/me")
async def feed(websocket: WebSocket, state: State, client: Client) -> None:
    """A signed-in person's pages: presence while open, and notices (docs/protocol.md). The
    cookie counts only from this site's own pages (``Origin``), so another site's page cannot
    read a person's notices."""
    session = None
    claimed = websocket.headers.get("origin")
    scheme = {"ws": "http", "wss": "https"}.get(websocket.url.scheme, websocket.url.scheme)
    own = own_origin({"scheme": scheme}, websocket.headers)
    if claimed is None or claimed.strip().lower() == own:
        session = await state.accounts.session(websocket.cookies.get(COOKIE))  # not cross-site
    async with admitted(websocket, state, client) as ok:
        if not ok:
            return
        if session is None:
            await websocket.send_json({"type": "signed_out"})
            await websocket.close(CloseCode.NOT_SIGNED_IN, "sign in first")
            return
        account_id = session.account.id
        outbox = state.feed.join(account_id)
        try:
            await websocket.send_json({"type": "welcome", "name": session.account.name})
            token = websocket.cookies.get(COOKIE)
            await wait_first(_send(websocket, outbox, state, token), _drain(websocket))
        finally:
            state.feed.leave(account_id, outbox)
            with contextlib.suppress(Exception):
                await websocket.close()


async def wait_first(*jobs: Any) -> None:
    """Run the coroutines until the first ends; cancel the others."""
    tasks = [asyncio.create_task(job) for job in jobs]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _send(
    websocket: WebSocket, outbox: asyncio.Queue[dict[str, Any]], state: AppState, token: str | None
) -> None:
    """Send the notices; every ``SESSION_CHECK`` seconds look whether the session still
    lives (a suspension on another process ends it there): if not, say so and stop."""
    while True:
        try:
            notice = await asyncio.wait_for(outbox.get(), SESSION_CHECK)
        except TimeoutError:
            if await state.accounts.session(token) is not None:
                continue
            notice = {"type": "signed_out"}
        await websocket.send_json(notice)
        if notice["type"] == "signed_out":
            return


async def _drain(websocket: WebSocket) -> None:
    """The page says nothing on this socket; reading notices its close."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.receive_text()
