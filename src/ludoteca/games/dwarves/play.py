"""The flow of play: turns, tile resolution, extra dwarves, the dragon's round end and the end.

Everything that happens without a choice happens here, drawing from ``state.rng`` in the order
written in ``docs/notation/dwarves.md``.
"""

from __future__ import annotations

from ludoteca.core import Event

from .actions import Steal
from .fortress import FACES
from .lineup import EXTRA
from .scoring import figure_scores, leaders, race
from .state import MOVE, OVER, ROUND_CAP, DwarvesState, Result
from .stones import KINDS, NKINDS, draw_from

SIDES = len(FACES)

Log = list[Event] | None
"""Where the events of an action go; None when nobody reads them (search, playouts): the match is
the same, bit for bit, only the events are not built."""


def figure_name(state: DwarvesState, figure: int) -> str:
    """A dwarf's colour, or ``dragon`` for figure ``lineup.size``."""
    colours = state.lineup.colours
    return colours[figure] if figure < len(colours) else "dragon"


def roll(state: DwarvesState, figure: int, events: Log) -> None:
    """Roll both dice: grey first, then white."""
    below = state.rng.below
    state.grey = below(SIDES)
    state.white = below(SIDES)
    if events is not None:
        roll_event(state, figure, events)


def roll_event(state: DwarvesState, figure: int, events: list[Event]) -> None:
    events.append(
        Event(
            "roll",
            {
                "figure": figure_name(state, figure),
                "grey": FACES[state.grey],
                "white": FACES[state.white],
            },
        )
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


def bite(state: DwarvesState, dwarf: int, events: Log) -> None:
    """The dragon takes one random stone from a dwarf on its tile (nothing from an empty chest)."""
    if state.total(dwarf) == 0:
        return
    kind = draw_from(state.chest, dwarf * NKINDS, state.rng)
    state.chest[dwarf * NKINDS + kind] -= 1
    state.hoard[kind] += 1
    if events is not None:
        events.append(Event("bite", {"dwarf": figure_name(state, dwarf), "stone": KINDS[kind]}))


def move_to(state: DwarvesState, dwarf: int, tile: int, events: Log) -> list[int]:
    """Move a dwarf (or let it stay) and resolve its tile: dragon, then hobbit; returns the other
    dwarves there in turn order, starting after the mover."""
    pos = state.pos
    if events is not None:
        events.append(
            Event("move", {"dwarf": figure_name(state, dwarf), "from": pos[dwarf], "to": tile})
        )
    pos[dwarf] = tile
    if state.dragon == tile:
        bite(state, dwarf, events)
    if state.hobbit == tile:
        if state.pool:
            kind = state.pool.pop()
            state.chest[dwarf * NKINDS + kind] += 1
            if events is not None:
                events.append(
                    Event("gift", {"dwarf": figure_name(state, dwarf), "stone": KINDS[kind]})
                )
        to = state.board.ccw_free(tile, [*pos, state.dragon])
        if events is not None:
            events.append(Event("hobbit", {"from": tile, "to": to}))
        state.hobbit = to
    if pos.count(tile) == 1:
        return []
    return [d for d in state.lineup.others[dwarf] if pos[d] == tile]


def blind_trade(state: DwarvesState, mover: int, other: int, events: Log) -> None:
    """One random stone each way: the mover's stone is drawn first, then the other's."""
    give = draw_from(state.chest, mover * NKINDS, state.rng)
    take = draw_from(state.chest, other * NKINDS, state.rng)
    transfer(state, mover, other, give)
    transfer(state, other, mover, take)
    if events is not None:
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


def steal_event(state: DwarvesState, mover: int, other: int, action: Steal) -> Event:
    return Event(
        "steal",
        {
            "dwarf": figure_name(state, mover),
            "from": figure_name(state, other),
            "stone": KINDS[action.take],
        },
    )


def extra_turn(state: DwarvesState, dwarf: int, events: Log) -> None:
    """An extra dwarf's turn (dice already rolled): doubles → to the hobbit; the hobbit one step
    ahead → one step to it; else to the next tile of the white die's colour. Then it trades blind
    with every player's dwarf it meets (never with extra dwarves, never a steal)."""
    here = state.pos[dwarf]
    board = state.board
    if state.grey == state.white or (here + 1) % board.size == state.hobbit:
        to = state.hobbit
    else:
        to = board.nxt[here][state.white]
    met = move_to(state, dwarf, to, events)
    if met:
        seats = state.lineup.seats
        for other in met:
            if seats[other] != EXTRA and state.total(dwarf) > 0 and state.total(other) > 0:
                blind_trade(state, dwarf, other, events)


def dragon_turn(state: DwarvesState, events: Log) -> None:
    """The dragon at the end of a round: roll; doubles → to the hobbit and one stone from the pool;
    else to the next tile of the grey die's colour, one random stone from every dwarf there (in
    turn order). Then, if it shares a tile, counter-clockwise to the next tile with no figure."""
    dragon = state.lineup.size
    roll(state, dragon, events)
    here = state.dragon
    pos = state.pos
    if state.grey == state.white:
        to = state.hobbit
        if events is not None:
            events.append(Event("dragon", {"from": here, "to": to}))
        state.dragon = to
        if state.pool:
            kind = state.pool.pop()
            state.hoard[kind] += 1
            if events is not None:
                events.append(Event("hoard", {"stone": KINDS[kind]}))
    else:
        to = state.board.nxt[here][state.grey]
        if events is not None:
            events.append(Event("dragon", {"from": here, "to": to}))
        state.dragon = to
        if to in pos:
            for d in range(dragon):
                if pos[d] == to:
                    bite(state, d, events)
    if to == state.hobbit or to in pos:
        free = state.board.ccw_free(to, [*pos, state.hobbit])
        if events is not None:
            events.append(Event("dragon", {"from": to, "to": free}))
        state.dragon = free


def begin_turn(state: DwarvesState, dwarf: int, events: Log) -> None:
    """Roll for the dwarf whose turn begins; a player's dwarf then waits for its move."""
    state.turn = dwarf
    roll(state, dwarf, events)
    state.phase = MOVE


def advance(state: DwarvesState, events: Log) -> None:
    """End the mover's turn and play on (extra dwarves, the dragon, new rounds) until a player
    must choose or the match is over."""
    cast = state.lineup
    size, seats = cast.size, cast.seats
    below = state.rng.below
    while True:
        dwarf = (state.turn + 1) % size
        if dwarf == state.start:
            dragon_turn(state, events)
            if not state.pool or state.round >= ROUND_CAP:
                finish(state, "pool" if not state.pool else "cap", events)
                return
            state.round += 1
            if events is not None:
                events.append(Event("round", {"round": state.round}))
        state.turn = dwarf  # begin_turn and roll, written out
        state.grey = below(SIDES)
        state.white = below(SIDES)
        if events is not None:
            roll_event(state, dwarf, events)
        state.phase = MOVE
        if seats[dwarf] != EXTRA:
            return
        extra_turn(state, dwarf, events)


def finish(state: DwarvesState, ended: str, events: Log) -> None:
    """Score every chest; a remaining tie goes to the race."""
    if events is not None:
        events.append(Event("end", {"cause": ended, "round": state.round}))
    tied = leaders(state)
    rounds: list[tuple[tuple[int, int, int], ...]] = []
    picked = False
    winner = tied[0]
    if len(tied) > 1:
        rounds, winner, picked = race(state.board, tied, state.rng)
        if events is not None:
            for n, played in enumerate(rounds, 1):
                rolls = [
                    {"figure": figure_name(state, f), "roll": FACES[face], "run": run}
                    for f, face, run in played
                ]
                events.append(Event("race", {"round": n, "rolls": rolls}))
    state.result = Result(ended, tied, tuple(rounds), picked, winner)
    state.phase = OVER
    state.turn = -1
    if events is not None:
        scores = {figure_name(state, f): list(key) for f, key in enumerate(figure_scores(state))}
        events.append(Event("result", {"winner": figure_name(state, winner), "scores": scores}))
