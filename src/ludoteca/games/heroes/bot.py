"""The heuristic bot: tries every legal action once and keeps the one whose position scores best.

The score, from the bot's side: a win or loss outright; relics; a rival chain that touches the
bot's camp (an invasion next turn); wards by how many of their rooms each side tops; how far each
chain has come towards the other camp; rooms topped and how hard they are to cover; heroes in hand.
"""

from __future__ import annotations

import random
from typing import Any

from .rules import (
    CAMP_ROW,
    RELICS_TO_WIN,
    WARD_MASKS,
    WARD_RELICS,
    HeroesState,
    apply,
    connection,
    legal_actions,
)

WIN = 1_000_000.0
INVASION = 50_000.0
# how hard a top hero is to cover (a Halfling is covered by anything)
HOLD = (0.0, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.5)
HAND = (0.0, 8.0, 15.0, 21.0, 26.0, 30.0, 33.0, 35.0, 36.0)
WARD_PRESSURE = (0.0, 2.0, 7.0, 18.0, 0.0)


def _progress(chain: int, seat: int) -> int:
    """Rows (0..5) the chain has come from its own camp (0 = no chain)."""
    if not chain:
        return 0
    if seat == 0:
        return (chain.bit_length() - 1) // 3 + 1
    return 5 - ((chain & -chain).bit_length() - 1) // 3


def evaluate(state: HeroesState, seat: int) -> float:
    """The position's worth to ``seat`` (higher is better)."""
    result = state.result
    rival = 1 - seat
    if result is not None:
        if seat in result.winners:
            return WIN
        return 0.0 if result.draw else -WIN
    masks = state.masks
    mine, theirs = masks[seat], masks[rival]
    score = 60.0 * (state.relics[seat] - state.relics[rival])
    chain, rival_chain = connection(state, seat), connection(state, rival)
    if rival_chain & CAMP_ROW[seat] and sum(state.hands[rival]):
        score -= INVASION if state.mover == rival else INVASION / 10
    if chain & CAMP_ROW[rival] and sum(state.hands[seat]):
        score += INVASION / 10 if state.mover == rival else INVASION
    for w, need in enumerate(WARD_MASKS):
        if state.sealed[w] >= 0:
            continue
        a, b = (mine & need).bit_count(), (theirs & need).bit_count()
        weight = WARD_RELICS[w] * (
            3.0 if state.relics[seat] + WARD_RELICS[w] >= RELICS_TO_WIN else 1
        )
        if not b:
            score += weight * WARD_PRESSURE[a]
        threat = 3.0 if state.relics[rival] + WARD_RELICS[w] >= RELICS_TO_WIN else 1
        if not a:
            score -= WARD_RELICS[w] * threat * WARD_PRESSURE[b] * (1.5 if b == 3 else 1)
    score += 6.0 * (_progress(chain, seat) - _progress(rival_chain, rival))
    for room, top in enumerate(state.tops):
        if mine >> room & 1:
            score += 3.0 + HOLD[top & 7]
        elif theirs >> room & 1:
            score -= 3.0 + HOLD[top & 7]
    score += HAND[sum(state.hands[seat])] - HAND[sum(state.hands[rival])] / 2
    return score


class HeuristicBot:
    """Greedy one-step player over ``evaluate``; ties broken by ``rng``."""

    name = "heuristic"

    def choose(self, game: Any, world: HeroesState, seat: int, rng: random.Random) -> Any:
        actions = legal_actions(world)
        if len(actions) == 1:
            return actions[0]
        best, best_score = actions[0], -float("inf")
        for action in actions:
            trial = world.clone()
            apply(trial, action)
            score = evaluate(trial, seat) + rng.random() * 0.01
            if score > best_score:
                best, best_score = action, score
        return best
