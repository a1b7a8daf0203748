"""Receivers for the notification tests, real on the wire: a push service on 127.0.0.1 that keeps
every request and decrypts it as a browser would (RFC 8291, with a P-256 key pair and an auth
secret made here), and an SMTP server (aiosmtpd) that keeps every mail it is sent."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from aiosmtpd.controller import Controller
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from kit.servers import free_port


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Device:
    """A browser's side of a push subscription: its key pair and auth secret."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    secret: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.secret)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.secret, version="aes128gcm"
        )
        found: dict[str, Any] = json.loads(plain)
        return found


@dataclass
class Pushed:
    path: str
    headers: dict[str, str]
    body: bytes

    def vapid_key(self) -> str:
        """The public key the request's VAPID header names, once its signature checks out."""
        auth = self.headers["authorization"]
        assert auth.startswith("vapid t="), auth
        assert Vapid02.verify(auth), "the VAPID signature does not verify"
        return auth.split("k=", 1)[1].strip()


class PushService:
    """Answers every POST with ``status`` (201 unless told) and keeps it."""

    def __init__(self) -> None:
        self.port = free_port()
        self.received: list[Pushed] = []
        self.status = 201
        self.slow = threading.Event()  # set: every answer waits until it is cleared
        self.released = threading.Event()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append(Pushed(self.path, headers, body))
                if service.slow.is_set():
                    service.released.wait(30)
                self.send_response(service.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.http = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def device(self, name: str = "device") -> Device:
        return Device(f"http://127.0.0.1:{self.port}/push/{name}")

    def to(self, device: Device) -> list[Pushed]:
        path = device.endpoint.split(str(self.port), 1)[1]
        return [p for p in self.received if p.path == path]

    def close(self) -> None:
        self.released.set()
        self.http.shutdown()
        self.http.server_close()


class Mailbox:
    """aiosmtpd on 127.0.0.1: every mail it receives, parsed."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        box = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
                mail = message_from_bytes(envelope.content, policy=policy.default)
                assert isinstance(mail, EmailMessage)
                box.mails.append(mail)
                return "250 OK"

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]

    def close(self) -> None:
        self.controller.stop()


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    yield box
    box.close()


def text_of(mail: EmailMessage) -> str:
    text: str = mail.get_content()
    return text
