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
THREAT_PRESSURE = (0.0, 2.0, 7.0, 27.0, 0.0)  # the rival's pressure: 1.5 times as much at 3
TOP_VALUE = tuple(3.0 + hold for hold in HOLD)  # a room topped by a hero of each role
# WARD_WEIGHT[relics held][ward]: the ward's relics, three times as much when they would win
WARD_WEIGHT = tuple(
    tuple(r * (3.0 if held + r >= RELICS_TO_WIN else 1) for r in WARD_RELICS)
    for held in range(sum(WARD_RELICS) + 1)
)


def _progress(chain: int, seat: int) -> int:
    """Rows (0..5) the chain has come from its own camp (0 = no chain)."""
    if not chain:
        return 0
    if seat == 0:
        return (chain.bit_length() - 1) // 3 + 1
    return 5 - ((chain & -chain).bit_length() - 1) // 3


def evaluate(state: HeroesState, seat: int) -> float:
    """The position's worth to ``seat`` (higher is better).

    Every term is a small multiple of 1/4, so the sum is exact in any order (the bot's choice
    does not depend on how the terms are added up).
    """
    result = state.result
    rival = 1 - seat
    if result is not None:
        if seat in result.winners:
            return WIN
        return 0.0 if result.draw else -WIN
    masks = state.masks
    mine, theirs = masks[seat], masks[rival]
    relics, hands = state.relics, state.hands
    my_relics, their_relics = relics[seat], relics[rival]
    my_hand, their_hand = sum(hands[seat]), sum(hands[rival])
    score = 60.0 * (my_relics - their_relics)
    chain, rival_chain = connection(state, seat), connection(state, rival)
    if rival_chain & CAMP_ROW[seat] and their_hand:
        score -= INVASION if state.mover == rival else INVASION / 10
    if chain & CAMP_ROW[rival] and my_hand:
        score += INVASION / 10 if state.mover == rival else INVASION
    sealed = state.sealed
    for w in range(8):
        if sealed[w] >= 0:
            continue
        need = WARD_MASKS[w]
        a, b = (mine & need).bit_count(), (theirs & need).bit_count()
        if not b:
            score += WARD_WEIGHT[my_relics][w] * WARD_PRESSURE[a]
        elif not a:
            score -= WARD_WEIGHT[their_relics][w] * THREAT_PRESSURE[b]
    score += 6.0 * (_progress(chain, seat) - _progress(rival_chain, rival))
    # the rooms each side tops, by the strength of the top hero (hero_rooms is per seat and role)
    rooms = state.hero_rooms
    own, other = seat * 8, rival * 8
    for role in range(8):
        score += TOP_VALUE[role] * (rooms[own + role].bit_count() - rooms[other + role].bit_count())
    score += HAND[my_hand] - HAND[their_hand] / 2
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
