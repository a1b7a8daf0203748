"""The process's notices with the chat's taken out: a ``chat`` notice goes to the ``Chat``, every
other to the lobby's ``Handler`` as before (``docs/cluster.md``)."""

from __future__ import annotations

from collections.abc import Iterable

from ludoteca.server.cluster.base import Handler, Notice

from .service import Chat


class WithChat:
    """A ``Handler`` that hands ``chat`` notices to ``chat`` and the rest to ``inner``."""

    def __init__(self, inner: Handler, chat: Chat) -> None:
        self.inner = inner
        self.chat = chat

    async def notice(self, notice: Notice) -> None:
        if notice.kind == "chat":
            await self.chat.hear(notice)
        else:
            await self.inner.notice(notice)

    async def gained(self, table_id: str) -> None:
        await self.inner.gained(table_id)

    def lost(self, table_id: str) -> None:
        self.inner.lost(table_id)

    def finished(self, table_ids: Iterable[str]) -> list[str]:
        return self.inner.finished(table_ids)

    def movable(self, table_ids: Iterable[str]) -> list[str]:
        return self.inner.movable(table_ids)

    async def live(self) -> list[str]:
        return await self.inner.live()

    async def resync(self) -> None:
        await self.inner.resync()

    async def poll(self) -> None:
        await self.inner.poll()
