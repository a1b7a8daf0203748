"""Bot levels by name: ``random``, ``easy``, ``medium``, ``hard`` (CLI, lobby and docs agree).

- ``random``: a uniformly random legal action.
- ``easy``: the game's heuristic, but one decision in three is random.
- ``medium``: the game's heuristic bot.
- ``hard``: information-set Monte Carlo tree search (``ismcts.py``) guided by the game's search
  policy (``Game.search_bot``: the heuristic, or a variant of it that measured stronger); it
  answers within the table's one-second budget: ``HARD_SECONDS`` of search, at most
  ``HARD_ITERATIONS`` iterations, and at once when only one action is legal.

Measured strength and decision times per game: ``docs/bots.md``.
"""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import Bot, Game
from ludoteca.core.spec import LEVELS

from .ismcts import IsmctsBot, Options
from .random_bot import RandomBot
from .rollout import PolicyRollout

HARD_SECONDS = 0.8
"""Search time of ``hard`` per decision: the table allows 1 s, the rest is the safety margin."""

HARD_ITERATIONS = 20_000
"""The iteration cap of ``hard``, so that a quickly searched position returns early."""


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


def hard_options(game: Game[Any, Any], iterations: int | None = None) -> Options:
    """How ``hard`` searches: on the clock (``HARD_SECONDS``), or with a fixed ``iterations``
    budget and no clock, which makes its searches reproducible (tests, benchmarks, the analysis
    of a match)."""
    policy = game.search_bot()
    return Options(
        iterations=HARD_ITERATIONS if iterations is None else iterations,
        seconds=HARD_SECONDS if iterations is None else None,
        rollout=PolicyRollout(policy),
        prior=policy,
        widening=1.0,
    )


def hard_bot(game: Game[Any, Any], iterations: int | None = None) -> IsmctsBot:
    """The ``hard`` bot (``hard_options``)."""
    return IsmctsBot(hard_options(game, iterations))


def make_bot(level: str, game: Game[Any, Any], *, iterations: int | None = None) -> Bot:
    """A fresh bot of ``level`` for ``game``; ValueError naming the levels otherwise.

    ``iterations`` replaces the clock of the searching level with a fixed budget (other levels
    ignore it).
    """
    if level == "random":
        return RandomBot()
    if level == "easy":
        return NoisyBot(game.heuristic_bot(), noise=1 / 3)
    if level == "medium":
        return game.heuristic_bot()
    if level == "hard":
        return hard_bot(game, iterations)
    raise ValueError(f"unknown bot level '{level}' (levels: {', '.join(LEVELS)})")
