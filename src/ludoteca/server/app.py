"""The ASGI app: lobby over HTTP (documented in the OpenAPI schema), play over one websocket per
client, the web table as static files. The routes live in ``server/api``; what they share is one
typed :class:`AppState` on ``app.state``, built at start-up."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.websockets import WebSocket

from ludoteca import __version__

from .accounts.origin import OriginCheck
from .accounts.reset import PasswordResets
from .accounts.rows import memory_engine
from .accounts.service import Accounts
from .accounts.store import AccountStore
from .analysis.queue import Analyst
from .api import (
    accounts,
    admin,
    analysis,
    chat,
    games,
    invite,
    notify,
    ops,
    pairing,
    publog,
    records,
    rematch,
    replay,
    reset,
    seeks,
    social,
    sockets,
    tables,
)
from .api.deps import AppState
from .background import Background
from .chat import Chat, DeskChat, Keep, MemoryChatStore, SqlChatStore, WithChat, keep_all
from .cluster.base import Cluster
from .cluster.checks import Watch, storage_label
from .cluster.redis_leases import open_cluster
from .config import Settings
from .guards.limits import BodySizeLimit, ConnectionCaps, RateLimits, StrictJSONBodies
from .lobby.deadlines import Deadlines
from .lobby.lobby import Lobby
from .lobby.residency import Residency
from .logs import log, quiet_protocol_errors
from .messages import CloseCode, ErrorCode, Rejected, TooMany, http_status
from .notify.keys import NotifyKeys
from .notify.notifier import Notifier, offer
from .notify.store import NotifyStore
from .publog import MemoryLogStore, PublicLog, SqlLogStore
from .signing import KeyRing
from .site.pages import mount_web, web_root
from .site.pwa import mount_app_shell
from .social.desk import Desk
from .social.ending import table_ender
from .social.feed import Feed
from .social.service import Social
from .storage import SqlStorage, Storage, TableRow, open_storage
from .table.bot_runner import BotRunner
from .table.services import Services


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    quiet_protocol_errors()
    notify_keys = open_notify_keys(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = open_storage(settings.db_url, label=storage_label(settings))
        bots = BotRunner(processes=settings.bot_processes)
        keys = KeyRing.load(Path(settings.keys_dir)) if settings.keys_dir else KeyRing.ephemeral()
        cluster = open_cluster(settings)
        # the turn clocks run on the database's time: measure this process's skew first
        watch = Watch(storage_label(settings), settings.clock_tolerance)
        with contextlib.suppress(Exception):  # no answer yet: the watch tries again shortly
            await watch.check(storage)
        limits = RateLimits(settings)
        people = open_accounts(storage, limits, settings)
        await people.dummy_hash()
        notifier = Notifier(NotifyStore(people.store.engine), notify_keys, settings)
        resets = PasswordResets(people, notify_keys, notifier.reset_mail)
        public_log = open_publog(storage, keys, watch.now)
        services = Services(
            storage,
            bots,
            settings,
            keys=keys,
            cluster=cluster,
            now=watch.now,
            turns=notifier,
            publog=public_log,
        )
        lobby = Lobby(services)
        analyst = Analyst(
            storage,
            lobby.record,
            workers=settings.analysis_workers,
            iterations=settings.analysis_iterations,
            poll_seconds=settings.analysis_poll_seconds,
            stale_seconds=settings.analysis_stale_seconds,
            now=watch.now,
        )
        services.analyses = analyst
        await lobby.residency.load()
        friends = Social(people, table_status=table_status(lobby))
        chat = open_chat(storage, cluster, limits, watch.now, friends)
        feed = Feed(friends, cluster.name)
        connections: set[WebSocket] = set()
        state = AppState(
            settings=settings,
            storage=storage,
            bots=bots,
            lobby=lobby,
            limits=limits,
            caps=ConnectionCaps(settings.max_connections_per_client, settings.max_connections),
            watch=watch,
            accounts=people,
            analyst=analyst,
            notifier=notifier,
            deadlines=Deadlines(lobby.residency),
            publog=public_log,
            resets=resets,
            pairing=(paired := pairing.pairing_for(lobby, people, friends)),
            seeks=seeks.seeks_for(lobby, paired, people, friends, connections),
            social=friends,
            feed=feed,
            desk=Desk(
                friends, chat=DeskChat(chat), end_table=table_ender(lobby), signed_out=feed.end
            ),
            chat=chat,
            connections=connections,
        )
        app.state.ludoteca = state
        residency = lobby.residency
        tasks = Background()
        tasks.start("sweeper", residency.run_sweeper())
        tasks.start("cluster", cluster.run(WithChat(residency, state.chat)))
        tasks.start("clock_watch", watch.run(storage))
        tasks.start("ratings", people.run(settings.rating_poll_seconds))
        tasks.start("analysis", analyst.run())
        tasks.start("notifications", notifier.run())
        tasks.start("password_resets", resets.run())
        tasks.start("deadlines", state.deadlines.run())
        tasks.start("pairing", state.pairing.run())
        tasks.start("seeks", state.seeks.run())
        tasks.start("publog", public_log.run(storage, lambda: held_rows(residency)))
        tasks.start("feed", feed.run())
        log("server_started", db=storage.dialect, version=__version__, process=cluster.name)
        try:
            yield
        finally:
            log("server_stopping", connections=len(state.connections))
            await tasks.stop()
            analyst.close()
            lobby.residency.shutdown()
            for websocket in list(state.connections):
                await _close_quietly(websocket)
            with contextlib.suppress(Exception):  # the database is away: the rows lapse
                await feed.close()
            # let actions already being stored finish before the database goes away
            for table in list(lobby.residency.tables.values()):
                async with table.lock:
                    pass
            bots.close()
            await cluster.close()  # the others take this process's tables over at once
            await notifier.close()
            await public_log.settle()
            await asyncio.to_thread(public_log.close)
            await asyncio.to_thread(state.chat.store.close)
            await asyncio.to_thread(people.close)
            await storage.close()
            await state.limits.close()
            log("server_stopped")

    app = FastAPI(
        title="ludoteca",
        version=__version__,
        description="Lobby API of the ludoteca table server. Play happens over the websocket "
        "`/ws/tables/{table_id}` (see docs/protocol.md).",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,  # served from the package by site.mount_web: no CDN
    )
    app.add_middleware(StrictJSONBodies)  # inside the size limit: it holds a whole body
    app.add_middleware(
        BodySizeLimit,
        default=settings.max_body_bytes,
        larger={"/api/verify": settings.max_record_bytes, "/api/replay": settings.max_record_bytes},
    )
    app.add_middleware(OriginCheck)
    app.add_exception_handler(Rejected, _rejected)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    for module in (
        games,
        tables,
        rematch,
        pairing,
        seeks,
        invite,
        records,
        publog,
        ops,
        sockets,
        accounts,
        analysis,
        notify,
        reset,
        social,
        admin,
        chat,
    ):
        app.include_router(module.router)
    app.include_router(replay.router)
    page = mount_web(
        app, games.catalogue, offer(settings, notify_keys), games.board_words, games.board_path
    )
    if page is not None:
        shell = [*games.board_addresses(), *page.joined_files()]
        mount_app_shell(app, web_root(), page.version, shell)
    return app


def open_accounts(storage: Storage, limits: RateLimits, settings: Settings) -> Accounts:
    """Accounts in the tables' database, or in an SQLite database in memory beside the
    in-memory table store."""
    if isinstance(storage, SqlStorage):
        store = AccountStore(storage.engine)
    else:
        store = AccountStore(memory_engine(), own_engine=True)
    return Accounts(
        store,
        storage,
        limits,
        idle_seconds=settings.session_idle_seconds,
        max_seconds=settings.session_max_seconds,
    )


def table_status(lobby: Lobby) -> Callable[[str], Awaitable[str | None]]:
    """A table's status by its id (None: there is no such table), for invitations and reports."""

    async def status(table_id: str) -> str | None:
        try:
            table = await lobby.residency.peek(table_id[:64])
        except Rejected:
            return None
        return str(table.row.status)

    return status


def open_chat(
    storage: Storage,
    cluster: Cluster,
    limits: RateLimits,
    now: Callable[[], float],
    social: Social,
) -> Chat:
    """The tables' chat in the tables' database, or in memory beside the in-memory store; each
    reader shown no message of the people a block keeps apart from them, and no muted or
    suspended account heard."""
    store = SqlChatStore(storage.engine) if isinstance(storage, SqlStorage) else MemoryChatStore()

    async def limit(key: str) -> float | None:
        return await limits.hit("chat", key)

    async def hook(account: str | None) -> Keep:
        unheard = await social.unheard(account) if account is not None else frozenset()
        if not unheard:
            return keep_all
        return lambda row: row.account_id not in unheard

    return Chat(store, cluster, limit, now, hook=hook, allowed=social.may_chat)


def held_rows(residency: Residency) -> list[TableRow]:
    """The rows of the tables this process holds (the public log's sweep looks at them)."""
    return [table.row for table in residency.tables.values()]


def open_publog(storage: Storage, keys: KeyRing, now: Callable[[], float]) -> PublicLog:
    """The public log in the tables' database, or in memory beside the in-memory store."""
    store = SqlLogStore(storage.engine) if isinstance(storage, SqlStorage) else MemoryLogStore()
    return PublicLog(store, keys, now)


def open_notify_keys(settings: Settings) -> NotifyKeys:
    """The notifications' keys: in their folder when push or mail is on (subscriptions and links
    outlive a restart), else for this process only."""
    folder = settings.notify_keys_dir
    on = settings.push or settings.smtp_host
    return NotifyKeys.load(Path(folder)) if on and folder else NotifyKeys.ephemeral()


async def _rejected(_request: Request, exc: Rejected) -> JSONResponse:
    status = http_status(exc.code)
    headers = {}
    if isinstance(exc, TooMany):
        headers["Retry-After"] = str(int(exc.retry_after))
    elif status == 429:
        headers["Retry-After"] = "60"
    return JSONResponse(
        {"error": exc.code, "message": exc.message}, status_code=status, headers=headers
    )


HTTP_ERRORS = {
    400: (ErrorCode.BAD_JSON, "the body is not JSON that can be read (UTF-8, nested reasonably)"),
    404: (ErrorCode.NOT_FOUND, "there is nothing at this address"),
    405: (ErrorCode.NOT_ALLOWED, "this address does not answer that method"),
}


async def _http_error(_request: Request, exc: HTTPException) -> JSONResponse:
    """The framework's own errors (a body it cannot parse, an unknown path, a wrong method) in
    the documented shape, ``{"error", "message"}``, never ``{"detail"}``."""
    code, message = HTTP_ERRORS.get(exc.status_code, (ErrorCode.BAD_REQUEST, str(exc.detail)))
    return JSONResponse(
        {"error": code, "message": message},
        status_code=exc.status_code,
        headers=getattr(exc, "headers", None),
    )


async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 naming the field: ``{"error": "bad_request", "message": "players: ...", "detail"}``
    (a body that is not JSON never gets here: ``StrictJSONBodies`` answers it 400 ``bad_json``)."""
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ())[1:]) or "body"
        problems.append(f"{where}: {error.get('msg', 'invalid')}")
    return JSONResponse(
        {
            "error": ErrorCode.BAD_REQUEST,
            "message": "; ".join(problems[:5]),
            "detail": jsonable_encoder(
                [{"loc": e["loc"], "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
            ),
        },
        status_code=422,
    )


async def _close_quietly(websocket: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=CloseCode.GOING_AWAY, reason="server restarting")
