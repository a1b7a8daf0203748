"""The web table as served: static files, the page for every client-side route, the API docs from
the package (no CDN), and what every HTTP response gets on its way out: the security headers,
compression, and ETags on the catalogue."""

from __future__ import annotations

import hashlib
import os
from importlib import resources
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
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

ROUTES = (
    "/",
    "/games/{game_id}",
    "/table/{table_id}",
    "/verify",
    "/replay",
    "/replay/{table_id}",
    "/account",
    "/players/{name}",
    "/leaderboard",
    "/leaderboard/{game_id}",
)

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>ludoteca API</title>
  <link rel="stylesheet" href="/static/vendor/swagger-ui/swagger-ui.css">
</head>
<body>
  <main id="swagger-ui"></main>
  <script src="/static/vendor/swagger-ui/swagger-ui-bundle.js"></script>
  <script src="/static/js/api-docs.js"></script>
</body>
</html>
"""


def web_root() -> Path:
    return Path(str(resources.files("ludoteca").joinpath("web")))


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
                wanted = Headers(scope=scope).get("if-none-match", "")
                if tag in (t.strip() for t in wanted.split(",")):
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


def mount_web(app: FastAPI) -> None:
    """The web table: static files, the page for every client-side route, the offline API docs."""
    root = web_root()
    index = root / "index.html"
    install_delivery(app)

    class Revalidated(StaticFiles):
        """Static files the browser revalidates (a 304 when unchanged), so an upgrade of the
        server never leaves a player with old modules next to new ones."""

        def file_response(
            self,
            full_path: str | os.PathLike[str],
            stat_result: os.stat_result,
            scope: Scope,
            status_code: int = 200,
        ) -> Response:
            response = super().file_response(full_path, stat_result, scope, status_code)
            response.headers["Cache-Control"] = "no-cache"
            return response

    if (root / "static").is_dir():
        app.mount("/static", Revalidated(directory=root / "static"), name="static")
    headers = {"Cache-Control": "no-cache"}

    async def page() -> Response:
        if index.is_file():
            return FileResponse(index, headers=headers)
        return JSONResponse(
            {"message": "the web files are missing from this installation; the API is at /docs"},
            status_code=503,
        )

    for path in ROUTES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    async def docs() -> Response:
        return HTMLResponse(DOCS_PAGE, headers=headers)

    app.add_api_route("/docs", docs, methods=["GET"], include_in_schema=False)
