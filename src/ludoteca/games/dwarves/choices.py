"""The choices open to the player to move: where the dwarf may go, and what it may do with the
dwarf it meets. Both lists are in the stable order documented in ``docs/notation/dwarves.md``."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import BLIND, MOVES, STEALS, TRADES, Action
from .lineup import EXTRA
from .state import MEET, MOVE, DwarvesState
from .stones import NKINDS


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


def destinations(state: DwarvesState) -> list[int]:
    """The tiles the mover may move to, each once, in listing order (see ``routes``)."""
    board = state.board
    here = state.pos[state.turn]
    if state.grey == state.white:
        return [(here + d) % board.size for d in range(1, board.size + 1)]
    nxt = board.nxt[here]
    found: list[int] = []
    for tile in (nxt[state.grey], nxt[state.white], (here + 1) % board.size, here):
        if tile not in found:
            found.append(tile)
    return found


def options_between(mine: Sequence[int], theirs: Sequence[int], blind: bool) -> list[Action]:
    """A player's options with a dwarf met, from both chests: open trades (give kind, then take
    kind, canonical order), or the blind trade with an extra dwarf (``blind``); then steals by
    kind when the other has 2+ stones more."""
    options: list[Action] = []
    has_mine = [k for k in range(NKINDS) if mine[k]]
    has_theirs = [k for k in range(NKINDS) if theirs[k]]
    if has_mine and has_theirs:
        if blind:
            options.append(BLIND)
        else:
            options.extend(TRADES[g][t] for g in has_mine for t in has_theirs)
    if sum(theirs) - sum(mine) >= 2:
        options.extend(STEALS[k] for k in has_theirs)
    return options


def meeting_options(state: DwarvesState) -> list[Action]:
    """The mover's options with the dwarf it meets now (``options_between``)."""
    other = state.queue[0]
    return options_between(
        state.counts(state.turn), state.counts(other), state.lineup.seats[other] == EXTRA
    )


def legal(state: DwarvesState) -> list[Action]:
    """Every legal action of the player to move ([] once the match is over)."""
    if state.phase == MOVE:
        return [MOVES[t] for t in destinations(state)]
    if state.phase == MEET:
        return meeting_options(state)
    return []
