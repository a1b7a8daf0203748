"""Matches on the bare rules (no ``Match``, no server), for tests that need where one ends."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import Game


def random_end(game: Game[Any, Any], players: int, seed: str, pick: random.Random) -> Any:
    """The last position of a match dealt from ``seed``, each action drawn by ``pick``."""
    state = game.new({"players": players}, seed)
    while actions := game.legal_actions(state):
        game.step(state, pick.choice(actions))
    return state
