"""The heuristic bot: heads for the hobbit, keeps away from the dragon, trades and steals towards
its best kind, and weighs every choice by what it does to its own chest and to the other's."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ludoteca.core import Game

from .actions import Action, BlindTrade, Move, Steal, Trade
from .choices import options_between
from .fortress import FACES, Board
from .lineup import EXTRA
from .state import MOVE, DwarvesState
from .stones import DIAMOND, NKINDS, stone_set

BEST, SIZE, SECOND = 4.0, 3.0, 0.5
"""A chest's worth per stone of its best kind (the diamond included), per stone, and per stone
of its second kind."""

RIVAL = 0.5
"""How much the other dwarf's gain counts against the bot's own (``medium``'s weight, with a
player's dwarf and with an extra dwarf alike; see ``SEARCH_RIVAL``)."""

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
dragon's hoard grows (``medium``'s weight; see ``SEARCH_GIFT``)."""

SEARCH_RIVAL, SEARCH_RIVAL_EXTRA, SEARCH_GIFT = 0.75, 0.25, 1.0
"""The other weights of the search policy: the gain of the other player's dwarf counted at 0.75
(a trade that helps the one rival who chooses is worth less), an extra dwarf's at 0.25 (it only
moves by the dice), and a hobbit's gift worth less beside a trade. Tuned on 2-player matches
without search, the same seeds for every candidate (docs/bots.md): against ``medium`` the margin
grew from +20.5 to +25.6 points over 6,000 matches (+20.2 to +24.5 on other seeds), against
``random`` nothing moved (32.6% and 32.5%). ``hard`` on the strength bench: +23.0 points against
``medium`` (+19.0 before); against ``random`` 40.0% of the bench's 100 matches, but 33.0% of 300
others, as before."""

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
    share of a meeting's worth counted when choosing a move (``MEETING``, ``SEARCH_MEETING``);
    ``rival`` and ``rival_extra``: how much the gain of a player's dwarf and of an extra dwarf met
    counts against the bot's own (``RIVAL``); ``gift``: the extra worth of a hobbit's gift
    (``GIFT``). The defaults are ``medium``'s."""

    name = "heuristic"

    def __init__(
        self,
        meeting: float = MEETING,
        *,
        rival: float = RIVAL,
        rival_extra: float = RIVAL,
        gift: float = GIFT,
    ) -> None:
        self.meeting = meeting
        self.rival = rival
        self.rival_extra = rival_extra
        self.gift = gift

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any:
        state: DwarvesState = world
        me = state.turn
        if state.phase == MOVE:
            return best_move(state, me, game.legal_actions(state), self)
        other = state.queue[0]
        blind = state.lineup.seats[other] == EXTRA
        return best_meeting(
            tuple(state.counts(me)),
            tuple(state.counts(other)),
            blind,
            self.rival_extra if blind else self.rival,
        )[0]


def best_move(state: DwarvesState, me: int, moves: list[Move], bot: HeuristicBot) -> Move:
    """The first of ``moves`` worth the most. Moving to a tile is worth the dragon's bite there,
    the hobbit's gift (with the bot's ``gift``) or the chance to reach it next turn, the bot's
    ``meeting`` times the best choice with each dwarf met (``best_meeting``), and the risk of the
    dragon's next move; what every tile shares (the chest, the pool, the bite) is weighed once."""
    meeting, rival, rival_extra = bot.meeting, bot.rival, bot.rival_extra
    mine = tuple(state.counts(me))
    pool = tuple(pool_counts(state))
    bite = drawn(mine, mine, -1)
    gain = drawn(mine, pool, 1)
    gift = gain + (bot.gift if state.pool else 0.0)
    board, hobbit, dragon, pos = state.board, state.hobbit, state.dragon, state.pos
    seats = state.lineup.seats
    others = state.lineup.others[me]
    best, best_worth = moves[0], float("-inf")
    for move in moves:
        tile = move.tile
        worth = 0.0
        if tile == dragon:
            worth += bite
        if tile == hobbit:
            worth += gift
        else:
            worth += HOBBIT_NEXT * hobbit_chance(board, tile, hobbit) * gain
        if tile in pos:
            for other in others:
                if pos[other] == tile:
                    blind = seats[other] == EXTRA
                    options = best_meeting(
                        mine, tuple(state.counts(other)), blind, rival_extra if blind else rival
                    )
                    if options[0] is not None:
                        worth += meeting * options[1]
        worth += dragon_chance(board, dragon, tile) * bite
        if worth > best_worth:
            best, best_worth = move, worth
    return best


@lru_cache(maxsize=1 << 16)
def best_meeting(
    mine: tuple[int, ...], theirs: tuple[int, ...], blind: bool, rival: float = RIVAL
) -> tuple[Action | None, float]:
    """The first of the options with a dwarf met (``options_between``) with the highest
    ``meet_worth`` (the other's gain counted ``rival`` times), and that worth; (None, 0) when
    there is no option."""
    best: Action | None = None
    best_worth = float("-inf")
    for action in options_between(mine, theirs, blind):
        worth = meet_worth(mine, theirs, action, rival)
        if worth > best_worth:
            best, best_worth = action, worth
    return (best, best_worth) if best is not None else (None, 0.0)


def meet_worth(
    mine: tuple[int, ...], theirs: tuple[int, ...], action: Action, rival: float = RIVAL
) -> float:
    """A choice with the dwarf met: the change of the bot's chest less ``rival`` times the
    other's."""
    if isinstance(action, BlindTrade):
        me_gain = drawn(mine, theirs, 1) + drawn(mine, mine, -1)
        them_gain = drawn(theirs, mine, 1) + drawn(theirs, theirs, -1)
        return me_gain - rival * them_gain
    if isinstance(action, Trade):
        me_after = changed(mine, (action.give, -1), (action.take, 1))
        them_after = changed(theirs, (action.take, -1), (action.give, 1))
    else:
        assert isinstance(action, Steal)
        me_after = changed(mine, (action.take, 1))
        them_after = changed(theirs, (action.take, -1))
    return (
        _value(tuple(me_after))
        - _value(mine)
        - rival * (_value(tuple(them_after)) - _value(theirs))
    )


@lru_cache(maxsize=1 << 14)
def dragon_chance(board: Board, dragon: int, tile: int) -> float:
    """The chance the dragon's round-end move from ``dragon`` lands on ``tile`` (no doubles, the
    grey die)."""
    reach = board.nxt[dragon]
    return sum(5 for f in range(len(FACES)) if reach[f] == tile) / ROLLS


@lru_cache(maxsize=1 << 14)
def hobbit_chance(board: Board, tile: int, hobbit: int) -> float:
    """The chance that a dwarf on ``tile`` can reach the hobbit's tile with the next roll."""
    if (tile + 1) % board.size == hobbit:
        return 1.0
    misses = sum(1 for f in range(len(FACES)) if board.nxt[tile][f] != hobbit)
    return 1.0 - (misses * misses - misses) / ROLLS


def pool_counts(state: DwarvesState) -> list[int]:
    """The pool's stones per kind (public: every other stone lies face up)."""
    whole = stone_set(state.lineup.players)
    return [whole[k] - sum(state.chest[k::NKINDS]) - state.hoard[k] for k in range(NKINDS)]
