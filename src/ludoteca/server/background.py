"""The process's background tasks, in one place with one lifetime: started while the app starts,
each named, a task that ends by itself (it should not) logged at once with why, and every one
cancelled and awaited together when the app stops (``app.lifespan``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from types import TracebackType
from typing import Any

from ludoteca.server.logs import log

STOP_SECONDS = 5.0
"""How long stopping waits for the cancelled tasks to finish before it goes on without them."""


class Background:
    """``async with Background() as tasks: tasks.start("deadlines", deadlines.run())``."""

    def __init__(self) -> None:
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._stopping = False

    def start(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        if name in self.tasks:
            work.close()
            raise ValueError(f"a background task named {name!r} runs already")
        task = asyncio.create_task(work, name=name)
        task.add_done_callback(self._ended)
        self.tasks[name] = task

    def _ended(self, task: asyncio.Task[None]) -> None:
        if self._stopping or task.cancelled():
            return
        error = task.exception()
        log(
            "background_task_ended",
            logging.ERROR,
            task=task.get_name(),
            error=repr(error) if error else None,
        )

    async def stop(self) -> None:
        self._stopping = True
        for task in self.tasks.values():
            task.cancel()
        if self.tasks:
            _, pending = await asyncio.wait(self.tasks.values(), timeout=STOP_SECONDS)
            for task in pending:
                log("background_task_lingers", logging.WARNING, task=task.get_name())

    async def __aenter__(self) -> Background:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.stop()
