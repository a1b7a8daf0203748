"""What a process checks about the deployment it is part of: its clock against the database's,
and that every process on the same database uses the same Redis prefix."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import TYPE_CHECKING

from ludoteca.server.logs import log

if TYPE_CHECKING:
    from ludoteca.server.config import Settings
    from ludoteca.server.storage import Storage


SAMPLES = 3  # reads of the database's clock per look: the fastest answer is the most exact
CENSUS_SECONDS = 10.0
"""How often a process compares its clock with the database's and looks at the other processes
serving the same tables."""


def storage_label(settings: Settings) -> str:
    """What names this process's database sessions after the database: a digest of its Redis
    prefix, or ``solo`` without Redis. Processes serving one database must all show one label."""
    if not settings.redis_url:
        return "solo"
    return hashlib.sha256(settings.redis_prefix.encode()).hexdigest()[:12]


class Watch:
    """What a process checks about the deployment it is part of, every ``CENSUS_SECONDS``:

    - how far its clock is off the database's (``now`` corrects it, for the turn clocks), and
      whether that is more than ``tolerance`` seconds (then the machine's clock needs fixing);
    - that every process serving the same database and schema uses the same Redis prefix (or
      no Redis): processes that disagree drive the same tables twice and never hear each other.

    Each finding is logged when it appears and when it clears, and shown by ``/healthz``."""

    def __init__(self, label: str, tolerance: float) -> None:
        self.label = label
        self.tolerance = tolerance
        self.skew: float | None = None  # this process's clock minus the database's, seconds
        self.others: list[str] = []  # the other labels seen on this database

    def now(self) -> float:
        """The time on the database's clock, as well as this process can tell: its own clock
        less the skew last measured. Every turn's start and deadline is taken from it, so that
        every process, whatever its own clock says, enforces the deadline every other shows."""
        return time.time() - (self.skew or 0.0)

    @property
    def skewed(self) -> bool:
        return self.skew is not None and abs(self.skew) > self.tolerance

    def problems(self) -> list[str]:
        found = []
        if self.skewed:
            assert self.skew is not None
            found.append(
                f"this process's clock is {self.skew:+.1f} s off the database's "
                f"(more than {self.tolerance:g} s)"
            )
        if self.others:
            found.append(
                f"processes on this database use other Redis prefixes ({', '.join(self.others)}; "
                f"this one {self.label}): they drive the same tables without hearing each other"
            )
        return found

    async def check(self, storage: Storage) -> None:
        was_skewed, had_others = self.skewed, bool(self.others)
        best: tuple[float, float] | None = None  # (round trip, skew) of the fastest answer
        for _ in range(SAMPLES):
            before = time.time()
            census = await storage.census()
            after = time.time()
            if best is None or after - before < best[0]:
                best = (after - before, (before + after) / 2 - census.now)
        assert best is not None
        trip, skew = best
        if trip <= self.tolerance:  # a slow answer says nothing about the clocks
            # the database read its clock between ``before`` and ``after``: a skew within half
            # the round trip is no skew that can be told from none
            self.skew = 0.0 if abs(skew) <= trip / 2 else skew
        labels = {label.split(" ", 2)[-1] for label in census.labels}
        self.others = sorted(labels - {self.label})
        if self.skewed != was_skewed:
            level = logging.WARNING if self.skewed else logging.INFO
            log("clock_skew", level, skew=round(self.skew or 0.0, 3), tolerance=self.tolerance)
        if bool(self.others) != had_others:
            level = logging.WARNING if self.others else logging.INFO
            log("deployment_disagrees", level, label=self.label, others=self.others)

    async def run(self, storage: Storage) -> None:
        while True:
            try:
                await self.check(storage)
            except Exception as exc:  # the database is out of reach: the health check says so
                log("census_failed", logging.WARNING, error=repr(exc))
            await asyncio.sleep(CENSUS_SECONDS)
