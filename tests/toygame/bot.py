"""High Card's rule of thumb: draw on a card below 5, and keep the higher of two."""

from __future__ import annotations

import random
from typing import Any

from .rules import DRAW, STAND, Action, Discard, HighCardState


class HeuristicBot:
    name = "heuristic"

    def choose(self, game: Any, world: HighCardState, seat: int, rng: random.Random) -> Action:
        hand = world.hands[seat]
        if len(hand) == 2:
            return Discard(min(hand))
        return DRAW if hand[0] < 5 else STAND
