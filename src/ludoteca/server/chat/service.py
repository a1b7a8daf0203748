"""A process's side of every table's chat: who reads it here, what is said, and telling the
other processes (a ``chat`` notice on the cluster's channel, docs/cluster.md).

Saying something: the message is checked (``phrases.check``), counted against the sender's rate
(``chat`` in the rate limits), **stored**, and only then acknowledged, shown to this process's
readers of its room and announced to the others, who show it to theirs. A process killed after
the store loses nothing acknowledged; one killed before the announcement leaves the message in
the history every (re)connection reads.

Each reader has a filter, made once when it joins by the ``hook`` from its account (None for a
guest): the default keeps every message; the server's hook drops the messages of the people the
reader blocked or who blocked the reader (docs/accounts.md#friends-and-blocking). A signed-in
sender is asked of ``allowed`` first: a muted or suspended account says nothing (``muted``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from ludoteca.server.cluster.base import Cluster, Notice
from ludoteca.server.logs import log
from ludoteca.server.messages import ErrorCode, Rejected, TooMany

from .phrases import check, reads, room_of, rooms_read
from .store import ChatRow, ChatStore

HISTORY = 100
"""The most messages a (re)connecting reader receives at once."""

Keep = Callable[[ChatRow], bool]
"""A reader's filter: whether the reader is shown this message."""
Hook = Callable[[str | None], Awaitable[Keep]]
"""Makes a reader's filter from its account (None: a guest)."""
Allowed = Callable[[str], Awaitable[bool]]
"""Whether an account may chat (neither muted nor suspended)."""
Limit = Callable[[str], Awaitable[float | None]]
"""Counts one message against a sender's rate: None, or the seconds to wait."""


def keep_all(_row: ChatRow) -> bool:
    return True


async def no_filter(_account: str | None) -> Keep:
    return keep_all


class Reader(Protocol):
    """A client reading a table's chat: a seat's (``seat``) or a spectator's (``None``)."""

    @property
    def seat(self) -> int | None: ...

    def match_over(self) -> bool: ...

    def deliver(self, message: dict[str, Any]) -> None: ...


class Chat:
    def __init__(
        self,
        store: ChatStore,
        cluster: Cluster,
        limit: Limit,
        now: Callable[[], float],
        *,
        hook: Hook = no_filter,
        allowed: Allowed | None = None,
        history: int = HISTORY,
    ) -> None:
        self.store = store
        self.cluster = cluster
        self.limit = limit
        self.now = now
        self.hook = hook
        self.allowed = allowed
        self.history = history
        self.readers: dict[str, dict[Reader, Keep]] = {}
        self._text: dict[str, bool] = {}  # the host's choice never changes: read once

    # ------------------------------------------------------------------------ readers
    async def join(self, table_id: str, reader: Reader, account: str | None) -> dict[str, Any]:
        """Read the table's chat from now on; the ``chat_history`` message to send it first."""
        keep = await self.hook(account)
        self.readers.setdefault(table_id, {})[reader] = keep
        return await self.history_for(table_id, reader.seat, reader.match_over(), keep)

    def leave(self, table_id: str, reader: Reader) -> None:
        here = self.readers.get(table_id)
        if here is not None:
            here.pop(reader, None)
            if not here:
                del self.readers[table_id]
                self._text.pop(table_id, None)

    async def history_for(
        self, table_id: str, seat: int | None, over: bool, keep: Keep = keep_all
    ) -> dict[str, Any]:
        """The ``chat_history`` message for this reader. A database that does not answer gives
        an empty one (marked ``unavailable``), not a broken connection: play goes on, and the
        next connection reads the history again."""
        try:
            rows = await self.store.recent(table_id, rooms_read(seat, over), self.history)
            text = await self.text_allowed(table_id)
        except Exception as exc:
            log("chat_not_read", logging.WARNING, table=table_id, error=repr(exc))
            return {"type": "chat_history", "text": False, "messages": [], "unavailable": True}
        return {
            "type": "chat_history",
            "text": text,
            "messages": [row.public() for row in rows if keep(row)],
        }

    # ------------------------------------------------------------------------ settings
    async def configure(self, table_id: str, text: bool) -> None:
        """The host's choice, made when the table is created: free text, or phrases only."""
        if text:
            await self.store.set_text(table_id, True)
        self._text[table_id] = text

    async def text_allowed(self, table_id: str) -> bool:
        allowed = self._text.get(table_id)
        if allowed is None:
            allowed = await self.store.text_allowed(table_id)
            if table_id in self.readers:
                self._text[table_id] = allowed
        return allowed

    # ------------------------------------------------------------------------ saying
    async def say(
        self,
        table_id: str,
        *,
        seat: int | None,
        name: str,
        account: str | None,
        rate_key: str,
        phrase: object = None,
        text: object = None,
        stored: Callable[[ChatRow], None] | None = None,
    ) -> ChatRow:
        """Check, count, store, acknowledge (``stored`` is told the stored row, before anyone
        is shown it), show here and announce a message; the stored row. Refused with a clear
        error, and nothing stored, otherwise."""
        allowed = await self.text_allowed(table_id) if text is not None else False
        phrase, text = check(phrase, text, signed_in=account is not None, text_allowed=allowed)
        if account is not None and self.allowed is not None and not await self.allowed(account):
            raise Rejected(ErrorCode.MUTED, "this account may not chat now")
        wait = await self.limit(rate_key)
        if wait is not None:
            raise TooMany(
                ErrorCode.RATE_LIMITED, f"too many messages: wait {wait:.0f} s", max(1.0, wait)
            )
        row = ChatRow(0, table_id, room_of(seat), seat, account, name, phrase, text, self.now())
        try:
            row = await self.store.add(row)
        except Exception as exc:
            log("chat_not_stored", logging.WARNING, table=table_id, error=repr(exc))
            raise Rejected(
                ErrorCode.SERVER_BUSY, "the message could not be stored: send it again"
            ) from None
        if stored is not None:
            stored(row)
        self._show(row)
        await self._announce(table_id, {"message": row.public(), "account": account})
        return row

    def _show(self, row: ChatRow) -> None:
        message = {"type": "chat", "message": row.public()}
        for reader, keep in list(self.readers.get(row.table_id, {}).items()):
            if reads(row.room, reader.seat, reader.match_over()) and keep(row):
                reader.deliver(message)

    def _unshow(self, table_id: str, message_id: int) -> None:
        for reader in list(self.readers.get(table_id, {})):
            reader.deliver({"type": "chat_hidden", "id": message_id})

    async def _announce(self, table_id: str, data: dict[str, Any]) -> None:
        if not self.cluster.shared:
            return
        try:
            notice = Notice(table_id, "chat", self.cluster.name, 0, "", chat=data)
            await self.cluster.publish(notice)
        except Exception as exc:  # stored already: (re)connections read it from the history
            log("notice_not_sent", logging.WARNING, table=table_id, error=repr(exc))

    async def hear(self, notice: Notice) -> None:
        """Another process stored a message (or hid one): show it to the readers here."""
        data = notice.chat or {}
        if notice.table not in self.readers:
            return
        if "hidden" in data:
            self._unshow(notice.table, int(data["hidden"]))
            return
        public = data.get("message")
        if public is None:
            return
        self._show(
            ChatRow(
                public["id"],
                notice.table,
                public["room"],
                public["seat"],
                data.get("account"),
                public["name"],
                public["phrase"],
                public["text"],
                public["at"],
            )
        )

    # ------------------------------------------------------------------------ moderation
    async def hide(self, message_id: int) -> ChatRow | None:
        """Hide a stored message from everyone (it stays stored); None: no such message."""
        if not await self.store.hide(message_id, True):
            return None
        row = await self.store.get(message_id)
        assert row is not None
        self._unshow(row.table_id, message_id)
        await self._announce(row.table_id, {"hidden": message_id})
        return row

    async def around(self, message_id: int, before: int = 10, after: int = 10) -> list[ChatRow]:
        return await self.store.around(message_id, before, after)
