"""The heuristic bot: heads for the hobbit, keeps away from the dragon, trades and steals towards
its best kind, and weighs every choice by what it does to its own chest and to the other's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ludoteca.core import Game

from .actions import Action, BlindTrade, Move, Steal, Trade
from .board import FACES
from .choices import options_between
from .lineup import EXTRA
from .state import MOVE, DwarvesState
from .stones import DIAMOND, NKINDS, stone_set

BEST, SIZE, SECOND = 4.0, 3.0, 0.5
"""A chest's worth per stone of its best kind (the diamond included), per stone, and per stone
of its second kind."""

RIVAL = 0.5
"""How much the other dwarf's gain counts against the bot's own."""

MEETING = 0.1
"""The share of a meeting's worth counted when choosing a move: the dwarves met move next and
may trade back, and crowded tiles feed the dragon (measured: chasing trades lengthens the match
and the dragon wins it). This is ``medium``'s weight; see ``SEARCH_MEETING``."""

SEARCH_MEETING = 1.0
"""The meeting's weight of the policy ``hard`` searches with (``DwarvesGame.search_bot``): a
meeting counted in full. Measured over 3,000 two-player matches each, the heuristic with it won
33.6% against ``random`` (``medium``: 27.3%; the dragon and the extra dwarves win most of the
rest) and 36.1% to 17.7% against ``medium``: trading towards its best kind with every dwarf it
can reach, and stealing from an extra dwarf that leads, is what outgrows the dragon's hoard."""

GIFT = 3.0
"""Extra worth of a hobbit's gift: a stone nobody loses, and a step towards the end, before the
dragon's hoard grows."""

HOBBIT_NEXT = 0.4
"""What having the hobbit in reach next turn is worth, as a share of its gift."""

ROLLS = len(FACES) ** 2


def value(chest: Sequence[int]) -> float:
    """What a chest is worth: mostly its best kind (+1 with the diamond), then its size."""
    return _value(tuple(chest))


@lru_cache(maxsize=1 << 16)
def _value(chest: tuple[int, ...]) -> float:
    five = sorted(chest[:DIAMOND], reverse=True)
    return BEST * (five[0] + chest[DIAMOND]) + SIZE * sum(chest) + SECOND * five[1]


def changed(chest: Sequence[int], *deltas: tuple[int, int]) -> list[int]:
    """A copy of the chest with ``(kind, +1/-1)`` changes applied."""
    copy = list(chest)
    for kind, delta in deltas:
        copy[kind] += delta
    return copy


def drawn(chest: Sequence[int], source: Sequence[int], delta: int) -> float:
    """The expected change of the chest's value when it gains (``delta`` 1) or loses (-1) one
    stone drawn uniformly from ``source`` (counts per kind). (Search asks the same questions
    over and over: the answers are kept.)"""
    return _drawn(tuple(chest), tuple(source), delta)


@lru_cache(maxsize=1 << 16)
def _drawn(chest: tuple[int, ...], source: tuple[int, ...], delta: int) -> float:
    total = sum(source)
    if not total:
        return 0.0
    base = value(chest)
    gain = sum(n * (value(changed(chest, (k, delta))) - base) for k, n in enumerate(source) if n)
    return gain / total


class HeuristicBot:
    """Rule-of-thumb player for ``dwarves``; deterministic for a given world. ``meeting``: the
    share of a meeting's worth counted when choosing a move (``MEETING``, ``SEARCH_MEETING``)."""

    name = "heuristic"

    def __init__(self, meeting: float = MEETING) -> None:
        self.meeting = meeting

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any:
        state: DwarvesState = world
        actions: list[Action] = game.legal_actions(state)
        me = state.turn
        if state.phase == MOVE:
            moves = [a for a in actions if isinstance(a, Move)]
            pool = pool_counts(state)
            meeting = self.meeting
            return max(moves, key=lambda a: move_worth(state, me, a.tile, pool, meeting))
        other = state.queue[0]
        mine, theirs = state.counts(me), state.counts(other)
        return max(actions, key=lambda a: meet_worth(mine, theirs, a))


def move_worth(
    state: DwarvesState,
    me: int,
    tile: int,
    pool: list[int] | None = None,
    meeting: float = MEETING,
) -> float:
    """Moving to a tile: the dragon's bite, the hobbit's gift or the chance to reach it next turn,
    ``meeting`` times the best choice with each dwarf met, and the risk of the dragon's next move
    (``pool``: ``pool_counts(state)`` when the caller has it)."""
    mine = state.counts(me)
    if pool is None:
        pool = pool_counts(state)
    worth = 0.0
    if tile == state.dragon:
        worth += drawn(mine, mine, -1)
    if tile == state.hobbit:
        worth += drawn(mine, pool, 1) + (GIFT if state.pool else 0.0)
    else:
        worth += HOBBIT_NEXT * hobbit_chance(state, tile) * drawn(mine, pool, 1)
    for other in state.lineup.others[me]:
        if state.pos[other] == tile:
            theirs = state.counts(other)
            options = options_between(mine, theirs, state.lineup.seats[other] == EXTRA)
            if options:
                worth += meeting * max(meet_worth(mine, theirs, a) for a in options)
    return worth + dragon_chance(state, tile) * drawn(mine, mine, -1)


def meet_worth(mine: list[int], theirs: list[int], action: Action) -> float:
    """A choice with the dwarf met: the change of the bot's chest less a share of the other's."""
    return _meet_worth(tuple(mine), tuple(theirs), action)


@lru_cache(maxsize=1 << 16)
def _meet_worth(mine: tuple[int, ...], theirs: tuple[int, ...], action: Action) -> float:
    if isinstance(action, BlindTrade):
        me_gain = drawn(mine, theirs, 1) + drawn(mine, mine, -1)
        them_gain = drawn(theirs, mine, 1) + drawn(theirs, theirs, -1)
        return me_gain - RIVAL * them_gain
    if isinstance(action, Trade):
        me_after = changed(mine, (action.give, -1), (action.take, 1))
        them_after = changed(theirs, (action.take, -1), (action.give, 1))
    else:
        assert isinstance(action, Steal)
        me_after = changed(mine, (action.take, 1))
        them_after = changed(theirs, (action.take, -1))
    return value(me_after) - value(mine) - RIVAL * (value(them_after) - value(theirs))


def dragon_chance(state: DwarvesState, tile: int) -> float:
    """The chance the dragon's round-end move lands on ``tile`` (no doubles, the grey die)."""
    reach = state.board.nxt[state.dragon]
    return sum(5 for f in range(len(FACES)) if reach[f] == tile) / ROLLS


def hobbit_chance(state: DwarvesState, tile: int) -> float:
    """The chance that a dwarf on ``tile`` can reach the hobbit's tile with the next roll."""
    board = state.board
    if (tile + 1) % board.size == state.hobbit:
        return 1.0
    misses = sum(1 for f in range(len(FACES)) if board.nxt[tile][f] != state.hobbit)
    return 1.0 - (misses * misses - misses) / ROLLS


def pool_counts(state: DwarvesState) -> list[int]:
    """The pool's stones per kind (public: every other stone lies face up)."""
    whole = stone_set(state.lineup.players)
    return [whole[k] - sum(state.chest[k::NKINDS]) - state.hoard[k] for k in range(NKINDS)]
