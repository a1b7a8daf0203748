"""Waiting for something that happens elsewhere (a server, a process, another thread): poll for
the real event, up to a deadline that only stops a broken test. Never a fixed sleep: a sleep
either wastes time or, on a busy machine, ends before the event and lets a test pass vacuously.
Every deadline is stretched by ``kit.env.seconds`` (``LUDOTECA_TEST_SLOWDOWN``, or the load)."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from kit.env import seconds

T = TypeVar("T")


def _timed_out(what: str, timeout: float, last: object) -> AssertionError:
    return AssertionError(f"{what} did not happen within {timeout:g} s (last seen: {last!r})")


def eventually(
    predicate: Callable[[], T],
    timeout: float = 10.0,
    interval: float = 0.05,
    what: str = "the awaited event",
) -> T:
    """Call ``predicate`` until it returns something true, and return that; fail with ``what``
    and the last value once ``timeout`` seconds (stretched) have passed. The predicate is always
    called once more at the deadline; its exceptions are not caught."""
    timeout = seconds(timeout)
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _timed_out(what, timeout, value)
        time.sleep(interval)


async def eventually_async(
    predicate: Callable[[], T | Awaitable[T]],
    timeout: float = 10.0,
    interval: float = 0.05,
    what: str = "the awaited event",
) -> T:
    """``eventually`` inside an event loop: the predicate may be a coroutine function."""
    timeout = seconds(timeout)
    deadline = time.monotonic() + timeout
    while True:
        found = predicate()
        value: T = await found if inspect.isawaitable(found) else found  # type: ignore[assignment]
        if value:
            return value
        if time.monotonic() >= deadline:
            raise _timed_out(what, timeout, value)
        await asyncio.sleep(interval)
