"""Return of the Dwarves – The Great Hall: the rules' entry points (set-up, legal actions, play,
result, sampled worlds).

The rules are split by subject: ``stones``, ``board``, ``lineup``, ``state``, ``actions``,
``choices`` (what may be done), ``play`` (what follows a choice), ``scoring``. None of them
imports the notation, the view or the bot.
"""

from __future__ import annotations

import random

from ludoteca.core import Event, Outcome, Stream

from .actions import Action, BlindTrade, Move, Trade
from .choices import legal_actions as legal_actions  # noqa: PLC0414 (the template's name, re-exported)
from .fortress import board, lay_ring
from .lineup import EXTRA, lineup
from .play import (
    Log,
    advance,
    begin_turn,
    blind_trade,
    can_meet,
    move_to,
    steal_event,
    trade_event,
    transfer,
)
from .scoring import figure_scores
from .state import MEET, OVER, ROUND_CAP, DwarvesState
from .stones import NKINDS, sorted_pool, stone_set, stones

START_STONES = 3


def max_decisions(players: int) -> int:
    """The longest match: every round, each player's dwarf moves once and meets at most every
    other dwarf, for at most ``ROUND_CAP`` rounds."""
    return ROUND_CAP * players * lineup(players).size


def setup(players: int, rng: Stream, events: Log) -> DwarvesState:
    """Lay the ring, shuffle the pool, place the dwarves, deal three stones each, start round 1
    (the events to ``events``, None: not built)."""
    cast = lineup(players)
    ring = board(lay_ring(players, rng))
    state = DwarvesState.empty(ring, cast, rng)
    state.pool = sorted_pool(stone_set(players))
    rng.shuffle(state.pool)
    state.pos = [ring.nxt[ring.portal][face] for face in cast.faces]
    state.start = _first_player(state)
    if events is not None:
        events.append(
            Event(
                "setup",
                {
                    "ring": list(ring.tiles),
                    "dwarves": {c: state.pos[d] for d, c in enumerate(cast.colours)},
                    "hobbit": state.hobbit,
                    "dragon": state.dragon,
                    "start": cast.colours[state.start],
                },
            )
        )
    pool, chest = state.pool, state.chest
    for d in range(cast.size):
        for _ in range(START_STONES):
            chest[d * NKINDS + pool.pop()] += 1
        if events is not None:
            events.append(
                Event("deal", {"dwarf": cast.colours[d], "stones": stones(state.counts(d))})
            )
    if events is not None:
        events.append(Event("round", {"round": 1}))
    begin_turn(state, state.start, events)
    return state


def _first_player(state: DwarvesState) -> int:
    """The player's dwarf nearest clockwise after the Secret Passage (it starts round 1)."""
    ring, pos, seats = state.board, state.pos, state.lineup.seats
    for i in range(1, ring.size):
        tile = (ring.passage + i) % ring.size
        for d, at in enumerate(pos):
            if at == tile and seats[d] != EXTRA:
                return d
    raise AssertionError("every ring holds a player's dwarf")


def to_move(state: DwarvesState) -> int | None:
    return None if state.phase == OVER else state.lineup.seats[state.turn]


def play(state: DwarvesState, action: Action, events: Log = None) -> None:
    """Apply a legal action of the player to move, then play on to the next choice."""
    mover = state.turn
    if isinstance(action, Move):
        state.queue = move_to(state, mover, action.tile, events)
        if not state.queue:
            advance(state, events)
            return
    else:
        other = state.queue.pop(0)
        if isinstance(action, Trade):
            transfer(state, mover, other, action.give)
            transfer(state, other, mover, action.take)
            if events is not None:
                events.append(
                    trade_event(state, mover, other, action.give, action.take, blind=False)
                )
        elif isinstance(action, BlindTrade):
            blind_trade(state, mover, other, events)
        else:
            transfer(state, other, mover, action.take)
            if events is not None:
                events.append(steal_event(state, mover, other, action))
    queue = state.queue
    while queue and not can_meet(state, mover, queue[0]):
        queue.pop(0)
    if queue:
        state.phase = MEET
    else:
        advance(state, events)


def apply(state: DwarvesState, action: Action) -> list[Event]:
    events: list[Event] = []
    play(state, action, events)
    return events


def outcome(state: DwarvesState) -> Outcome | None:
    """The seats' scores; the winner's seat, or nobody when the dragon or an extra dwarf won."""
    result = state.result
    if result is None:
        return None
    cast = state.lineup
    keys = figure_scores(state)
    scores = tuple(float(keys[cast.seats.index(seat)][0]) for seat in range(cast.players))
    winner = result.winner
    if winner == cast.size:
        return Outcome((), "dragon", False, scores)
    if cast.seats[winner] == EXTRA:
        return Outcome((), "extra-dwarf", False, scores)
    reason = "race" if len(result.tied) > 1 else "score"
    return Outcome((cast.seats[winner],), reason, False, scores)


def sample_world(state: DwarvesState, seat: int, rng: random.Random) -> DwarvesState:
    """Only the pool's order is hidden: shuffle the sorted pool with ``rng``; a fresh stream."""
    world = state.clone()
    world.pool = sorted(state.pool)
    rng.shuffle(world.pool)
    world.rng = Stream(f"{rng.getrandbits(128):032x}")
    return world
