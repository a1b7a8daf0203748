"""The actions of a seat: a move to a tile, then per dwarf met a trade, a blind trade or a steal.

Actions are small frozen values (equal across states); the tables below hold one instance of each
so listing legal actions allocates nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .stones import NKINDS


@dataclass(frozen=True, slots=True)
class Move:
    """Move the dwarf to ``tile`` (its own tile = stay)."""

    tile: int


@dataclass(frozen=True, slots=True)
class Trade:
    """Give a stone of kind ``give`` and take one of kind ``take`` from the dwarf met."""

    give: int
    take: int


@dataclass(frozen=True, slots=True)
class BlindTrade:
    """Trade with an extra dwarf: one random stone each way."""


@dataclass(frozen=True, slots=True)
class Steal:
    """Take a stone of kind ``take`` from the dwarf met."""

    take: int


Action = Move | Trade | BlindTrade | Steal

MAX_TILES = 14
MOVES = tuple(Move(t) for t in range(MAX_TILES))
TRADES = tuple(tuple(Trade(g, t) for t in range(NKINDS)) for g in range(NKINDS))
STEALS = tuple(Steal(k) for k in range(NKINDS))
BLIND = BlindTrade()
