"""What the moderation of a table's chat needs from it: hiding a message (kept stored, shown to
nobody, taken off the screens of those reading it now) and the messages around one (the context
of a report), both rooms and hidden messages included."""

from __future__ import annotations

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
