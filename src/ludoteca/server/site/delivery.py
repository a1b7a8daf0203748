"""What every HTTP response gets on its way out: the security headers (pages, static files, API
and docs alike), compression, and ETags on the catalogue (docs/web.md)."""

from __future__ import annotations

import hashlib

from fastapi import FastAPI
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The client is plain files from this server: no inline script, no other origin.
POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}
# Responses smaller than this are not worth compressing (headers cost more than they save).
COMPRESS_FROM = 500
# GET answers that carry an ETag and come back as 304 when the browser already has them.
TAGGED_PREFIXES = ("/api/games",)


class SecurityHeaders:
    """The same security headers on every HTTP response: pages, static files, API and docs.
    Websocket messages pass untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def has_tag(if_none_match: str, tag: str) -> bool:
    """Whether the browser's ``If-None-Match`` names ``tag`` (so a 304 will do)."""
    return tag in (t.strip() for t in if_none_match.split(","))


class CatalogueETags:
    """A strong ETag on the catalogue's GET answers (``/api/games``, ``/api/games/{id}``), and
    304 Not Modified when the browser sends it back: the catalogue changes only with the server,
    so a returning visitor downloads it once. The tag is the SHA-256 of the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or not scope["path"].startswith(TAGGED_PREFIXES)
        ):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def hold(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
            else:
                await send(message)
                return
            assert start is not None
            body = b"".join(chunks)
            headers = MutableHeaders(scope=start)
            if start["status"] == 200:
                tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
                headers["ETag"] = tag
                headers["Cache-Control"] = "no-cache"
                if has_tag(Headers(scope=scope).get("if-none-match", ""), tag):
                    for name in ("content-length", "content-type"):
                        if name in headers:
                            del headers[name]
                    await send({**start, "status": 304})
                    await send({"type": "http.response.body", "body": b""})
                    return
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, hold)


def install_delivery(app: FastAPI) -> None:
    """Compression outermost (websockets untouched), then the security headers, then ETags, so
    the tag names the uncompressed body and a 304 carries the headers too."""
    app.add_middleware(CatalogueETags)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=COMPRESS_FROM, compresslevel=6)
