"""Treasure stones: the kinds, the set for a table, and chests kept as counts per kind."""

from __future__ import annotations

from collections.abc import Sequence

from ludoteca.core import Stream

KINDS = ("gold", "ruby", "sapphire", "emerald", "garnet", "diamond")
"""Stone kinds in canonical order; a chest is six counts in this order."""

DIAMOND = 5
NKINDS = len(KINDS)
ALIASES = {
    **{kind: k for k, kind in enumerate(KINDS)},
    "yellow": 0,
    "red": 1,
    "blue": 2,
    "green": 3,
    "purple": 4,
    "white": 5,
}
"""Names a player may type for a kind: the kind itself or its colour."""


def stone_set(players: int) -> tuple[int, ...]:
    """Stones per kind: 5 of each and one diamond; 6 of each with the 5-6 player expansion."""
    each = 6 if players >= 5 else 5
    return (each, each, each, each, each, 1)


def sorted_pool(counts: Sequence[int]) -> list[int]:
    """Stones as a list of kinds in canonical order (e.g. the pool before it is shuffled)."""
    return [k for k in range(NKINDS) for _ in range(counts[k])]


def draw_from(chest: list[int], base: int, rng: Stream) -> int:
    """A uniformly random stone (over stones, not kinds) of the chest ``chest[base:base + 6]``.

    One ``rng.below(total)``; stone ``r`` counts through the kinds in canonical order. The chest
    must not be empty; the stone is not removed.
    """
    r = rng.below(sum(chest[base : base + NKINDS]))
    for k in range(NKINDS - 1):
        r -= chest[base + k]
        if r < 0:
            return k
    return NKINDS - 1


def stones(chest: Sequence[int]) -> list[str]:
    """A chest's stones by name, in canonical order."""
    return [KINDS[k] for k in range(NKINDS) for _ in range(chest[k])]
