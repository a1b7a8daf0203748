"""The bookkeeping of an ISMCTS search (``ludoteca.bots.ismcts``): the tree of the searching seat's
information sets (``Node``, ``Edge``, keyed by what the seat ``seen`` happen), and the root
actions the Sequential Halving compares (``Arm``)."""

from __future__ import annotations

import json
from collections.abc import Hashable

from ludoteca.core import Event

CONFIDENCE = 1.645
"""How many standard errors better another root action must be to overrule the prior's."""

MIN_PAIRS = 8
"""Paired worlds the final round needs before another action may overrule the prior's."""


class Node:
    """An information set of the searching seat: its actions tried so far."""

    __slots__ = ("edges", "hint", "visits")

    def __init__(self) -> None:
        self.edges: dict[Hashable, Edge] = {}
        self.visits = 0
        self.hint: Hashable = None


class Edge:
    """An action from a node: visits, availability, payoffs summed per seat, and the nodes it
    led to, keyed by what the searching seat saw happen."""

    __slots__ = ("avails", "rewards", "then", "visits")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.avails = 1
        self.rewards = [0.0] * players
        self.then: dict[str, Node] = {}


def seen(events: list[Event], seat: int) -> str:
    """What ``seat`` saw of these events, as a key (public fields and its own secrets)."""
    return json.dumps([(e.kind, e.data, e.secret.get(seat)) for e in events], separators=(",", ":"))


class Arm:
    """A root action in the halving: its payoffs for the searching seat this round, and how they
    differ from the prior's action in the same determinizations."""

    __slots__ = ("action", "diff_n", "diff_sq", "diff_sum", "n", "total")

    def __init__(self, action: Hashable) -> None:
        self.action = action
        self.n = 0
        self.total = 0.0
        self.diff_n = 0
        self.diff_sum = 0.0
        self.diff_sq = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    def forget(self) -> None:
        """Start a new round: only fresh samples judge the arms that survived selection."""
        self.n = self.diff_n = 0
        self.total = self.diff_sum = self.diff_sq = 0.0

    def beats_hint(self) -> bool:
        """Whether this arm did better than the prior's action in the same worlds, by more than
        ``CONFIDENCE`` standard errors of the paired differences (and in ``MIN_PAIRS`` at least)."""
        n = self.diff_n
        if n < MIN_PAIRS:
            return False
        mean = self.diff_sum / n
        variance = max(self.diff_sq / n - mean * mean, 0.0) * n / (n - 1)
        return mean > 0 and mean * mean * n > CONFIDENCE**2 * variance
