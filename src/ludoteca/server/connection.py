"""One websocket client at a table: the reader that checks every message, and the writer.

The writer sends the *current* state when woken, with the log entries the client has not seen:
a slow client gets fewer, newer snapshots instead of a growing queue, and a change made by any path
(a person, a bot, the clock, a reload) reaches every client the same way.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from .config import Settings
from .lobby import Lobby
from .logs import log
from .table import Rejected, Table

MESSAGE_TYPES = ("hello", "act", "contribute", "back", "sync", "ping")


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


class Connection:
    """A client of one table, as a seat (with its token) or as a spectator."""

    def __init__(self, websocket: WebSocket, lobby: Lobby, settings: Settings) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.settings = settings
        self.table: Table | None = None
        self.seat: int | None = None
        self.log_from = 0
        self.outbox: deque[dict[str, Any]] = deque()
        self.dirty = False
        self._wake = asyncio.Event()
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic())

    def wake(self) -> None:
        """The table changed: send the new state when the writer next runs."""
        self.dirty = True
        self._wake.set()

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.append(message)
        self._wake.set()

    def error(self, code: str, message: str) -> None:
        """A clear error to this client only; nothing at the table changes."""
        version = self.table.version if self.table else None
        self.send({"type": "error", "code": code, "message": message, "version": version})

    async def serve(self, table_id: str) -> None:
        writer = asyncio.create_task(self._writer())
        try:
            try:
                self.table = await self.lobby.get(table_id)
            except Rejected as exc:
                self.error(exc.code, exc.message)
                await asyncio.sleep(0)
                await self.websocket.close(code=4404, reason=exc.message[:120])
                return
            await self._reader()
        except WebSocketDisconnect:
            pass
        finally:
            writer.cancel()
            if self.table is not None and self in self.table.listeners:
                self.table.listeners.discard(self)
                self.table.changed()  # the seat's "connected" flag changed

    # ----------------------------------------------------------------------------- reading
    async def _reader(self) -> None:
        greeted = False
        while True:
            timeout = None if greeted else self.settings.hello_timeout
            try:
                message = await asyncio.wait_for(self.websocket.receive(), timeout)
            except TimeoutError:
                self.error("no_hello", 'send {"type": "hello"} first (with your seat token)')
                await self._flush_and_close(4408, "no hello")
                return
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            text = message.get("text")
            if text is None:
                self.error("binary", "messages are JSON text, not binary frames")
                continue
            if len(text.encode()) > self.settings.max_message_bytes:
                self.error(
                    "too_large", f"a message may be at most {self.settings.max_message_bytes} bytes"
                )
                continue
            if not self.bucket.take(time.monotonic()):
                self.error("rate_limited", "too many messages: slow down")
                continue
            try:
                data = orjson.loads(text)
            except orjson.JSONDecodeError as exc:
                self.error("bad_json", f"not valid JSON: {exc.msg} at position {exc.pos}")
                continue
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                self.error("bad_message", "a message is a JSON object with a string 'type'")
                continue
            kind = data["type"]
            if kind not in MESSAGE_TYPES:
                self.error(
                    "unknown_type", f"unknown message type '{kind}' ({', '.join(MESSAGE_TYPES)})"
                )
                continue
            if kind == "hello":
                greeted = self._hello(data, greeted)
            elif not greeted:
                self.error("no_hello", 'send {"type": "hello"} first (with your seat token)')
            else:
                await self._handle(kind, data)

    def _hello(self, data: dict[str, Any], greeted: bool) -> bool:
        table = self.table
        assert table is not None
        if greeted:
            self.error("already_greeted", "this connection already said hello")
            return True
        token = data.get("token")
        if token is not None and not isinstance(token, str):
            self.error("bad_message", "'token' must be a string")
            token = None
        seat = table.seat_for_token(token)
        if token and seat is None:
            self.error("bad_token", "this token holds no seat at this table: you are watching")
        self.seat = seat
        self.send(
            {
                "type": "welcome",
                "table": table.id,
                "seat": seat,
                "role": "spectator" if seat is None else "player",
            }
        )
        table.listeners.add(self)
        table.changed()
        log("connected", table=table.id, seat=seat)
        return True

    async def _handle(self, kind: str, data: dict[str, Any]) -> None:
        table = self.table
        assert table is not None
        if kind == "ping":
            self.send({"type": "pong"})
        elif kind == "sync":
            self.log_from = 0
            self.wake()
        elif kind == "back":
            if self.seat is None:
                self.error("spectator", "spectators hold no seat")
            else:
                await table.back(self.seat)
        elif kind == "act":
            await self._act(table, data)
        elif kind == "contribute":
            await self._contribute(table, data)

    async def _contribute(self, table: Table, data: dict[str, Any]) -> None:
        if self.seat is None:
            self.error("spectator", "only a seated person adds a seed to the deal")
            return
        try:
            await table.contribute(self.seat, data.get("seed"))
        except Rejected as exc:
            self.error(exc.code, exc.message)

    async def _act(self, table: Table, data: dict[str, Any]) -> None:
        action, version = data.get("action"), data.get("version")
        if self.seat is None:
            self.error("spectator", "you are watching: only a seated player with its token can act")
            return
        if not isinstance(action, str) or not action.strip():
            self.error("bad_message", "'action' must be the text of an action")
            return
        if not isinstance(version, int) or isinstance(version, bool):
            self.error("bad_message", "'version' must be the version of the state you acted on")
            return
        try:
            await table.submit(self.seat, action, version, by="player")
        except Rejected as exc:
            self.error(exc.code, exc.message)
            if exc.code == "stale_version":
                self.wake()

    # ----------------------------------------------------------------------------- writing
    async def _writer(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self.outbox:
                    await self.websocket.send_text(encode(self.outbox.popleft()))
                if self.dirty and self.table is not None and self in self.table.listeners:
                    self.dirty = False
                    state = self.table.message_for(self.seat, self.log_from)
                    self.log_from = len(self.table.log)
                    await self.websocket.send_text(encode(state))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def _flush_and_close(self, code: int, reason: str) -> None:
        for _ in range(50):
            if not self.outbox:
                break
            await asyncio.sleep(0.01)
        if self.websocket.application_state == WebSocketState.CONNECTED:
            await self.websocket.close(code=code, reason=reason)


class LobbyFeed:
    """A lobby page following the open tables: the whole list when it changes (coalesced like a
    table's state), answers to ``ping``; everything else it sends is refused with a clear error."""

    def __init__(self, websocket: WebSocket, lobby: Lobby, settings: Settings) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.settings = settings
        self.outbox: deque[dict[str, Any]] = deque()
        self.dirty = True
        self._wake = asyncio.Event()
        self._wake.set()
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst, time.monotonic())

    def wake(self) -> None:
        self.dirty = True
        self._wake.set()

    async def serve(self) -> None:
        self.lobby.watchers.add(self)
        writer = asyncio.create_task(self._writer())
        try:
            while True:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if not self.bucket.take(time.monotonic()):
                    self._send({"type": "error", "code": "rate_limited", "message": "slow down"})
                elif _is_ping(message.get("text")):
                    self._send({"type": "pong"})
                else:
                    self._send(
                        {
                            "type": "error",
                            "code": "unknown_type",
                            "message": 'the lobby feed only answers {"type": "ping"}',
                        }
                    )
        except WebSocketDisconnect:
            return
        finally:
            self.lobby.watchers.discard(self)
            writer.cancel()

    def _send(self, message: dict[str, Any]) -> None:
        self.outbox.append(message)
        self._wake.set()

    async def _writer(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self.outbox:
                    await self.websocket.send_text(encode(self.outbox.popleft()))
                if self.dirty:
                    self.dirty = False
                    listing = {
                        "type": "tables",
                        "status": "open",
                        "tables": self.lobby.listing("open"),
                    }
                    await self.websocket.send_text(encode(listing))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return


def _is_ping(text: str | None) -> bool:
    if text is None or len(text) > 64:
        return False
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return isinstance(data, dict) and data.get("type") == "ping"
