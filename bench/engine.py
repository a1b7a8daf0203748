"""Engine speed: random playouts through the rules interface, actions per second per game."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from ludoteca.core import Game


@dataclass(frozen=True, slots=True)
class Speed:
    """Random-playout figures of one game at one player count."""

    label: str
    actions: int
    matches: int
    seconds: float

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def matches_per_second(self) -> float:
        return self.matches / self.seconds

    @property
    def mean_length(self) -> float:
        return self.actions / self.matches

    def line(self) -> str:
        return (
            f"  {self.label:<22} {self.actions_per_second:>10,.0f} actions/s "
            f"{self.matches_per_second:>8,.0f} matches/s  {self.mean_length:>6.1f} actions/match"
        )


def playouts(game: Game[Any, Any], players: int, seconds: float, seed: str = "bench") -> Speed:
    """Random matches for about ``seconds``: ``new``, then ``legal_actions`` and
    ``apply_unchecked`` with a uniformly random choice until the end (set-up is timed too)."""
    rng = random.Random(seed)
    legal, apply, pick = game.legal_actions, game.apply_unchecked, rng.choice
    actions = matches = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.new({"players": players}, f"{seed}-{matches}")
        while options := legal(state):
            apply(state, pick(options))
            actions += 1
        matches += 1
    return Speed(f"{game.spec.id} {players}p", actions, matches, elapsed)
