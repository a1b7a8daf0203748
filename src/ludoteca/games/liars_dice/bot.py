"""Liar's Dice's rule of thumb (``medium``; the table plays it for a seat whose clock runs out).

It raises as the rules page says the table plays for you: the smallest legal raise on its most
common face (sixes counted with every face, ties to the higher face), or the smallest raise of all
when that face has none. It challenges when no raise is legal, or when the last bid is more likely
false than its own raise is true, each judged from its own dice alone: every other die shows a
given face 1-5 with probability 1/3 (the face or a wild six), a six with 1/6.
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

from .rules import FACES, LIAR, MAX_QUANTITY, WILD, Action, Bid, LiarsState, legal_actions


def _tails(p: float) -> list[list[float]]:
    """``tails[n][k]``: the chance that at least ``k`` of ``n`` dice match, each with ``p``."""
    rows = []
    for n in range(MAX_QUANTITY + 1):
        exact = [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
        rows.append([sum(exact[k:]) for k in range(n + 1)])
    return rows


TAILS = {False: _tails(1 / 3), True: _tails(1 / 6)}
"""Keyed by whether the face is the wild six."""


def chance_true(hand: list[int], total: int, quantity: int, face: int) -> float:
    """The chance that a bid holds, knowing ``hand`` and that ``total`` dice are in play."""
    mine = hand.count(face) + (hand.count(WILD) if face != WILD else 0)
    need, unknown = quantity - mine, total - len(hand)
    if need <= 0:
        return 1.0
    if need > unknown:
        return 0.0
    return TAILS[face == WILD][unknown][need]


def favourite(hand: list[int]) -> int:
    """The face most of ``hand`` counts for (sixes count for every face), ties to the higher."""
    wild = hand.count(WILD)
    counts = [(hand.count(f) + (wild if f != WILD else 0), f) for f in range(1, FACES + 1)]
    return max(counts)[1]


def raise_of(actions: list[Action], hand: list[int]) -> Bid | None:
    """The smallest legal raise on the favourite face, else the smallest legal raise."""
    face = favourite(hand)
    bids = [a for a in actions if isinstance(a, Bid)]
    return next((b for b in bids if b.face == face), bids[0] if bids else None)


class HeuristicBot:
    name = "heuristic"

    def choose(self, game: Any, world: LiarsState, seat: int, rng: random.Random) -> Action:
        actions = legal_actions(world)
        hand = world.hands[seat]
        bid = raise_of(actions, hand)
        if bid is None:
            return LIAR
        if not world.bids:
            return bid
        _, q, f = world.bids[-1]
        doubt = 1.0 - chance_true(hand, world.total, q, f)
        if doubt > chance_true(hand, world.total, bid.quantity, bid.face):
            return LIAR
        return bid
