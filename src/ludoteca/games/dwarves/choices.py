"""The choices open to the player to move: where the dwarf may go, and what it may do with the
dwarf it meets. Both lists are in the stable order documented in ``docs/notation/dwarves.md``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeVar

from .actions import BLIND, MAX_TILES, MOVES, STEALS, TRADES, Action
from .fortress import tile_set
from .lineup import EXTRA
from .state import MEET, MOVE, DwarvesState
from .stones import NKINDS

T = TypeVar("T")
KIND_RANGE = range(NKINDS)


def routes(state: DwarvesState) -> dict[int, list[str]]:
    """Each tile the mover may move to, with the ways there (``grey``, ``white``, ``step``,
    ``stay``, ``doubles``), in listing order: grey, white, step, stay; on doubles every tile,
    clockwise from the next one round to the own tile."""
    board = state.board
    here = state.pos[state.turn]
    nxt = board.nxt[here]
    found: dict[int, list[str]] = {}
    labelled = (
        (nxt[state.grey], "grey"),
        (nxt[state.white], "white"),
        ((here + 1) % board.size, "step"),
        (here, "stay"),
    )
    if state.grey == state.white:
        for d in range(1, board.size + 1):
            found[(here + d) % board.size] = []
    for tile, label in labelled:
        found.setdefault(tile, []).append(label)
    if state.grey == state.white:
        for ways in found.values():
            ways.append("doubles")
    return found


TILES = tuple(range(MAX_TILES))


def _clockwise(named: Sequence[T]) -> Mapping[int, tuple[tuple[T, ...], ...]]:
    """Per ring size, per tile: every tile clockwise from the next one round to itself, as
    ``named[tile]`` (the doubles' destinations)."""
    return {
        size: tuple(
            tuple(named[(here + d) % size] for d in range(1, size + 1)) for here in range(size)
        )
        for size in {len(tile_set(players)) for players in range(2, 7)}
    }


CLOCKWISE = _clockwise(TILES)
CLOCKWISE_MOVES = _clockwise(MOVES)


def destinations(
    state: DwarvesState,
    named: Sequence[T] = TILES,  # type: ignore[assignment]
    clockwise: Mapping[int, tuple[tuple[T, ...], ...]] = CLOCKWISE,  # type: ignore[assignment]
) -> list[T]:
    """The tiles the mover may move to, each once, in listing order (see ``routes``), as
    ``named[tile]`` (the tile numbers themselves, or ``MOVES`` with ``CLOCKWISE_MOVES`` for the
    actions)."""
    board = state.board
    here = state.pos[state.turn]
    grey, white = state.grey, state.white
    if grey == white:
        return list(clockwise[board.size][here])
    nxt = board.nxt[here]
    first, second, step = nxt[grey], nxt[white], (here + 1) % board.size
    found = [named[first]]
    if second != first:
        found.append(named[second])
    if step not in (first, second):
        found.append(named[step])
    if here not in (first, second, step):
        found.append(named[here])
    return found


def options_between(mine: Sequence[int], theirs: Sequence[int], blind: bool) -> list[Action]:
    """A player's options with a dwarf met, from both chests: open trades (give kind, then take
    kind, canonical order), or the blind trade with an extra dwarf (``blind``); then steals by
    kind when the other has 2+ stones more."""
    options: list[Action] = []
    has_theirs = [k for k in KIND_RANGE if theirs[k]]
    if has_theirs and any(mine):
        if blind:
            options.append(BLIND)
        else:
            for give in KIND_RANGE:
                if mine[give]:
                    row = TRADES[give]
                    options += [row[take] for take in has_theirs]
    if sum(theirs) - sum(mine) >= 2:
        options += [STEALS[k] for k in has_theirs]
    return options


def meeting_options(state: DwarvesState) -> list[Action]:
    """The mover's options with the dwarf it meets now (``options_between``)."""
    other = state.queue[0]
    return options_between(
        state.counts(state.turn), state.counts(other), state.lineup.seats[other] == EXTRA
    )


# The research encoding's ids of the actions (``DwarvesEncoding.actions``: a move's is its tile,
# then the trades by kind given and taken, the blind trade, the steals by kind), for ``code``.
TRADE_ID = MAX_TILES
BLIND_ID = TRADE_ID + NKINDS * NKINDS
STEAL_ID = BLIND_ID + 1
CODE_BITS = 6
"""Bits per id in a ``code`` (every id is below 64)."""


def _code(ids: Sequence[int]) -> int:
    code = 1
    for i in ids:
        code = code << CODE_BITS | i
    return code


CLOCKWISE_CODES = {size: tuple(map(_code, rows)) for size, rows in CLOCKWISE.items()}


def code(state: DwarvesState) -> int:
    """The ids of ``legal_actions``'s actions in its order as one number, ``CODE_BITS`` bits an
    id after a leading 1: a name for the legal list that is cheaper to make than the list (the
    same walk as ``legal_actions``, written out again so that it stays as it is)."""
    phase = state.phase
    if phase == MOVE:
        board = state.board
        here = state.pos[state.turn]
        grey, white = state.grey, state.white
        if grey == white:
            return CLOCKWISE_CODES[board.size][here]
        nxt = board.nxt[here]
        first, second, step = nxt[grey], nxt[white], (here + 1) % board.size
        found = 1 << CODE_BITS | first
        if second != first:
            found = found << CODE_BITS | second
        if step not in (first, second):
            found = found << CODE_BITS | step
        if here not in (first, second, step):
            found = found << CODE_BITS | here
        return found
    if phase != MEET:
        return 1
    other = state.queue[0]
    mine, theirs = state.counts(state.turn), state.counts(other)
    found = 1
    has_theirs = [k for k in KIND_RANGE if theirs[k]]
    if has_theirs and any(mine):
        if state.lineup.seats[other] == EXTRA:
            found = found << CODE_BITS | BLIND_ID
        else:
            for give in KIND_RANGE:
                if mine[give]:
                    for take in has_theirs:
                        found = found << CODE_BITS | (TRADE_ID + give * NKINDS + take)
    if sum(theirs) - sum(mine) >= 2:
        for take in has_theirs:
            found = found << CODE_BITS | (STEAL_ID + take)
    return found


def legal_actions(state: DwarvesState) -> list[Action]:
    """Every legal action of the player to move ([] once the match is over)."""
    phase = state.phase
    if phase == MOVE:  # ``destinations`` of the moves, written out
        board = state.board
        here = state.pos[state.turn]
        grey, white = state.grey, state.white
        if grey == white:
            return list(CLOCKWISE_MOVES[board.size][here])
        nxt = board.nxt[here]
        first, second, step = nxt[grey], nxt[white], (here + 1) % board.size
        found: list[Action] = [MOVES[first]]
        if second != first:
            found.append(MOVES[second])
        if step not in (first, second):
            found.append(MOVES[step])
        if here not in (first, second, step):
            found.append(MOVES[here])
        return found
    if phase == MEET:
        return meeting_options(state)
    return []
