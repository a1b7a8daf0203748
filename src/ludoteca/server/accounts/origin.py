"""Cross-site request forgery: a state-changing request that a session cookie authenticates is
refused (403 ``bad_origin``) unless its ``Origin`` header — or, when a browser sends none, the
origin of its ``Referer`` — is this server's own origin (the scheme the request came over, after
a trusted proxy's ``X-Forwarded-Proto``, and its ``Host``). Sign-up, sign-in and the password
reset's routes are checked the same way whenever they carry an ``Origin`` or a ``Referer``, so
another site cannot sign a visitor into an account of its choosing (a reset link's owner's).
The session cookie is ``SameSite=Lax`` as well: this is the second lock, for browsers or paths
that lax cookies do not cover."""

from __future__ import annotations

from urllib.parse import urlsplit

import orjson
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from ludoteca.server.messages import ErrorCode

from .service import COOKIE

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SIGN_IN_PATHS = ("/api/accounts", "/api/session", "/api/passkeys", "/api/password-reset")


def own_origin(scope: Scope, headers: Headers) -> str:
    return f"{scope.get('scheme', 'http')}://{headers.get('host', '')}".lower()


def claimed_origin(headers: Headers) -> str | None:
    """The origin the browser says the request comes from: ``Origin``, else ``Referer``'s."""
    origin = headers.get("origin")
    if origin is not None:
        return origin.strip().lower()
    referer = headers.get("referer")
    if referer:
        parts = urlsplit(referer)
        if parts.scheme and parts.netloc:
            return f"{parts.scheme}://{parts.netloc}".lower()
        return "null"
    return None


class OriginCheck:
    """ASGI middleware: the rule above, before the request reaches any route."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        claimed = claimed_origin(headers)
        with_cookie = COOKIE in cookie_parser(headers.get("cookie", ""))
        checked = with_cookie or (claimed is not None and scope["path"].startswith(SIGN_IN_PATHS))
        if checked and claimed != own_origin(scope, headers):
            await _refuse(send, claimed)
            return
        await self.app(scope, receive, send)


async def _refuse(send: Send, claimed: str | None) -> None:
    message = (
        "a request signed in by cookie must come from this site's own pages "
        f"(Origin: {claimed[:100] if claimed else 'none'})"
    )
    body = orjson.dumps({"error": ErrorCode.BAD_ORIGIN, "message": message})
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
