"""Websocket clients: a seat or a spectator at a table, and a lobby page following open tables.

Both write through one ``outbox.Outbox`` (a table's state and a lobby table's summary in *latest*
slots: a newer one replaces the one not yet sent) and read through one ``outbox.Reader``.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ludoteca.server.chat import Chat, ChatRow
from ludoteca.server.config import Settings
from ludoteca.server.lobby.lobby import Lobby
from ludoteca.server.lobby.seeks import Seeks
from ludoteca.server.logs import log
from ludoteca.server.messages import (
    Abort,
    Act,
    Back,
    CloseCode,
    Commit,
    ErrorCode,
    Hello,
    Ping,
    Rejected,
    Resign,
    Reveal,
    Say,
    Status,
    Sync,
)
from ludoteca.server.table.ending import abort, abort_key
from ludoteca.server.table.resign import resign
from ludoteca.server.table.table import Table

from .outbox import Outbox, Reader, parse

NO_HELLO = 'send {"type": "hello"} first (with your seat token)'


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

    def __init__(  # noqa: PLR0917
        self,
        websocket: WebSocket,
        lobby: Lobby,
        settings: Settings,
        chat: Chat,
        account: tuple[str, str] | None = None,
        client: str = "unknown",
    ) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.settings = settings
        self.chat = chat
        self.account = account  # (id, name) of the signed-in person, if any
        self.client = client
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
                self.table = await self.lobby.residency.get(table_id)
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
            if self.table is not None:
                self.chat.leave(self.table.id, self)
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
        self.seat = seat
        role = "spectator" if seat is None else "player"
        self.outbox.reply({"type": "welcome", "table": table.id, "seat": seat, "role": role})
        account = self.account[0] if self.account else None
        self.outbox.reply(await self.chat.join(table.id, self, account))
        if message.commitment is not None:  # as a commit, before the first state: it shows it
            same = seat is not None and table.seats[seat].commitment == message.commitment
            if not same:  # a reconnection's same commitment again changes nothing
                await self.on_commit(Commit(type="commit", commitment=message.commitment))
        self.greeted = True  # states from now on
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

    async def on_resign(self, _message: Resign) -> None:
        if self.seat is None:
            self.error(ErrorCode.SPECTATOR, "spectators hold no seat to resign")
            return
        assert self.table is not None
        try:
            await resign(self.table, self.seat)
        except Rejected as exc:
            self.error(exc.code, exc.message)

    async def on_abort(self, _message: Abort) -> None:
        if self.seat is None:
            self.error(ErrorCode.SPECTATOR, "spectators hold no seat to abort from")
            return
        assert self.table is not None
        who = abort_key(self.account[0] if self.account else None, self.client)
        try:
            await abort(self.table, self.seat, who)
        except Rejected as exc:
            self.error(exc.code, exc.message)

    async def on_commit(self, message: Commit) -> None:
        if self.seat is None:
            self.error(ErrorCode.SPECTATOR, "only a seated person commits to a seed for the deal")
            return
        assert self.table is not None
        try:
            await self.table.commit(self.seat, message.commitment)
        except Rejected as exc:
            self.error(exc.code, exc.message)

    async def on_reveal(self, message: Reveal) -> None:
        if self.seat is None:
            self.error(ErrorCode.SPECTATOR, "only a seated person reveals a seed for the deal")
            return
        assert self.table is not None
        try:
            await self.table.reveal(self.seat, message.seed, message.salt)
        except Rejected as exc:
            self.error(exc.code, exc.message)

    # ---------------------------------------------------------------------------- the chat
    def match_over(self) -> bool:
        return self.table is not None and self.table.row.status == Status.OVER

    def deliver(self, message: dict[str, Any]) -> None:
        """A chat message (or a message hidden) for this client."""
        self.outbox.reply(message)

    async def on_chat(self, message: Say) -> None:
        table = self.table
        assert table is not None
        seat, account = self.seat, self.account
        if seat is not None:
            name, key = table.row.seats[seat].name, f"seat:{table.id}:{seat}"
        else:
            name, key = "", f"address:{self.client}"
        if account is not None:
            key = f"account:{account[0]}"
            name = name or account[1]

        def acknowledge(row: ChatRow) -> None:
            self.outbox.reply({"type": "chat_ack", "ref": message.ref, "id": row.id})

        try:
            await self.chat.say(
                table.id,
                seat=seat,
                name=name,
                account=account[0] if account else None,
                rate_key=key,
                phrase=message.phrase,
                text=message.text,
                stored=acknowledge,
            )
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
    Commit: Connection.on_commit,
    Reveal: Connection.on_reveal,
    Back: Connection.on_back,
    Resign: Connection.on_resign,
    Abort: Connection.on_abort,
    Sync: Connection.on_sync,
    Ping: Connection.on_ping,
    Say: Connection.on_chat,
}
"""What a connection does with each client message (after hello)."""


class LobbyFeed:
    """A lobby page following the open tables: one page at once, then only what changes
    (``table_added``, ``table_changed``, ``table_removed``), each coalesced per table, each
    open table with its ``seek`` (none shown that its reader and poster blocked, either way);
    and, asked for, the counts of people looking (``looking``) at once and whenever they
    change. It answers ``ping`` and refuses everything else with a clear error."""

    def __init__(  # noqa: PLR0917
        self,
        websocket: WebSocket,
        lobby: Lobby,
        settings: Settings,
        game: str | None = None,
        seeks: Seeks | None = None,
        kept: frozenset[str] = frozenset(),
        looking: bool = False,
    ) -> None:
        self.websocket = websocket
        self.lobby = lobby
        self.settings = settings
        self.game = game
        self.seeks = seeks
        self.kept = kept  # the accounts the reader blocked or was blocked by: their seeks hide
        self.looking = looking  # the counts of people looking asked for too
        self.known: set[str] = set()
        self.outbox = Outbox(
            websocket, settings.max_pending_replies, settings.max_pending_tables, "lobby"
        )
        self.reader = Reader(websocket, self.outbox, settings)

    def table_changed(self, table_id: str) -> None:
        self.outbox.put_latest(table_id, lambda: self._delta(table_id))

    def counts_changed(self) -> None:
        if self.seeks is not None:
            self.outbox.put_latest("\nlooking", self.seeks.counts)

    def _listed(self, summary: dict[str, Any] | None) -> dict[str, Any] | None:
        """The summary as this reader sees it (with its seek), or None when hidden."""
        if summary is None or self.seeks is None:
            return summary
        if self.seeks.hidden(summary["id"], self.kept):
            return None
        return self.seeks.decorate(summary)

    def _delta(self, table_id: str) -> dict[str, Any] | None:
        summary = self._listed(self.lobby.residency.open_summary(table_id))
        if summary is not None and self.game in (None, summary["game"]):
            kind = "table_changed" if table_id in self.known else "table_added"
            self.known.add(table_id)
            return {"type": kind, "table": summary}
        if table_id in self.known:
            self.known.discard(table_id)
            return {"type": "table_removed", "id": table_id}
        return None

    async def serve(self) -> None:
        page, total = await self.lobby.residency.listing(
            "open", game=self.game, limit=self.settings.page_size
        )
        page = [listed for t in page if (listed := self._listed(t)) is not None]
        self.known = {t["id"] for t in page}
        self.outbox.reply(
            {"type": "tables", "status": "open", "game": self.game, "tables": page, "total": total}
        )
        self.lobby.residency.watchers.add(self)
        if self.seeks is not None and self.looking:
            self.outbox.reply(self.seeks.counts())
            self.seeks.watchers.add(self)
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
            self.lobby.residency.watchers.discard(self)
            if self.seeks is not None:
                self.seeks.watchers.discard(self)
            await self.outbox.finish()
