"""The flow of play: turns, tile resolution, extra dwarves, the dragon's round end and the end.

Everything that happens without a choice happens here, drawing from ``state.rng`` in the order
written in ``docs/notation/dwarves.md``.
"""

from __future__ import annotations

from ludoteca.core import Event

from .actions import Action, BlindTrade, Move, Steal, Trade
from .board import FACES
from .lineup import EXTRA
from .scoring import figure_scores, leaders, race
from .state import MEET, MOVE, OVER, ROUND_CAP, DwarvesState, Result
from .stones import KINDS, NKINDS, draw_from


def figure_name(state: DwarvesState, figure: int) -> str:
    """A dwarf's colour, or ``dragon`` for figure ``lineup.size``."""
    colours = state.lineup.colours
    return colours[figure] if figure < len(colours) else "dragon"


def roll(state: DwarvesState, figure: int) -> Event:
    """Roll both dice: grey first, then white."""
    state.grey = state.rng.below(len(FACES))
    state.white = state.rng.below(len(FACES))
    return Event(
        "roll",
        {
            "figure": figure_name(state, figure),
            "grey": FACES[state.grey],
            "white": FACES[state.white],
        },
    )


def transfer(state: DwarvesState, source: int, target: int, kind: int) -> None:
    """Move one stone of ``kind`` from dwarf ``source`` to dwarf ``target``."""
    state.chest[source * NKINDS + kind] -= 1
    state.chest[target * NKINDS + kind] += 1


def can_meet(state: DwarvesState, mover: int, other: int) -> bool:
    """Whether a player's dwarf has a choice with ``other``: a trade (stones on both sides) or a
    steal (``other`` has at least two stones more)."""
    mine, theirs = state.total(mover), state.total(other)
    return (mine > 0 and theirs > 0) or theirs - mine >= 2


def bite(state: DwarvesState, dwarf: int, events: list[Event]) -> None:
    """The dragon takes one random stone from a dwarf on its tile (nothing from an empty chest)."""
    if state.total(dwarf) == 0:
        return
    kind = draw_from(state.chest, dwarf * NKINDS, state.rng)
    state.chest[dwarf * NKINDS + kind] -= 1
    state.hoard[kind] += 1
    events.append(Event("bite", {"dwarf": figure_name(state, dwarf), "stone": KINDS[kind]}))


def arrive(state: DwarvesState, dwarf: int, events: list[Event]) -> list[int]:
    """Resolve the dwarf's tile: dragon, then hobbit; returns the other dwarves there in turn
    order, starting after the mover."""
    tile = state.pos[dwarf]
    if state.dragon == tile:
        bite(state, dwarf, events)
    if state.hobbit == tile:
        if state.pool:
            kind = state.pool.pop()
            state.chest[dwarf * NKINDS + kind] += 1
            events.append(Event("gift", {"dwarf": figure_name(state, dwarf), "stone": KINDS[kind]}))
        taken = [*state.pos, state.dragon]
        to = state.board.ccw_free(tile, taken)
        events.append(Event("hobbit", {"from": tile, "to": to}))
        state.hobbit = to
    return [d for d in state.lineup.others[dwarf] if state.pos[d] == tile]


def move_to(state: DwarvesState, dwarf: int, tile: int, events: list[Event]) -> list[int]:
    """Move a dwarf (or let it stay) and resolve its tile; returns the dwarves met."""
    events.append(
        Event("move", {"dwarf": figure_name(state, dwarf), "from": state.pos[dwarf], "to": tile})
    )
    state.pos[dwarf] = tile
    return arrive(state, dwarf, events)


def blind_trade(state: DwarvesState, mover: int, other: int, events: list[Event]) -> None:
    """One random stone each way: the mover's stone is drawn first, then the other's."""
    give = draw_from(state.chest, mover * NKINDS, state.rng)
    take = draw_from(state.chest, other * NKINDS, state.rng)
    transfer(state, mover, other, give)
    transfer(state, other, mover, take)
    events.append(trade_event(state, mover, other, give, take, blind=True))


def trade_event(
    state: DwarvesState, mover: int, other: int, give: int, take: int, *, blind: bool
) -> Event:
    return Event(
        "trade",
        {
            "dwarf": figure_name(state, mover),
            "with": figure_name(state, other),
            "give": KINDS[give],
            "take": KINDS[take],
            "blind": blind,
        },
    )


def act(state: DwarvesState, action: Action) -> list[Event]:
    """Apply a legal action of the player to move, then play on to the next choice."""
    events: list[Event] = []
    mover = state.turn
    if isinstance(action, Move):
        state.queue = move_to(state, mover, action.tile, events)
    else:
        other = state.queue.pop(0)
        if isinstance(action, Trade):
            transfer(state, mover, other, action.give)
            transfer(state, other, mover, action.take)
            events.append(trade_event(state, mover, other, action.give, action.take, blind=False))
        elif isinstance(action, BlindTrade):
            blind_trade(state, mover, other, events)
        else:
            transfer(state, other, mover, action.take)
            events.append(steal_event(state, mover, other, action))
    while state.queue and not can_meet(state, mover, state.queue[0]):
        state.queue.pop(0)
    if state.queue:
        state.phase = MEET
    else:
        advance(state, events)
    return events


def steal_event(state: DwarvesState, mover: int, other: int, action: Steal) -> Event:
    return Event(
        "steal",
        {
            "dwarf": figure_name(state, mover),
            "from": figure_name(state, other),
            "stone": KINDS[action.take],
        },
    )


def extra_turn(state: DwarvesState, dwarf: int, events: list[Event]) -> None:
    """An extra dwarf's turn (dice already rolled): doubles → to the hobbit; the hobbit one step
    ahead → one step to it; else to the next tile of the white die's colour. Then it trades blind
    with every player's dwarf it meets (never with extra dwarves, never a steal)."""
    here = state.pos[dwarf]
    step = (here + 1) % state.board.size
    if state.grey == state.white or step == state.hobbit:
        to = state.hobbit
    else:
        to = state.board.nxt[here][state.white]
    for other in move_to(state, dwarf, to, events):
        seats = state.lineup.seats
        if seats[other] != EXTRA and state.total(dwarf) > 0 and state.total(other) > 0:
            blind_trade(state, dwarf, other, events)


def dragon_turn(state: DwarvesState, events: list[Event]) -> None:
    """The dragon at the end of a round: roll; doubles → to the hobbit and one stone from the pool;
    else to the next tile of the grey die's colour, one random stone from every dwarf there (in
    turn order). Then, if it shares a tile, counter-clockwise to the next tile with no figure."""
    dragon = state.lineup.size
    events.append(roll(state, dragon))
    here = state.dragon
    if state.grey == state.white:
        to = state.hobbit
        events.append(Event("dragon", {"from": here, "to": to}))
        state.dragon = to
        if state.pool:
            kind = state.pool.pop()
            state.hoard[kind] += 1
            events.append(Event("hoard", {"stone": KINDS[kind]}))
    else:
        to = state.board.nxt[here][state.grey]
        events.append(Event("dragon", {"from": here, "to": to}))
        state.dragon = to
        for d in range(dragon):
            if state.pos[d] == to:
                bite(state, d, events)
    if to == state.hobbit or to in state.pos:
        free = state.board.ccw_free(to, [*state.pos, state.hobbit])
        events.append(Event("dragon", {"from": to, "to": free}))
        state.dragon = free


def begin_turn(state: DwarvesState, dwarf: int, events: list[Event]) -> None:
    """Roll for the dwarf whose turn begins; a player's dwarf then waits for its move."""
    state.turn = dwarf
    events.append(roll(state, dwarf))
    state.phase = MOVE


def advance(state: DwarvesState, events: list[Event]) -> None:
    """End the mover's turn and play on (extra dwarves, the dragon, new rounds) until a player
    must choose or the match is over."""
    size = state.lineup.size
    while True:
        dwarf = (state.turn + 1) % size
        if dwarf == state.start:
            dragon_turn(state, events)
            if not state.pool or state.round >= ROUND_CAP:
                finish(state, "pool" if not state.pool else "cap", events)
                return
            state.round += 1
            events.append(Event("round", {"round": state.round}))
        begin_turn(state, dwarf, events)
        if state.lineup.seats[dwarf] != EXTRA:
            return
        extra_turn(state, dwarf, events)


def finish(state: DwarvesState, ended: str, events: list[Event]) -> None:
    """Score every chest; a remaining tie goes to the race."""
    events.append(Event("end", {"cause": ended, "round": state.round}))
    tied = leaders(state)
    rounds: list[tuple[tuple[int, int, int], ...]] = []
    picked = False
    winner = tied[0]
    if len(tied) > 1:
        rounds, winner, picked = race(state.board, tied, state.rng)
        for n, played in enumerate(rounds, 1):
            rolls = [
                {"figure": figure_name(state, f), "roll": FACES[face], "run": run}
                for f, face, run in played
            ]
            events.append(Event("race", {"round": n, "rolls": rolls}))
    state.result = Result(ended, tied, tuple(rounds), picked, winner)
    state.phase = OVER
    state.turn = -1
    scores = {figure_name(state, f): list(key) for f, key in enumerate(figure_scores(state))}
    events.append(Event("result", {"winner": figure_name(state, winner), "scores": scores}))
