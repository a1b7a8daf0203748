"""Every table's chat: quick phrases and free text, the seats' room and the spectators', stored
with the table and heard by every process (docs/protocol.md#chat)."""

from __future__ import annotations

from .moderation import DeskChat, author_of, hide_message, messages_around
from .notices import WithChat
from .phrases import MAX_TEXT, PHRASES, ROOMS, SEATS, SPECTATORS, check, reads, room_of
from .service import HISTORY, Chat, Hook, Keep, Reader, keep_all, no_filter
from .store import ChatRow, ChatStore, MemoryChatStore, SqlChatStore

__all__ = [
    "HISTORY",
    "MAX_TEXT",
    "PHRASES",
    "ROOMS",
    "SEATS",
    "SPECTATORS",
    "Chat",
    "ChatRow",
    "ChatStore",
    "DeskChat",
    "Hook",
    "Keep",
    "MemoryChatStore",
    "Reader",
    "SqlChatStore",
    "WithChat",
    "author_of",
    "check",
    "hide_message",
    "keep_all",
    "messages_around",
    "no_filter",
    "reads",
    "room_of",
]
