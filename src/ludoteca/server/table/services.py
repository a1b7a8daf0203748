"""What every table needs from the process it runs in, in one value handed to each table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ludoteca.server.analysis.queue import MatchOverHook, NoAnalysis
from ludoteca.server.cluster.base import Cluster, Solo
from ludoteca.server.publog.service import LogHook, NoLog
from ludoteca.server.signing import KeyRing
from ludoteca.server.storage import Storage

from .bot_runner import BotRunner
from .turns import NoTurnHook, TurnHook

if TYPE_CHECKING:
    from ludoteca.server.config import Settings


@dataclass(slots=True)
class Services:
    """What a table needs from the process: storage, bots, settings, signing keys, the other
    processes (``cluster``: who drives which table, and telling them what changed), whoever is
    told that a person's turn began (``turns``), whoever analyses a match once it is over
    (``analyses``), the public log of tables (``publog``: told when the commitments close and
    when the match ends), and the time (``now`` and ``sleep``, injected so
    tests drive clocks without waiting)."""

    storage: Storage
    bots: BotRunner
    settings: Settings
    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    keys: KeyRing = field(default_factory=KeyRing.ephemeral)
    cluster: Cluster = field(default_factory=Solo)
    turns: TurnHook = field(default_factory=NoTurnHook)
    analyses: MatchOverHook = field(default_factory=NoAnalysis)
    publog: LogHook = field(default_factory=NoLog)


__all__ = ["Services"]
