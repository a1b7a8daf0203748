"""Websocket clients: a seat or a spectator at a table, and a lobby page following open tables.

Both write through one :class:`Outbox`: a bounded queue of replies plus *latest* slots, where a
newer message replaces the one not yet sent (a table's state, a lobby table's summary). The state
is rendered when it leaves, so a slow client gets fewer, newer snapshots; a client that falls too
far behind (its replies pile up) or floods (keeps sending past the rate) is closed, logged once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .config import Settings
from .lobby import Lobby
from .logs import log
from .protocol import (
    CLIENT_MESSAGES,
    MESSAGE_TYPES,
    Act,
    Back,
    ClientMessage,
    CloseCode,
    Contribute,
    ErrorCode,
    Hello,
    Ping,
    Rejected,
    Sync,
)
from .table import Table

NO_HELLO = 'send {"type": "hello"} first (with your seat token)'
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

    def error(self, code: ErrorCode, message: str) -> None:
        self.outbox.reply(
            {"type": "error", "code": code, "message": message, "version": self.version()}
        )

    async def next(self, timeout: float | None) -> str | None:
        """The next text message within the rate (None for one refused here); raises
        TimeoutError, or WebSocketDisconnect when the client is gone."""
        message = await asyncio.wait_for(self.websocket.receive(), timeout)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        if not self.bucket.take(time.monotonic()):
            self.dropped += 1
            if self.dropped == 1:
                self.error(ErrorCode.RATE_LIMITED, "too many messages: slow down")
            elif self.dropped > self.settings.max_dropped_messages:
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


class _At:
    """The table a connection is at, apart from the connection: its reader asks it for the
    version without holding the connection (which holds the reader) in a reference cycle."""

    __slots__ = ("table",)

    def __init__(self) -> None:
        self.table: Table | None = None

    def version(self) -> int | None:
        return self.table.version if self.table else None


class Connection:
    """A client of one table, as a seat (with its token) or as a spectator.

    Nothing it owns refers back to it for long (handlers are looked up by message type, the reader
    asks ``_At`` for the version, and the outbox drops its render of the state once sent or
    finished), so a closed connection is freed at once, not by the collector."""

    def __init__(self, websocket: WebSocket, lobby: Lobby, settings: Settings) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.settings = settings
        self._at = _At()
        self.seat: int | None = None
        self.greeted = False
        self.log_from = 0
        self.outbox = Outbox(
            websocket, settings.max_pending_replies, 1, f"table:{websocket.url.path}"
        )
        self.reader = Reader(websocket, self.outbox, settings, self._at.version)

    @property
    def table(self) -> Table | None:
        return self._at.table

    @table.setter
    def table(self, table: Table | None) -> None:
        self._at.table = table

    def wake(self) -> None:
        """The table changed: send the new state when the writer next runs."""
        if self.greeted:
            self.outbox.put_latest("state", self._state)

    def _state(self) -> dict[str, Any] | None:
        table = self.table
        if table is None or self not in table.listeners:
            return None
        state = table.message_for(self.seat, self.log_from)
        self.log_from = len(table.log)
        return state

    def error(self, code: ErrorCode, message: str) -> None:
        """A clear error to this client only; nothing at the table changes."""
        self.reader.error(code, message)

    async def serve(self, table_id: str) -> None:
        opened = time.monotonic()
        self.outbox.start()
        try:
            try:
                self.table = await self.lobby.get(table_id)
                # held from now on, not from the hello: a table nobody follows may leave memory
                # (its driving moved to another process), and this one would then hear nothing
                self.table.listeners.add(self)
            except Rejected as exc:
                self.error(exc.code, exc.message)
                broken = exc.code == ErrorCode.TABLE_BROKEN
                self.outbox.close(
                    CloseCode.BROKEN if broken else CloseCode.NO_TABLE, exc.message[:120]
                )
                return
            await self._read(opened)
        except WebSocketDisconnect:
            pass
        finally:
            await self.outbox.finish()
            if self.table is not None and self in self.table.listeners:
                self.table.listeners.discard(self)
                await self.table.seated_here()  # the seat's "connected" flag changed

    async def _read(self, opened: float) -> None:
        while not self.outbox.closing:
            timeout = None
            if not self.greeted:  # the deadline counts from the connection, not the last message
                timeout = max(0.0, opened + self.settings.hello_timeout - time.monotonic())
            try:
                text = await self.reader.next(timeout)
            except TimeoutError:
                self.error(ErrorCode.NO_HELLO, NO_HELLO)
                self.outbox.close(CloseCode.NO_HELLO, "no hello")
                return
            if text is None:
                continue
            message = parse(text)
            if isinstance(message, tuple):
                self.error(*message)
            elif not self.greeted and not isinstance(message, Hello):
                self.error(ErrorCode.NO_HELLO, NO_HELLO)
            else:
                await HANDLERS[type(message)](self, message)

    # ---------------------------------------------------------------------------- handlers
    async def on_hello(self, message: Hello) -> None:
        table = self.table
        assert table is not None
        if self.greeted:
            self.error(ErrorCode.ALREADY_GREETED, "this connection already said hello")
            return
        seat = table.seat_for_token(message.token)
        if message.token and seat is None:
            self.error(
                ErrorCode.BAD_TOKEN, "this token holds no seat at this table: you are watching"
            )
        self.seat, self.greeted = seat, True
        role = "spectator" if seat is None else "player"
        self.outbox.reply({"type": "welcome", "table": table.id, "seat": seat, "role": role})
        await table.seated_here()  # a listener since it connected; now perhaps as a seat
        log("connected", table=table.id, seat=seat)

    async def on_ping(self, _message: Ping) -> None:
        self.outbox.reply({"type": "pong"})

    async def on_sync(self, _message: Sync) -> None:
        self.log_from = 0
        self.wake()

    async def on_back(self, _message: Back) -> None:
        if self.seat is None:
            self.error(ErrorCode.SPECTATOR, "spectators hold no seat")
            return
        assert self.table is not None
        await self.table.back(self.seat)

    async def on_contribute(self, message: Contribute) -> None:
        if self.seat is None:
            self.error(ErrorCode.SPECTATOR, "only a seated person adds a seed to the deal")
            return
        assert self.table is not None
        try:
            await self.table.contribute(self.seat, message.seed)
        except Rejected as exc:
            self.error(exc.code, exc.message)

    async def on_act(self, message: Act) -> None:
        table = self.table
        assert table is not None
        if self.seat is None:
            self.error(
                ErrorCode.SPECTATOR,
                "you are watching: only a seated player with its token can act",
            )
            return
        try:
            await table.submit(self.seat, message.action, message.version, by="player")
        except Rejected as exc:
            self.error(exc.code, exc.message)
            if exc.code == ErrorCode.STALE_VERSION:
                self.wake()


HANDLERS: dict[type, Callable[[Connection, Any], Awaitable[None]]] = {
    Hello: Connection.on_hello,
    Act: Connection.on_act,
    Contribute: Connection.on_contribute,
    Back: Connection.on_back,
    Sync: Connection.on_sync,
    Ping: Connection.on_ping,
}
"""What a connection does with each client message (after hello)."""


class LobbyFeed:
    """A lobby page following the open tables: one page at once, then only what changes
    (``table_added``, ``table_changed``, ``table_removed``), each coalesced per table; it answers
    ``ping`` and refuses everything else with a clear error."""

    def __init__(
        self, websocket: WebSocket, lobby: Lobby, settings: Settings, game: str | None = None
    ) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.settings = settings
        self.game = game
        self.known: set[str] = set()
        self.outbox = Outbox(
            websocket, settings.max_pending_replies, settings.max_pending_tables, "lobby"
        )
        self.reader = Reader(websocket, self.outbox, settings)

    def table_changed(self, table_id: str) -> None:
        self.outbox.put_latest(table_id, lambda: self._delta(table_id))

    def _delta(self, table_id: str) -> dict[str, Any] | None:
        summary = self.lobby.open_summary(table_id)
        if summary is not None and self.game in (None, summary["game"]):
            kind = "table_changed" if table_id in self.known else "table_added"
            self.known.add(table_id)
            return {"type": kind, "table": summary}
        if table_id in self.known:
            self.known.discard(table_id)
            return {"type": "table_removed", "id": table_id}
        return None

    async def serve(self) -> None:
        page, total = await self.lobby.listing(
            "open", game=self.game, limit=self.settings.page_size
        )
        self.known = {t["id"] for t in page}
        self.outbox.reply(
            {"type": "tables", "status": "open", "game": self.game, "tables": page, "total": total}
        )
        self.lobby.watchers.add(self)
        self.outbox.start()
        try:
            while not self.outbox.closing:
                text = await self.reader.next(None)
                if text is None:
                    continue
                message = parse(text)
                if isinstance(message, Ping):
                    self.outbox.reply({"type": "pong"})
                else:
                    self.reader.error(
                        ErrorCode.UNKNOWN_TYPE, 'the lobby feed only answers {"type": "ping"}'
                    )
        except WebSocketDisconnect:
            return
        finally:
            self.lobby.watchers.discard(self)
            await self.outbox.finish()
