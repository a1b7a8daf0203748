"""What the moderation of a table's chat needs from it: hiding a message (kept stored, shown to
nobody, taken off the screens of those reading it now) and the messages around one (the context
of a report), both rooms and hidden messages included."""

from __future__ import annotations

from typing import Any

from .service import Chat
from .store import ChatRow


async def hide_message(chat: Chat, message_id: int) -> ChatRow | None:
    """Hide message ``message_id``; the message (now hidden), or None when there is none."""
    return await chat.hide(message_id)


async def messages_around(
    chat: Chat, message_id: int, before: int = 10, after: int = 10
) -> list[ChatRow]:
    """Message ``message_id`` with up to ``before`` messages of its table before it and
    ``after`` after it, in the order they were said; empty when there is no such message."""
    return await chat.around(message_id, before, after)


async def author_of(chat: Chat, table_id: str, message_id: str) -> tuple[bool, str | None]:
    """Whether message ``message_id`` (as text) was said at ``table_id``, and its sender's
    account (None: a guest's)."""
    number = int(message_id) if message_id.isdecimal() and len(message_id) < 19 else None
    found = await chat.around(number, 0, 0) if number is not None else []
    if not found or found[0].table_id != table_id:
        return False, None
    return True, found[0].account_id


class DeskChat:
    """The chat as the operator's desk asks it (``social.desk.ChatDesk``): by a report's table
    and message id (text, as the report keeps it), each message with its author and its words
    (a quick phrase as ``[id]``)."""

    def __init__(self, chat: Chat) -> None:
        self.chat = chat

    async def _message(self, table_id: str, message_id: str) -> int | None:
        found, _author = await author_of(self.chat, table_id, message_id)
        return int(message_id) if found else None

    async def around(self, table_id: str, message_id: str) -> list[dict[str, Any]] | None:
        number = await self._message(table_id, message_id)
        if number is None:
            return None
        return [
            {
                "id": str(row.id),
                "author": row.name,
                "room": row.room,
                "text": row.text if row.text is not None else f"[{row.phrase}]",
                "hidden": row.hidden,
            }
            for row in await messages_around(self.chat, number)
        ]

    async def hide(self, table_id: str, message_id: str) -> bool:
        number = await self._message(table_id, message_id)
        return number is not None and await hide_message(self.chat, number) is not None
