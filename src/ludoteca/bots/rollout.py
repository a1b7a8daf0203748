"""How a search plays a sampled world to the end: the ``Rollout`` protocol, and its two policies,
uniformly random (``RandomRollout``) and a bot's own choices (``PolicyRollout``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from ludoteca.core import Bot, Game


class Rollout(Protocol):
    """Plays a determinized world to the end of the match, in place; gives up (False) when
    ``stop()``, asked after every action, says the time is up. (Reading the clock costs well
    under a microsecond, an action tens of them; on a busy machine a few actions between two
    reads already took tens of milliseconds.)"""

    def play_out(
        self,
        game: Game[Any, Any],
        state: Any,
        rng: random.Random,
        stop: Callable[[], bool] | None = None,
    ) -> bool: ...


class RandomRollout:
    """Uniformly random legal actions to the end."""

    def play_out(
        self,
        game: Game[Any, Any],
        state: Any,
        rng: random.Random,
        stop: Callable[[], bool] | None = None,
    ) -> bool:
        legal, step, pick = game.legal_actions, game.step, rng.choice
        while actions := legal(state):
            step(state, pick(actions))
            if stop is not None and stop():
                return False
        return True


class PolicyRollout:
    """A bot's choices to the end (a forced move without asking it)."""

    def __init__(self, policy: Bot) -> None:
        self.policy = policy

    def play_out(
        self,
        game: Game[Any, Any],
        state: Any,
        rng: random.Random,
        stop: Callable[[], bool] | None = None,
    ) -> bool:
        legal, step, to_move = game.legal_actions, game.step, game.to_move
        choose = self.policy.choose
        while actions := legal(state):
            if len(actions) == 1:
                action = actions[0]
            else:
                seat = to_move(state)
                assert seat is not None
                action = choose(game, state, seat, rng)
            step(state, action)
            if stop is not None and stop():
                return False
        return True
