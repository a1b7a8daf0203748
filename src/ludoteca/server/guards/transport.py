"""What uvicorn lacks between the socket and the app, so that no one client can stall a process.

- **HTTP** (:class:`GuardedHttp`): a request's headers must arrive within ``header_timeout`` of
  the connection (or of the request's first byte, on a kept-alive connection), and its body
  within ``body_timeout`` of the headers, else the connection is closed; and one address holds
  at most ``max_http_per_client`` HTTP connections at once (the next is answered 429 and
  closed). A trusted proxy's address is not capped: it speaks for many clients.
- **Websockets** (:class:`GuardedWebSocket`): what a client sends is parsed ``READ_BUDGET``
  bytes at a time, one slice per turn of the event loop, and no more is read while the app has
  ``QUEUE_LIMIT`` messages waiting: a client flooding tiny frames costs its own connection time,
  not everyone's. Once the server has closed a connection, a client that goes on sending more
  than ``AFTER_CLOSE_BYTES``, or does not answer the close within ``CLOSE_TIMEOUT``, is cut off.

``uvicorn_protocols(settings)`` gives the two classes bound to one process's limits.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from ludoteca.server.config import Network, Settings, trusted_networks
from ludoteca.server.messages import ErrorCode

READ_BUDGET = 4096  # bytes of one websocket parsed per turn of the event loop
QUEUE_LIMIT = 32  # messages waiting for the app before the connection is read no further
AFTER_CLOSE_BYTES = 64 * 1024  # sent after the server's close frame: the client is not listening
CLOSE_TIMEOUT = 1.0  # seconds the server waits for the client to answer its close frame


@dataclass
class Wire:
    """One process's connection limits and the HTTP connections each address holds now."""

    header_timeout: float
    body_timeout: float
    max_http_per_client: int
    proxies: list[Network] | None  # None: every address is a trusted proxy ("*")
    http_open: Counter[str] = field(default_factory=Counter)

    @classmethod
    def from_settings(cls, settings: Settings) -> Wire:
        return cls(
            header_timeout=settings.header_timeout,
            body_timeout=settings.body_timeout,
            max_http_per_client=settings.max_http_per_client,
            proxies=trusted_networks(settings.forwarded_allow_ips),
        )

    def is_proxy(self, host: str) -> bool:
        if self.proxies is None:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.proxies)

    def admit(self, host: str) -> bool:
        if self.http_open[host] >= self.max_http_per_client:
            return False
        self.http_open[host] += 1
        return True

    def release(self, host: str) -> None:
        self.http_open[host] -= 1
        if self.http_open[host] <= 0:
            del self.http_open[host]


def _refusal(limit: int) -> bytes:
    body = orjson.dumps(
        {
            "error": ErrorCode.TOO_MANY_CONNECTIONS,
            "message": f"at most {limit} open HTTP connections per client",
        }
    )
    head = (
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nretry-after: 5\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with header and body deadlines and a per-address cap."""

    wire: ClassVar[Wire]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None and not self.wire.is_proxy(host):
            if not self.wire.admit(host):
                transport.write(_refusal(self.wire.max_http_per_client))
                transport.close()
                return
            self._counted = host
        self._arm(self.wire.header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def _release(self) -> None:
        if self._counted is not None:
            self.wire.release(self._counted)
            self._counted = None

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        """Headers or body not in time: close (there is no request to answer yet)."""
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.abort()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a kept-alive connection's next request
            self._arm(self.wire.header_timeout)

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        self._arm(self.wire.body_timeout)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def handle_websocket_upgrade(self) -> None:
        # a websocket is counted by the app's own caps (per address and in all) from now on
        self._disarm()
        self._release()
        super().handle_websocket_upgrade()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol reading each client a slice at a time (see the module)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.close_timeout = CLOSE_TIMEOUT
        self._backlog = bytearray()
        self._feeding: asyncio.Handle | None = None
        self._after_close = 0

    def data_received(self, data: bytes) -> None:
        if self.close_sent:
            self._after_close += len(data)
            if self._after_close > AFTER_CLOSE_BYTES:
                self.transport.abort()
                return
        self._backlog += data
        if len(self._backlog) > READ_BUDGET:
            self.transport.pause_reading()
        if self._feeding is None:
            self._feed()

    def _feed(self) -> None:
        """Parse one slice of what arrived; the rest on a later turn of the loop."""
        self._feeding = None
        if self.transport.is_closing():
            self._backlog.clear()
            return
        chunk = bytes(self._backlog[:READ_BUDGET])
        del self._backlog[:READ_BUDGET]
        super().data_received(chunk)
        if self._backlog and self.queue.qsize() < QUEUE_LIMIT:
            self._feeding = self.loop.call_soon(self._feed)
        elif not self._backlog and not self.read_paused and not self.transport.is_closing():
            self.transport.resume_reading()
        # else: ``receive`` feeds again once the app has read what waits

    async def receive(self) -> Any:
        message = await super().receive()
        if self._backlog and self._feeding is None and self.queue.qsize() < QUEUE_LIMIT:
            self._feeding = self.loop.call_soon(self._feed)
        return message

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.close" and self.close_timer is not None:
            # a client that does not read would keep transport.close() waiting for its buffer
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._feeding is not None:
            self._feeding.cancel()
            self._feeding = None
        self._backlog.clear()
        super().connection_lost(exc)


def uvicorn_protocols(settings: Settings) -> tuple[type[GuardedHttp], type[GuardedWebSocket]]:
    """The HTTP and websocket protocol classes of one server, bound to its limits."""
    bound = type("ServerHttp", (GuardedHttp,), {"wire": Wire.from_settings(settings)})
    return bound, GuardedWebSocket


class EnvHttp(GuardedHttp):
    """The HTTP protocol of a ``--workers`` process (uvicorn imports it there by name): its
    limits are read from that process's ``LUDOTECA_*`` environment on first use."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "wire" not in EnvHttp.__dict__:
            EnvHttp.wire = Wire.from_settings(Settings.from_env())
        super().__init__(*args, **kwargs)
