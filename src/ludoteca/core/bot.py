"""The one way anything asks a bot (``game.Bot``) for a decision.

A bot never receives the authoritative state: ``decide`` hands it a world sampled from the seat's
information set (``Game.sample_world``), so whatever the bot reads, it can only know what its seat
knows. Two states that look the same to the seat give the same decision for the same ``rng`` seed.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from .game import Bot, Game
from .state import State


def decide(bot: Bot, game: Game[Any, Any], state: State, seat: int, rng: random.Random) -> Hashable:
    """The bot's action for ``seat``, chosen from a world sampled from the seat's view only."""
    if game.to_move(state) != seat:
        raise ValueError(f"seat {seat} is not to move")
    world = game.sample_world(state, seat, rng)
    action: Hashable = bot.choose(game, world, seat, rng)
    return action
