"""The fortress: a ring of coloured tiles, laid from the seed, with its move tables precomputed."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ludoteca.core import Stream

FACES = ("yellow", "red", "blue", "green", "orange", "purple")
"""The six colours of both dice, in face order (face ``f`` is ``FACES[f]``)."""

GREY = len(FACES)
PORTAL = "portal"
PASSAGE = "passage"
BASE_TILES = (*FACES[:4], *FACES[:4], PORTAL, PASSAGE, "orange", "purple")
EXPANSION_TILES = ("orange", "purple")
SETTLE_PASSES = 12
"""Clockwise scans the neighbour swap may take before the tiles are shuffled again."""


def tile_set(players: int) -> tuple[str, ...]:
    """The fortress tiles for a table, in canonical order (14 with the 5-6 player expansion)."""
    return tuple(sorted(BASE_TILES + (EXPANSION_TILES if players >= 5 else ())))


COLOUR_OF = {**{face: f for f, face in enumerate(FACES)}, PORTAL: GREY, PASSAGE: GREY}


def colour_of(tile: str) -> int:
    """A tile kind's colour: a die face, or ``GREY`` for the Portal and the Secret Passage."""
    return COLOUR_OF[tile]


def clash(ring: Sequence[str]) -> int | None:
    """The first tile (clockwise from tile 0) whose clockwise neighbour has the same colour."""
    colours = [COLOUR_OF[t] for t in ring]
    for i in range(len(ring)):
        if colours[i] == colours[i - len(ring) + 1]:
            return i
    return None


def settle(ring: list[str], passes: int = SETTLE_PASSES) -> bool:
    """Swap apart identical neighbours: scanning clockwise from the first tile laid, when tile
    ``i + 1`` has the colour of tile ``i`` it swaps places with tile ``i + 2`` (the circle wraps).
    Repeats the scan until one finds nothing (True) or ``passes`` scans changed something (False).
    """
    size = len(ring)
    colours = [COLOUR_OF[t] for t in ring]  # swapped along with the tiles
    for _ in range(passes):
        changed = False
        for i in range(size):
            j = i + 1 if i + 1 < size else 0
            if colours[i] == colours[j]:
                k = j + 1 if j + 1 < size else 0
                ring[j], ring[k] = ring[k], ring[j]
                colours[j], colours[k] = colours[k], colours[j]
                changed = True
        if not changed:
            return True
    return clash(ring) is None


def lay_ring(players: int, rng: Stream) -> tuple[str, ...]:
    """Shuffle the tiles into a circle and settle it; shuffle again while it cannot settle."""
    ring = list(tile_set(players))
    rng.shuffle(ring)
    while not settle(ring):
        rng.shuffle(ring)
    return tuple(ring)


class Board:
    """A laid ring: tile kinds, colours, names and the move tables (shared, never mutated)."""

    __slots__ = ("_names", "colour", "nxt", "passage", "portal", "size", "tiles")

    def __init__(self, tiles: tuple[str, ...]) -> None:
        size = len(tiles)
        self.tiles = tiles
        self.size = size
        self.colour = tuple(COLOUR_OF[t] for t in tiles)
        self.portal = tiles.index(PORTAL)
        self.passage = tiles.index(PASSAGE)
        self.nxt = self._next_tables()
        """``nxt[t][f]``: the next tile of face colour ``f`` clockwise from ``t``."""
        self._names: tuple[str, ...] | None = None

    def _next_tables(self) -> tuple[tuple[int, ...], ...]:
        """One sweep counter-clockwise over the ring twice, keeping the nearest tile of each
        colour ahead: never the own tile, unless it is the only one of that colour (then: stay);
        a colour the ring lacks also stays."""
        size, colour = self.size, self.colour
        ahead = [-1] * (GREY + 1)
        rows: list[tuple[int, ...]] = [()] * size
        for i in range(2 * size - 1, -1, -1):
            t = i % size
            if i < size:
                row = ahead[:GREY]
                rows[t] = tuple(row) if -1 not in row else tuple(u if u >= 0 else t for u in row)
            ahead[colour[t]] = t
        return tuple(rows)

    @property
    def names(self) -> tuple[str, ...]:
        """``portal``, ``secret passage``, a colour, or ``<colour> 1``/``2`` from the Portal on."""
        if self._names is None:
            names = [""] * self.size
            seen: dict[str, int] = {}
            for d in range(self.size):
                u = (self.portal + d) % self.size
                kind = self.tiles[u]
                if kind == PORTAL:
                    names[u] = "portal"
                elif kind == PASSAGE:
                    names[u] = "secret passage"
                elif self.tiles.count(kind) == 1:
                    names[u] = kind
                else:
                    seen[kind] = seen.get(kind, 0) + 1
                    names[u] = f"{kind} {seen[kind]}"
            self._names = tuple(names)
        return self._names

    def ccw_free(self, tile: int, taken: Sequence[int]) -> int:
        """The next tile counter-clockwise from ``tile`` that is not in ``taken``."""
        for d in range(1, self.size):
            u = (tile - d) % self.size
            if u not in taken:
                return u
        return tile


@lru_cache(maxsize=4096)
def board(tiles: tuple[str, ...]) -> Board:
    """The (shared) board for a ring of tile kinds (the rings seen last are kept)."""
    return Board(tiles)
