"""The same random-playout loop over OpenSpiel's ``liars_dice`` (C++ behind pybind11), as a
reference for what one action costs when the rules are compiled."""

from __future__ import annotations

import random
import time

from engine import Speed


def liars_dice(seconds: float, seed: str = "bench") -> Speed | None:
    """Player actions per second of random ``liars_dice`` matches (chance outcomes are drawn by
    the loop and not counted); None when ``pyspiel`` is not installed."""
    try:
        import pyspiel  # noqa: PLC0415 (optional: OpenSpiel may be absent)
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice")
    rng = random.Random(seed)
    actions = matches = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        matches += 1
    return Speed("openspiel liars_dice", actions, matches, elapsed)
