"""What every route may ask for: the app's state (a typed object on ``app.state``), the lobby,
the settings, storage, the caller's address, and its rate limit.

The dependencies are ``async def`` although none of them waits: FastAPI runs a plain ``def``
dependency on a worker thread, a hand-over per dependency per request or websocket."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocket

from ludoteca.server.analysis.queue import Analyst
from ludoteca.server.chat import Chat
from ludoteca.server.cluster.checks import Watch
from ludoteca.server.config import Settings
from ludoteca.server.guards.limits import ConnectionCaps, RateLimits
from ludoteca.server.lobby.deadlines import Deadlines
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.pairing import Pairing
from ludoteca.server.lobby.seeks import Seeks
from ludoteca.server.messages import ErrorCode, TooMany
from ludoteca.server.publog import PublicLog
from ludoteca.server.storage import Storage
from ludoteca.server.table.bot_runner import BotRunner

if TYPE_CHECKING:
    from ludoteca.server.accounts.reset import PasswordResets
    from ludoteca.server.accounts.service import Accounts
    from ludoteca.server.notify.notifier import Notifier
    from ludoteca.server.social.desk import Desk
    from ludoteca.server.social.feed import Feed
    from ludoteca.server.social.service import Social


@dataclass
class AppState:
    """Everything one server process holds, built at start-up and stored on ``app.state``."""

    settings: Settings
    storage: Storage
    bots: BotRunner
    lobby: Lobby
    limits: RateLimits
    caps: ConnectionCaps
    watch: Watch
    accounts: Accounts
    analyst: Analyst
    notifier: Notifier
    deadlines: Deadlines
    publog: PublicLog
    chat: Chat
    pairing: Pairing
    seeks: Seeks
    social: Social
    feed: Feed
    desk: Desk
    resets: PasswordResets | None = None
    connections: set[WebSocket] = field(default_factory=set)


async def app_state(connection: HTTPConnection) -> AppState:
    state: AppState = connection.app.state.ludoteca
    return state


async def client_address(connection: HTTPConnection) -> str:
    return connection.client.host if connection.client else "unknown"


State = Annotated[AppState, Depends(app_state)]
Client = Annotated[str, Depends(client_address)]


async def get_lobby(state: State) -> Lobby:
    return state.lobby


async def get_settings(state: State) -> Settings:
    return state.settings


LobbyDep = Annotated[Lobby, Depends(get_lobby)]


def rate_limit(action: str) -> Callable[[State, Client], Awaitable[None]]:
    """A dependency counting one ``action`` for the caller's address (429 over the limit)."""

    async def check(state: State, client: Client) -> None:
        wait = await state.limits.hit(action, client)
        if wait is not None:
            raise TooMany(
                ErrorCode.RATE_LIMITED,
                f"too many requests to {action} from your address: try again in {wait:.0f} s",
                wait,
            )

    return check


def bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def links(request: Request, table_id: str) -> dict[str, Any]:
    """The invite link and the websocket of a table. Asked from this machine's own browser
    (localhost) while the server listens on the network, they name the network address: an
    invite that says localhost would lead a friend's phone nowhere."""
    base = str(request.base_url).rstrip("/")
    share = request.app.state.ludoteca.settings.share_url
    if share and request.url.hostname in LOOPBACK_HOSTS:
        base = share.rstrip("/")
    return {
        "invite": f"{base}/table/{table_id}",
        "websocket": f"{base.replace('http', 'ws', 1)}/ws/tables/{table_id}",
    }
