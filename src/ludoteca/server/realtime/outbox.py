"""One websocket's two directions, apart from what it is for: :class:`Outbox`, a bounded queue of
replies plus *latest* slots where a newer message replaces the one not yet sent (rendered when it
leaves, so a slow client gets fewer, newer snapshots; a client too far behind is closed, logged
once), and :class:`Reader`, which reads at most the client's rate and answers a flood with one
notice, then a close."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ludoteca.server.config import Settings
from ludoteca.server.logs import log
from ludoteca.server.messages import (
    CLIENT_MESSAGES,
    MESSAGE_TYPES,
    ClientMessage,
    CloseCode,
    ErrorCode,
)

Render = Callable[[], dict[str, Any] | None]


def encode(message: dict[str, Any]) -> str:
    """A message as JSON text (orjson: measured ten times faster than json.dumps on a state)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class TokenBucket:
    """``rate`` messages per second sustained, ``burst`` at once; pure arithmetic on ``now``."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = float(burst), now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class Outbox:
    """The one writer of a websocket: replies in order, then the newest of each latest slot."""

    def __init__(self, websocket: WebSocket, max_replies: int, max_latest: int, who: str) -> None:
        self.websocket = websocket
        self.max_replies, self.max_latest = max_replies, max_latest
        self.who = who
        self.replies: deque[dict[str, Any]] = deque()
        self.latest: dict[str, Render] = {}
        self.closing: tuple[int, str] | None = None
        self.sent = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopped = False
        self._writing = False  # in a send or the close, where only a cancel stops the writer

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def reply(self, message: dict[str, Any]) -> None:
        if self.closing:
            return
        if len(self.replies) >= self.max_replies:
            self.close(CloseCode.TRY_LATER, "too far behind: read what the server sends")
            return
        self.replies.append(message)
        self._wake.set()

    def put_latest(self, key: str, render: Render) -> None:
        """Send ``render()`` when the writer next runs, replacing what ``key`` held unsent."""
        if self.closing:
            return
        if key not in self.latest and len(self.latest) >= self.max_latest:
            self.close(CloseCode.TRY_LATER, "too far behind: read what the server sends")
            return
        self.latest[key] = render
        self._wake.set()

    def close(self, code: int, reason: str) -> None:
        """Close once what is queued is sent (logged once, at warning level)."""
        if self.closing:
            return
        self.closing = (code, reason)
        log("connection_closed", logging.WARNING, who=self.who, code=code, reason=reason)
        self._wake.set()

    async def _run(self) -> None:
        try:
            while not self._stopped:
                await self._wake.wait()
                self._wake.clear()
                while self.replies and not self._stopped:
                    await self._send(self.replies.popleft())
                while self.latest and not self._stopped:
                    key = next(iter(self.latest))
                    message = self.latest.pop(key)()
                    if message is not None:
                        await self._send(message)
                if self.closing and not self._stopped:
                    if self.websocket.application_state == WebSocketState.CONNECTED:
                        self._writing = True
                        await self.websocket.close(*self.closing)
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def _send(self, message: dict[str, Any]) -> None:
        self._writing = True
        try:
            await self.websocket.send_text(encode(message))
        finally:
            self._writing = False
        self.sent += 1

    async def finish(self) -> None:
        """Stop writing: flush and close when closing (briefly), else stop at once.

        A writer waiting for work is woken to return, and only one caught in a send or the close
        is cancelled: the cancellation's traceback held the connection's every object in a
        reference cycle, left for the collector, once per connection."""
        task = self._task
        if task is None:
            return
        if self.closing and not task.done():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), 1.0)
        self._stopped = True
        self.replies.clear()
        self.latest.clear()  # a pending render refers to its connection
        if self._writing:
            task.cancel()
        else:
            self._wake.set()
        if self.closing and self.websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(TimeoutError, RuntimeError, OSError, WebSocketDisconnect):
                await asyncio.wait_for(self.websocket.close(*self.closing), 1.0)


class Reader:
    """Receives text messages under a rate: messages over it are dropped with one notice, and a
    client that keeps flooding is closed."""

    def __init__(
        self,
        websocket: WebSocket,
        outbox: Outbox,
        settings: Settings,
        version: Callable[[], int | None] = lambda: None,
    ) -> None:
        self.websocket, self.outbox, self.settings = websocket, outbox, settings
        self.version = version
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic())
        self.dropped = 0
        self.flooded = False  # closed for flooding: its address waits before connecting again

    def error(self, code: ErrorCode, message: str) -> None:
        self.outbox.reply(
            {"type": "error", "code": code, "message": message, "version": self.version()}
        )

    async def next(self, timeout: float | None) -> str | None:
        """The next text message within the rate (None for one refused here); raises
        TimeoutError, or WebSocketDisconnect when the client is gone.

        It lets the other tasks run first, every time: a message that was already waiting is
        returned without a pause, so a flood would otherwise hold the event loop."""
        await asyncio.sleep(0)
        message = await asyncio.wait_for(self.websocket.receive(), timeout)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        if not self.bucket.take(time.monotonic()):
            self.dropped += 1
            if self.dropped == 1:
                self.error(ErrorCode.RATE_LIMITED, "too many messages: slow down")
            elif self.dropped > self.settings.max_dropped_messages:
                self.flooded = True
                self.outbox.close(CloseCode.POLICY, "kept sending after being told to slow down")
            return None
        self.dropped = 0
        text: str | None = message.get("text")
        if text is None:
            self.error(ErrorCode.BINARY, "messages are JSON text, not binary frames")
            return None
        if len(text) > self.settings.max_message_bytes or (
            len(text.encode()) > self.settings.max_message_bytes
        ):
            self.error(
                ErrorCode.TOO_LARGE,
                f"a message may be at most {self.settings.max_message_bytes} bytes",
            )
            return None
        return text


def parse(text: str) -> ClientMessage | tuple[ErrorCode, str]:
    """A client message, or the error code and message saying why it is not one."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return ErrorCode.BAD_JSON, f"not valid JSON: {exc.msg} at position {exc.pos}"
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        return ErrorCode.BAD_MESSAGE, "a message is a JSON object with a string 'type'"
    kind = data["type"]
    if kind not in MESSAGE_TYPES:
        return (
            ErrorCode.UNKNOWN_TYPE,
            f"unknown message type '{kind[:40]}' ({', '.join(MESSAGE_TYPES)})",
        )
    try:
        return CLIENT_MESSAGES.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"][1:]) or "message"
        return ErrorCode.BAD_MESSAGE, f"'{field}': {first['msg']}"
