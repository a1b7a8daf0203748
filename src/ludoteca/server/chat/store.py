"""Where a table's chat is kept (revision 0016): its messages, numbered in the order stored, and
the host's choice of free text. One protocol, two stores: ``SqlChatStore`` (the tables'
database, SQLite or PostgreSQL) and ``MemoryChatStore`` (beside the in-memory table store).

A message is stored before anyone is told of it, the sender's acknowledgement included: an
acknowledged message is in the database whatever happens to the process afterwards. A hidden
message stays stored and is read by nobody but the moderation functions (``moderation.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, ParamSpec, Protocol, TypeVar

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Engine

from ludoteca.server.storage.schema import chat_messages, chat_settings

P = ParamSpec("P")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ChatRow:
    """One message: ``id`` 0 until stored; ``phrase`` (a quick phrase's id) or ``text``;
    ``account_id`` the signed-in sender's account (never sent to clients)."""

    id: int
    table_id: str
    room: str
    seat: int | None
    account_id: str | None
    name: str
    phrase: str | None
    text: str | None
    at: float
    hidden: bool = False

    def public(self) -> dict[str, Any]:
        """The message as clients receive it."""
        return {
            "id": self.id,
            "room": self.room,
            "seat": self.seat,
            "name": self.name,
            "phrase": self.phrase,
            "text": self.text,
            "at": self.at,
        }


class ChatStore(Protocol):
    async def add(self, row: ChatRow) -> ChatRow:
        """Store a message; the row with its new ``id``."""
        ...

    async def recent(self, table_id: str, rooms: Sequence[str], limit: int) -> list[ChatRow]:
        """The last ``limit`` messages of these rooms that are not hidden, oldest first."""
        ...

    async def get(self, message_id: int) -> ChatRow | None: ...

    async def around(self, message_id: int, before: int, after: int) -> list[ChatRow]:
        """The message and up to ``before`` and ``after`` messages of its table around it (both
        rooms, hidden ones too), in order; empty when there is no such message."""
        ...

    async def hide(self, message_id: int, hidden: bool) -> bool:
        """Hide (or show again) a message; False when there is no such message."""
        ...

    async def set_text(self, table_id: str, allowed: bool) -> None: ...

    async def text_allowed(self, table_id: str) -> bool: ...

    def close(self) -> None: ...


class MemoryChatStore:
    def __init__(self) -> None:
        self._rows: dict[int, ChatRow] = {}
        self._text: dict[str, bool] = {}

    async def add(self, row: ChatRow) -> ChatRow:
        stored = replace(row, id=len(self._rows) + 1)
        self._rows[stored.id] = stored
        return stored

    async def recent(self, table_id: str, rooms: Sequence[str], limit: int) -> list[ChatRow]:
        found = [
            r
            for r in self._rows.values()
            if r.table_id == table_id and r.room in rooms and not r.hidden
        ]
        return found[-limit:] if limit > 0 else []

    async def get(self, message_id: int) -> ChatRow | None:
        return self._rows.get(message_id)

    async def around(self, message_id: int, before: int, after: int) -> list[ChatRow]:
        row = self._rows.get(message_id)
        if row is None:
            return []
        table = [r for r in self._rows.values() if r.table_id == row.table_id]
        at = table.index(row)
        return table[max(0, at - before) : at + after + 1]

    async def hide(self, message_id: int, hidden: bool) -> bool:
        row = self._rows.get(message_id)
        if row is None:
            return False
        self._rows[message_id] = replace(row, hidden=hidden)
        return True

    async def set_text(self, table_id: str, allowed: bool) -> None:
        self._text[table_id] = allowed

    async def text_allowed(self, table_id: str) -> bool:
        return self._text.get(table_id, False)

    def close(self) -> None:
        return None


def _row(r: Any) -> ChatRow:
    return ChatRow(
        r.id, r.table_id, r.room, r.seat, r.account_id, r.name, r.phrase, r.text, r.at, r.hidden
    )


class SqlChatStore:
    """The chat in the tables' database; each call runs on a small pool of its own threads."""

    def __init__(self, engine: Engine, threads: int = 4) -> None:
        self.engine = engine
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="chat")

    async def _run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, lambda: fn(*args, **kwargs))

    async def add(self, row: ChatRow) -> ChatRow:
        return await self._run(self._add, row)

    def _add(self, row: ChatRow) -> ChatRow:
        with self.engine.begin() as conn:
            done = conn.execute(
                insert(chat_messages)
                .values(
                    table_id=row.table_id,
                    room=row.room,
                    seat=row.seat,
                    account_id=row.account_id,
                    name=row.name,
                    phrase=row.phrase,
                    text=row.text,
                    at=row.at,
                    hidden=row.hidden,
                )
                .returning(chat_messages.c.id)
            )
            return replace(row, id=int(done.scalar_one()))

    async def recent(self, table_id: str, rooms: Sequence[str], limit: int) -> list[ChatRow]:
        return await self._run(self._recent, table_id, list(rooms), limit)

    def _recent(self, table_id: str, rooms: list[str], limit: int) -> list[ChatRow]:
        c = chat_messages.c
        query = (
            select(chat_messages)
            .where(and_(c.table_id == table_id, c.room.in_(rooms), c.hidden.is_(False)))
            .order_by(c.id.desc())
            .limit(limit)
        )
        with self.engine.connect() as conn:
            found = [_row(r) for r in conn.execute(query)]
        return found[::-1]

    async def get(self, message_id: int) -> ChatRow | None:
        return await self._run(self._get, message_id)

    def _get(self, message_id: int) -> ChatRow | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(chat_messages).where(chat_messages.c.id == message_id)
            ).first()
        return None if found is None else _row(found)

    async def around(self, message_id: int, before: int, after: int) -> list[ChatRow]:
        return await self._run(self._around, message_id, before, after)

    def _around(self, message_id: int, before: int, after: int) -> list[ChatRow]:
        row = self._get(message_id)
        if row is None:
            return []
        c = chat_messages.c
        same = c.table_id == row.table_id
        with self.engine.connect() as conn:
            earlier = conn.execute(
                select(chat_messages)
                .where(and_(same, c.id < message_id))
                .order_by(c.id.desc())
                .limit(before)
            )
            later = conn.execute(
                select(chat_messages)
                .where(and_(same, c.id > message_id))
                .order_by(c.id)
                .limit(after)
            )
            return [*[_row(r) for r in earlier][::-1], row, *[_row(r) for r in later]]

    async def hide(self, message_id: int, hidden: bool) -> bool:
        return await self._run(self._hide, message_id, hidden)

    def _hide(self, message_id: int, hidden: bool) -> bool:
        with self.engine.begin() as conn:
            done = conn.execute(
                update(chat_messages).where(chat_messages.c.id == message_id).values(hidden=hidden)
            )
        return bool(done.rowcount == 1)

    async def set_text(self, table_id: str, allowed: bool) -> None:
        await self._run(self._set_text, table_id, allowed)

    def _set_text(self, table_id: str, allowed: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(chat_settings).where(chat_settings.c.table_id == table_id))
            conn.execute(insert(chat_settings).values(table_id=table_id, text=allowed))

    async def text_allowed(self, table_id: str) -> bool:
        return await self._run(self._text_allowed, table_id)

    def _text_allowed(self, table_id: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.execute(
                select(chat_settings.c.text).where(chat_settings.c.table_id == table_id)
            ).first()
        return bool(found is not None and found.text)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
