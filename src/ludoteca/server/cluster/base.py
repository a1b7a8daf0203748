"""Several server processes serving one set of tables: who drives each table, and telling others.

The database is the authority on what happened; this module only says *who acts* and *who should
look*. One process at a time **drives** a table (arms its deal timer, its turn clock and its bot
seats) under a lease; any process may store a person's action, and whoever stores a step or
changes a table publishes a :class:`Notice` so that every other process holding that table catches
up and sends each of its clients their own view.

- :class:`Solo` is one process on its own: it drives every table and tells nobody.
- ``RedisCluster`` (module ``redis_cluster``) keeps the leases in Redis (a sorted set of expiry
  times and a hash of holders, changed only by Lua scripts, on Redis's own clock) and publishes
  notices on one pub/sub
  channel. A holder renews its leases every second; a lease it stops renewing lapses after
  ``lease_seconds``, and the surviving processes share the lapsed tables out among themselves. A
  stale holder cannot store a step that was taken: the step's key ``(table, seq)`` fences it.

Pub/sub may drop a notice only when a process dies between storing and publishing, or when the
subscription breaks; in both cases every process re-reads the tables it holds from the database
(``Handler.resync``), so nothing is missed for longer than one lease tick.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import orjson

NoticeKind = Literal["step", "row", "presence", "lease", "chat"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A table changed at process ``origin``: a step was stored (``kind`` "step", with the step's
    public fields), something else changed (``kind`` "row": seats, status, deal), who is connected
    changed ("presence"), ``origin`` took over driving it ("lease"), or its chat has a message
    stored or hidden (``chat``, kind "chat": the table itself did not change). ``summary`` is
    the table's public summary while it is open, for the lobby feeds of every process."""

    table: str
    kind: NoticeKind
    origin: str
    version: int
    status: str
    step: dict[str, Any] | None = None
    summary: dict[str, Any] | None = None
    chat: dict[str, Any] | None = None  # kind "chat": a message stored, or one hidden

    def encode(self) -> bytes:
        return orjson.dumps(self)  # a dataclass, as orjson writes it (asdict cost 2% of an action)

    @classmethod
    def decode(cls, data: bytes | str) -> Notice:
        fields = orjson.loads(data)
        return cls(**fields)


class Handler(Protocol):
    """What a cluster tells the process (the lobby) about its tables."""

    async def notice(self, notice: Notice) -> None:
        """Another process changed a table."""
        ...

    async def gained(self, table_id: str) -> None:
        """This process now drives the table (it took over a lapsed lease)."""
        ...

    def lost(self, table_id: str) -> None:
        """This process no longer drives the table: stop its timers now."""
        ...

    def finished(self, table_ids: Iterable[str]) -> list[str]:
        """Of these driven tables, those with nothing left to drive (over, expired, gone)."""
        ...

    def movable(self, table_ids: Iterable[str]) -> list[str]:
        """Of these driven tables, those no seated person is connected to here (so another
        process may drive them as well as this one)."""
        ...

    async def live(self) -> list[str]:
        """Every table in storage that needs a driver (starting or playing)."""
        ...

    async def resync(self) -> None:
        """Notices may have been missed: re-read every table held from the database."""
        ...

    async def poll(self) -> None:
        """Re-read the tables held whose version or status moved in the database."""
        ...


class Cluster(Protocol):
    name: str
    shared: bool

    def drives(self, table_id: str) -> bool:
        """Whether this process drives the table now."""
        ...

    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it or it lapsed; True if this process holds it."""
        ...

    async def draw(self, table_id: str) -> bool:
        """Take the table's lease also from a live holder that has no seated person connected
        (this process has one): the table is then driven where its people are, with no hop
        through Redis for each move. True if this process holds it now."""
        ...

    async def release(self, table_id: str) -> None: ...

    async def duty(self, name: str, seconds: float) -> bool:
        """Take or renew the duty ``name`` (one process at a time does it, e.g. firing the
        deadlines of turn-based tables) for ``seconds``; True if this process holds it now."""
        ...

    def driven_elsewhere(self, table_id: str, origin: str) -> None:
        """Process ``origin`` stored a bot's or the clock's move at a table this one drives: the
        table is driven twice (logged, and shown by ``/healthz`` for a minute)."""
        ...

    def doubles(self) -> list[str]:
        """The tables seen driven twice within the last minute."""
        ...

    async def publish(self, notice: Notice) -> None:
        """Send the notice to the other processes (in order; it may leave a moment later)."""
        ...

    async def present(self, table_id: str, seats: set[int]) -> None:
        """Which seats of the table have a client connected to this process."""
        ...

    async def presence(self, table_id: str) -> set[int]:
        """The seats with a client connected to some *other* live process."""
        ...

    async def ping(self) -> str | None:
        """None if the other processes can be reached, else what is wrong."""
        ...

    async def run(self, handler: Handler) -> None:
        """Keep the leases and listen for notices until cancelled."""
        ...

    async def close(self) -> None: ...


class Solo:
    """One process on its own: it drives every table, and there is nobody to tell."""

    shared = False

    def __init__(self) -> None:
        self.name = "solo"

    def drives(self, table_id: str) -> bool:
        return True

    async def claim(self, table_id: str) -> bool:
        return True

    async def draw(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None

    async def duty(self, name: str, seconds: float) -> bool:
        return True

    def driven_elsewhere(self, table_id: str, origin: str) -> None:
        return None  # nobody else stores anything

    def doubles(self) -> list[str]:
        return []

    async def publish(self, notice: Notice) -> None:
        return None

    async def present(self, table_id: str, seats: set[int]) -> None:
        return None

    async def presence(self, table_id: str) -> set[int]:
        return set()

    async def ping(self) -> str | None:
        return None

    async def run(self, handler: Handler) -> None:
        return None

    async def close(self) -> None:
        return None
