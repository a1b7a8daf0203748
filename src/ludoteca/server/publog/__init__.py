"""The public log of tables: an append-only Merkle log of every table whose commitments closed,
and of how each ended, with signed tree heads and proofs (``docs/log.md``)."""

from __future__ import annotations

from .service import LogHook, NoLog, PublicLog, entry_of
from .store import Entry, LogStore, MemoryLogStore, SqlLogStore

__all__ = [
    "Entry",
    "LogHook",
    "LogStore",
    "MemoryLogStore",
    "NoLog",
    "PublicLog",
    "SqlLogStore",
    "entry_of",
]
