"""A slow link on loopback: a TCP proxy that really delays and limits the bytes it carries.

``SlowLink(target_port, delay=0.150, rate=200_000)`` listens on 127.0.0.1 and forwards every
connection to the target; each direction of the link is one pipe shared by all connections (as a
phone's radio is): a byte waits until the pipe has sent the bytes before it (``rate`` bytes a
second), then travels ``delay`` seconds; a new connection costs a round trip (the TCP handshake)
before its first byte leaves. Segments of at most ``SEGMENT`` bytes keep the timing smooth.
Chromium's ``Network.emulateNetworkConditions`` was found not to delay the first byte in the
Debian build the suite uses; this proxy is what a browser really meets on a slow link.

It runs its own event loop in a thread, so that synchronous code (Playwright's sync API, a
benchmark) can use it::

    with SlowLink(port) as link:
        page.goto(f"http://127.0.0.1:{link.port}/")
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from types import TracebackType

SEGMENT = 1460
"""Bytes in one segment: an Ethernet-sized TCP payload."""


class Pipe:
    """One direction of the link: when each segment finishes leaving, and when it arrives."""

    def __init__(self, rate: float, delay: float) -> None:
        self.rate = rate
        self.delay = delay
        self.free_at = 0.0
        self.carried = 0

    def arrival(self, now: float, size: int) -> float:
        """When a segment of ``size`` bytes handed over at ``now`` reaches the other end."""
        start = max(now, self.free_at)
        self.free_at = start + size / self.rate
        self.carried += size
        return self.free_at + self.delay


class SlowLink:
    """The proxy (see the module's doc); ``port`` is where to connect, ``up``/``down`` the pipes
    (client to server, server to client) with the bytes they carried."""

    def __init__(
        self, target_port: int, *, delay: float = 0.150, rate: float = 200_000,
        target_host: str = "127.0.0.1",
    ) -> None:  # fmt: skip
        self.target = (target_host, target_port)
        self.delay = delay
        self.up = Pipe(rate, delay)
        self.down = Pipe(rate, delay)
        self.port = 0
        self.connections = 0
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.Server | None = None

    def __enter__(self) -> SlowLink:
        self._thread.start()
        started = asyncio.run_coroutine_threadsafe(self._listen(), self._loop)
        self.port = started.result(10)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        tasks = asyncio.all_tasks() - {asyncio.current_task()}
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        loop = asyncio.get_running_loop()
        handshake_done = loop.time() + 2 * self.delay  # SYN, SYN-ACK: a round trip first
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        carried = asyncio.gather(
            self._carry(reader, upstream_writer, self.up, handshake_done),
            self._carry(upstream_reader, writer, self.down, 0.0),
            return_exceptions=True,
        )
        with contextlib.suppress(asyncio.CancelledError):
            await carried

    async def _carry(
        self,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        pipe: Pipe,
        not_before: float,
    ) -> None:
        """Read what one end sends and hand it to the other end when the link would have: each
        segment in order at its arrival time (then, the end of the stream)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                at, data = await queue.get()
                wait = at - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not data:
                    with contextlib.suppress(OSError):
                        sink.write_eof()
                    return
                sink.write(data)
                with contextlib.suppress(OSError):
                    await sink.drain()

        delivering = asyncio.create_task(deliver())
        try:
            while True:
                data = await source.read(65536)
                now = max(loop.time(), not_before)
                if not data:
                    await queue.put((max(now, pipe.free_at) + pipe.delay, b""))
                    break
                for start in range(0, len(data), SEGMENT):
                    segment = data[start : start + SEGMENT]
                    await queue.put((pipe.arrival(now, len(segment)), segment))
            await delivering
        finally:
            delivering.cancel()
            sink.close()
