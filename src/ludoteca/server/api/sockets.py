"""The websockets: play at a table (``/ws/tables/{id}``) and follow the lobby (``/ws/lobby``).

A websocket is admitted only within the caller's rate and the connection caps; otherwise the
handshake is answered with HTTP 429 (``Retry-After``) and no connection opens.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import APIRouter, Query, WebSocket
from fastapi.responses import JSONResponse

from ludoteca.server.accounts.service import COOKIE
from ludoteca.server.messages import CloseCode, ErrorCode
from ludoteca.server.realtime.connection import Connection, LobbyFeed

from .deps import AppState, Client, State

router = APIRouter()


async def _deny(websocket: WebSocket, code: ErrorCode, message: str, retry_after: float) -> None:
    headers = {"Retry-After": str(int(retry_after))}
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(
            JSONResponse({"error": code, "message": message}, status_code=429, headers=headers)
        )
        return
    await websocket.accept()  # a server without denial responses: say it, then close
    await websocket.send_json({"type": "error", "code": code, "message": message, "version": None})
    await websocket.close(CloseCode.TRY_LATER, message[:120])


@asynccontextmanager
async def admitted(websocket: WebSocket, state: AppState, client: str) -> AsyncIterator[bool]:
    wait = state.caps.cooling_for(client)
    if wait is not None:
        message = "this address flooded a websocket: wait before connecting again"
        await _deny(websocket, ErrorCode.RATE_LIMITED, message, max(1.0, wait))
        yield False
        return
    wait = await state.limits.hit("websocket", client)
    if wait is not None:
        await _deny(websocket, ErrorCode.RATE_LIMITED, "too many connections opened", wait)
        yield False
        return
    refused = state.caps.admit(client)
    if refused is not None:
        await _deny(websocket, ErrorCode.TOO_MANY_CONNECTIONS, refused, 5)
        yield False
        return
    try:
        await websocket.accept()
        state.connections.add(websocket)
        yield True
    finally:
        state.connections.discard(websocket)
        state.caps.release(client)


def same_site(websocket: WebSocket) -> bool:
    """Whether the handshake came from this site's own pages (or from no page at all: a browser
    always names the page's origin): the session cookie is read only then, so another site's
    page cannot chat under its visitor's account (docs/accounts.md#table-chat)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return origin.strip().lower() == f"{scheme}://{websocket.headers.get('host', '')}".lower()


@router.websocket("/ws/tables/{table_id}")
async def play(websocket: WebSocket, table_id: str, state: State, client: Client) -> None:
    async with admitted(websocket, state, client) as ok:
        if ok:
            cookie = websocket.cookies.get(COOKIE) if same_site(websocket) else None
            session = await state.accounts.session(cookie)
            account = (session.account.id, session.account.name) if session else None
            connection = Connection(
                websocket, state.lobby, state.settings, state.chat, account, client
            )
            await connection.serve(table_id)
            if connection.reader.flooded:
                state.caps.cool(client, state.settings.flood_cooldown)


@router.websocket("/ws/lobby")
async def follow_lobby(
    websocket: WebSocket,
    state: State,
    client: Client,
    game: Annotated[str | None, Query(max_length=64)] = None,
    looking: bool = False,
) -> None:
    """``?looking=true``: the counts of people looking too (``{"type": "looking"}``)."""
    async with admitted(websocket, state, client) as ok:
        if ok:
            cookie = websocket.cookies.get(COOKIE) if same_site(websocket) else None
            session = await state.accounts.session(cookie)
            kept = await state.social.unheard(session.account.id) if session else frozenset()
            feed = LobbyFeed(
                websocket, state.lobby, state.settings, game, state.seeks, kept, looking
            )
            await feed.serve()
            if feed.reader.flooded:
                state.caps.cool(client, state.settings.flood_cooldown)
