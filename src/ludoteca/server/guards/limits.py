"""What one client may ask of the server: rate limits per client address (the ``limits`` package,
in memory for one process or in Redis shared by several), websocket caps per address and in
total, the size of an HTTP body (refused before it is read), and a JSON body read strictly."""

from __future__ import annotations

import logging
import math
import time
from collections import Counter
from dataclasses import dataclass, field

import orjson
import redis.asyncio as aioredis
from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ludoteca.server.config import Settings
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, http_status

ACTIONS = (
    "create",
    "join",
    "start",
    "websocket",
    "login",
    "login_pair",
    "login_account",
    "signup",
    "notify",
    "notify_mail",
    "seats",
    "reset",
    "reset_mail",
    "chat",
)


class RateLimits:
    """One moving window per action and client address; ``hit`` answers how long to wait."""

    def __init__(self, settings: Settings) -> None:
        self.items: dict[str, RateLimitItem] = {
            "create": parse(settings.limit_create),
            "join": parse(settings.limit_join),
            "start": parse(settings.limit_start),
            "websocket": parse(settings.limit_websocket),
            "login": parse(settings.limit_login),  # per address
            # password attempts for a name from one address, or from one device known to it
            "login_pair": parse(settings.limit_login_pair),
            # password attempts for a name from every device it does not know
            "login_account": parse(settings.limit_login_account),
            "signup": parse(settings.limit_signup),
            "notify": parse(settings.limit_notify),  # per address
            "notify_mail": parse(settings.limit_notify_mail),  # per account and per address
            "seats": parse(settings.limit_seats),
            "reset": parse(settings.limit_reset),  # password resets asked for, per address
            # per name or e-mail address asked for, and per account mailed
            "reset_mail": parse(settings.limit_reset_mail),
            "chat": parse(settings.limit_chat),  # per person
        }
        self.prefix = settings.redis_prefix
        self.storage: Storage
        self._pool: aioredis.ConnectionPool | None = None
        if settings.redis_url:
            # a Redis that does not answer lets the request through after this, not never
            self._pool = aioredis.ConnectionPool.from_url(
                settings.redis_url,
                socket_timeout=settings.limits_timeout,
                socket_connect_timeout=settings.limits_timeout,
            )
            url = settings.redis_url.replace("redis://", "async+redis://", 1)
            found = storage_from_string(
                url,
                implementation="redispy",
                key_prefix=self.prefix,
                connection_pool=self._pool,  # type: ignore[arg-type]  # passed on to redis-py
            )
            assert isinstance(found, Storage)  # an async+ URL gives an async storage
            self.storage = found
        else:
            self.storage = MemoryStorage()
        self.limiter = MovingWindowRateLimiter(self.storage)

    @property
    def backend(self) -> str:
        return "redis" if not isinstance(self.storage, MemoryStorage) else "memory"

    async def hit(self, action: str, client: str) -> float | None:
        """Count one ``action`` by ``client``: None if allowed, else the seconds to wait.

        While Redis cannot be reached the request is let through (logged): the limits guard
        against floods, and refusing everyone would be the outage itself."""
        item = self.items[action]
        try:
            if await self.limiter.hit(item, self.prefix, action, client):
                return None
            stats = await self.limiter.get_window_stats(item, self.prefix, action, client)
        except (RedisError, OSError) as exc:
            log("limits_unreachable", logging.WARNING, action=action, error=repr(exc))
            return None
        return max(1.0, math.ceil(stats.reset_time - time.time()))

    async def clear(self, action: str, client: str) -> None:
        """Empty ``action``'s window for ``client`` (one that was counted for nothing)."""
        try:
            await self.limiter.clear(self.items[action], self.prefix, action, client)
        except (RedisError, OSError) as exc:
            log("limits_unreachable", logging.WARNING, action=action, error=repr(exc))

    async def ping(self) -> bool:
        return bool(await self.storage.check())

    async def reset(self) -> None:
        await self.storage.reset()

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.aclose()


@dataclass
class ConnectionCaps:
    """Websockets open now, per client address and in total; and the addresses waiting after
    one of their websockets was closed for flooding."""

    per_client: int
    total: int
    open: Counter[str] = field(default_factory=Counter)
    cooling: dict[str, float] = field(default_factory=dict)  # address -> until (monotonic)

    def cool(self, client: str, seconds: float, now: float | None = None) -> None:
        """``client`` flooded: it opens no websocket for ``seconds``."""
        now = time.monotonic() if now is None else now
        for address in [a for a, until in self.cooling.items() if until <= now]:
            del self.cooling[address]
        if seconds > 0:
            self.cooling[client] = now + seconds

    def cooling_for(self, client: str, now: float | None = None) -> float | None:
        """Seconds ``client`` still waits after a flood, or None."""
        until = self.cooling.get(client)
        now = time.monotonic() if now is None else now
        if until is None or until <= now:
            return None
        return until - now

    @property
    def count(self) -> int:
        return sum(self.open.values())

    def admit(self, client: str) -> str | None:
        """Take a place for ``client``; None if admitted, else why not."""
        if self.count >= self.total:
            return "the server holds as many connections as it can: try again later"
        if self.open[client] >= self.per_client:
            return f"at most {self.per_client} connections per client"
        self.open[client] += 1
        return None

    def release(self, client: str) -> None:
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]


class BodySizeLimit:
    """ASGI middleware: a request body over the limit is answered 413 before it is read — at once
    when ``Content-Length`` says so, else as soon as the bytes received pass the limit."""

    def __init__(self, app: ASGIApp, default: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = default
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in {"GET", "HEAD", "OPTIONS"}:
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.default)
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > limit or declared < 0:
                    await _too_large(send, limit)
                    return
        seen = 0
        refused = False

        async def counted() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request" and not refused:
                seen += len(message.get("body", b""))
                if seen > limit:  # answer now; the app hears that the client went away
                    refused = True
                    await _too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            if not refused:
                await send(message)

        await self.app(scope, counted, watched)


class StrictJSONBodies:
    """ASGI middleware: a JSON request body (``application/json`` or ``application/…+json``, the
    bodies the routes parse) is read whole and checked before any route sees it. One that is not
    strict JSON (RFC 8259) is answered 400 ``bad_json`` and reaches no route: not UTF-8, not
    JSON, nested deeper than 1024, or holding ``NaN`` or ``Infinity``, which Python's parser (the
    one the routes read with) would take as numbers. Inside ``BodySizeLimit``, so what it holds
    is within the size limit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in {"GET", "HEAD", "OPTIONS"}
            or not _is_json(scope)
        ):
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away (or was answered 413): nobody to answer
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            try:
                orjson.loads(body)
            except orjson.JSONDecodeError as exc:
                why = f"the body is not valid JSON: {exc.msg} at position {exc.pos}"
                await _refuse(send, ErrorCode.BAD_JSON, why)
                return
        pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

        async def replayed() -> Message:
            return pending.pop() if pending else await receive()

        await self.app(scope, replayed, send)


def _is_json(scope: Scope) -> bool:
    """Whether the request says its body is JSON (the content types FastAPI parses as JSON)."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json" or (
                kind.startswith(b"application/") and kind.endswith(b"+json")
            )
    return False


async def _too_large(send: Send, limit: int) -> None:
    await _refuse(send, ErrorCode.TOO_LARGE, f"a request body may be at most {limit} bytes")


async def _refuse(send: Send, code: ErrorCode, message: str) -> None:
    """An error in the documented shape, answered before the app saw the request; the
    connection is closed (a body too large is not read to its end)."""
    body = orjson.dumps({"error": code, "message": message})
    await send(
        {
            "type": "http.response.start",
            "status": http_status(code),
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
