"""Positions for the bot tests, found by playing seeded matches (so they hold for any game)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from ludoteca.core import Game


def positions(game: Game[Any, Any], players: int, seed: str, every: int = 1) -> Iterator[Any]:
    """Copies of the positions of a seeded match between the heuristic and random play (every
    ``every``-th position where the seat to move has a choice)."""
    heuristic = game.heuristic_bot()
    rng = random.Random(seed)
    state = game.new({"players": players}, seed)
    count = 0
    while (seat := game.to_move(state)) is not None:
        actions = game.legal_actions(state)
        if len(actions) > 1:
            count += 1
            if count % every == 0:
                yield state.clone()
        if seat == 0:
            action = heuristic.choose(game, state.clone(), seat, rng)
        else:
            action = rng.choice(actions)
        game.apply(state, action)


def find(
    game: Game[Any, Any], players: int, wanted: Callable[[Any], bool], tries: int = 200
) -> Any:
    """The first position of the seeded matches ``find-0``, ``find-1``... that is ``wanted``."""
    for k in range(tries):
        for state in positions(game, players, f"find-{k}"):
            if wanted(state):
                return state
    raise AssertionError(f"no wanted {game.spec.id} position in {tries} matches")


def sure_wins(game: Game[Any, Any], state: Any, worlds: int = 5) -> list[Any]:
    """The actions that win outright for the seat to move in every world it cannot tell apart
    (``worlds`` samples, each with its own dice)."""
    seat = game.to_move(state)
    assert seat is not None
    samples = [game.sample_world(state, seat, random.Random(k)) for k in range(worlds)]
    return [a for a in game.legal_actions(state) if all(_wins(game, w, a, seat) for w in samples)]


def _wins(game: Game[Any, Any], world: Any, action: Any, seat: int) -> bool:
    trial = world.clone()
    game.apply(trial, action)
    outcome = game.outcome(trial)
    return outcome is not None and outcome.winners == (seat,)
