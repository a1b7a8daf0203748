"""The random bot: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any

from ludoteca.core import Game


class RandomBot:
    """Plays a uniformly random legal action of the (sampled) world it is given."""

    name = "random"

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any:
        return rng.choice(game.legal_actions(world))
