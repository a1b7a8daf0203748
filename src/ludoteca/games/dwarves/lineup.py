"""Who plays which dwarf, and the turn order with the extra dwarves of 2 and 3 player tables."""

from __future__ import annotations

from functools import cache

from .fortress import FACES

DWARF_COLOURS = ("red", "yellow", "green", "blue", "orange", "purple")
"""Players take these colours in seat order; extra dwarves take the next free ones."""

EXTRA = -1
"""The seat of an extra dwarf (no player owns it)."""

_TURN_ORDER = {
    2: ((0, 0), (2, EXTRA), (1, 1), (3, EXTRA)),  # p1 x1 p2 x2
    3: ((0, 0), (3, EXTRA), (1, 1), (2, 2)),  # p1 x1 p2 p3
}


class Lineup:
    """The dwarves of a table in turn order: colour, owning seat (``EXTRA``) and die face."""

    __slots__ = ("colours", "faces", "index", "others", "players", "seats", "size")

    def __init__(self, players: int) -> None:
        order = _TURN_ORDER.get(players) or tuple((s, s) for s in range(players))
        self.players = players
        self.size = len(order)
        self.colours = tuple(DWARF_COLOURS[c] for c, _ in order)
        self.seats = tuple(seat for _, seat in order)
        self.faces = tuple(FACES.index(colour) for colour in self.colours)
        self.index = {colour: d for d, colour in enumerate(self.colours)}
        self.others = tuple(
            tuple((d + i) % self.size for i in range(1, self.size)) for d in range(self.size)
        )
        """``others[d]``: every other dwarf in turn order, starting after ``d``."""


@cache
def lineup(players: int) -> Lineup:
    """The (shared) lineup of a table with ``players`` seats."""
    return Lineup(players)
