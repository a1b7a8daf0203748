"""Web push (RFC 8030/8291/8292): which endpoints a subscription may name, and one encrypted,
VAPID-signed request to a push service.

A subscription's endpoint is an address the server will later POST to, so it is held to the
push services' hosts (``LUDOTECA_PUSH_HOSTS``, https only, the default port); nothing else —
no address of the server's own network, no other site — is ever asked for. Redirects are not
followed. ``LUDOTECA_PUSH_ALLOW_LOOPBACK`` adds ``http://127.0.0.1:PORT`` for tests."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
from pywebpush import WebPusher

from ludoteca.server.config import Settings

from .keys import NotifyKeys, unb64url
from .store import PushTarget

MAX_ENDPOINT = 1024
# seconds a push service keeps a message for a device that is off: until the deadline (after
# it the news is stale), at least a minute, at most the four weeks push services keep anything
TTL = (60, 28 * 86400)


class BadSubscription(ValueError):
    """A subscription the server will not push to (the message says why)."""


def allowed_endpoint(endpoint: str, settings: Settings) -> str:
    """The endpoint, if the server may push to it; else BadSubscription."""
    if len(endpoint) > MAX_ENDPOINT:
        raise BadSubscription(f"a push endpoint is at most {MAX_ENDPOINT} characters")
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        raise BadSubscription("the push endpoint is not a URL") from None
    host = (parts.hostname or "").lower()
    if parts.username or parts.password or parts.fragment:
        raise BadSubscription("a push endpoint has no user, password or fragment")
    if settings.push_allow_loopback and parts.scheme == "http" and host == "127.0.0.1" and port:
        return endpoint
    if parts.scheme != "https" or port not in (None, 443):
        raise BadSubscription("a push endpoint is https on the default port")
    for allowed in (h.strip().lower() for h in settings.push_hosts.split(",")):
        if allowed and (
            host == allowed.lstrip(".") or (allowed[0] == "." and host.endswith(allowed))
        ):
            return endpoint
    raise BadSubscription(f"{host[:100]} is not a push service this server sends to")


def allowed_keys(p256dh: str, auth: str) -> tuple[str, str]:
    """The subscription's keys, if they are a P-256 point and a 16-byte secret."""
    try:
        point, secret = unb64url(p256dh), unb64url(auth)
    except ValueError:
        raise BadSubscription("the subscription's keys are not base64url") from None
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise BadSubscription("the subscription's keys are not a P-256 key and a 16-byte secret")
    return p256dh, auth


def sealed(
    keys: NotifyKeys, settings: Settings, target: PushTarget, payload: dict[str, Any], ttl: int
) -> tuple[str, bytes, dict[str, str]]:
    """The request for one push: its endpoint, the payload encrypted for the device (aes128gcm)
    and the headers, VAPID-signed. CPU work (ECDH, AES-GCM, ECDSA): run off the event loop."""
    endpoint = allowed_endpoint(target.endpoint, settings)  # the rule may have changed since
    info = {"endpoint": endpoint, "keys": {"p256dh": target.p256dh, "auth": target.auth}}
    body: bytes = WebPusher(info).encode(json.dumps(payload).encode(), "aes128gcm")["body"]
    parts = urlsplit(endpoint)
    claims = {
        "sub": settings.push_contact,
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
    }
    headers = {
        **keys.vapid.sign(claims),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(min(max(ttl, TTL[0]), TTL[1])),
        "Urgency": "high",
    }
    return endpoint, body, headers


async def send_push(
    client: httpx.AsyncClient,
    keys: NotifyKeys,
    settings: Settings,
    target: PushTarget,
    payload: dict[str, Any],
    *,
    ttl: int,
) -> int:
    """POST the payload to the device's push service; the push service's status."""
    endpoint, body, headers = await asyncio.to_thread(sealed, keys, settings, target, payload, ttl)
    response = await client.post(endpoint, content=body, headers=headers)
    return response.status_code
