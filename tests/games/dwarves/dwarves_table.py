"""Positions for the dwarves rule tests, written in the game's JSON notation.

``position(...)`` gives a full position on a fixed ring; tests pass only the fields that matter.
The fixed ring, clockwise (tile numbers as in the notation):

    0 portal  1 yellow  2 red  3 blue  4 green  5 orange  6 yellow  7 red
    8 passage  9 blue  10 green  11 purple
"""

from __future__ import annotations

import copy
from typing import Any

from ludoteca.core import Stream
from ludoteca.games.dwarves import GAME
from ludoteca.games.dwarves.fortress import FACES
from ludoteca.games.dwarves.lineup import EXTRA, lineup
from ludoteca.games.dwarves.state import DwarvesState
from ludoteca.games.dwarves.stones import KINDS, stone_set

RING = ["portal", "yellow", "red", "blue", "green", "orange"]
RING += ["yellow", "red", "passage", "blue", "green", "purple"]
RING14 = ["portal", "yellow", "red", "blue", "green", "orange", "purple", "yellow", "red"]
RING14 += ["passage", "blue", "green", "orange", "purple"]
START_TILES = {"red": 2, "yellow": 1, "green": 4, "blue": 3, "orange": 5, "purple": 6}


def position(
    players: int = 4, dwarves: dict[str, dict[str, Any]] | None = None, **fields: Any
) -> dict[str, Any]:
    """A position: every dwarf on its start tile with an empty chest, the hobbit on the Secret
    Passage, the dragon on the Portal, round 1, the first player to move; ``dwarves`` updates
    single dwarves by colour, other keyword arguments replace whole fields. Unless given, the
    pool holds the rest of the stones in canonical order (so its top, the last, is a diamond)."""
    cast = lineup(players)
    ring = RING14 if players >= 5 else RING
    data: dict[str, Any] = {
        "game": "dwarves",
        "players": players,
        "ring": list(ring),
        "dwarves": [
            {
                "colour": colour,
                "seat": None if seat == EXTRA else seat,
                "tile": START_TILES[colour],
                "chest": [],
            }
            for colour, seat in zip(cast.colours, cast.seats, strict=True)
        ],
        "hobbit": ring.index("passage"),
        "dragon": {"tile": 0, "hoard": []},
        "dice": {"grey": "yellow", "white": "red"},
        "round": 1,
        "start": cast.colours[0],
        "turn": cast.colours[0],
        "phase": "move",
        "meet": [],
        "result": None,
        "rng": {"seed": "dwarves-test", "used": 0},
    }
    for entry in data["dwarves"]:
        entry.update((dwarves or {}).get(entry["colour"], {}))
    data.update(copy.deepcopy(fields))
    if "pool" not in fields:
        data["pool"] = remainder(data)
    return data


def remainder(data: dict[str, Any]) -> list[str]:
    """The stones no chest nor the hoard holds, in canonical order."""
    left = list(stone_set(data["players"]))
    for stones in [d["chest"] for d in data["dwarves"]] + [data["dragon"]["hoard"]]:
        for stone in stones:
            left[KINDS.index(stone)] -= 1
    return [kind for k, kind in enumerate(KINDS) for _ in range(left[k])]


def load(data: dict[str, Any]) -> DwarvesState:
    return GAME.from_json(data)


def offset_for(*draws: tuple[int, int], seed: str = "dwarves-test") -> int:
    """The first stream offset whose next draws ``below(n)`` give the wanted values, for
    ``(n, value)`` pairs: e.g. ``(6, 2)`` is a blue die face, ``(3, 0)`` the first of 3 stones."""
    for used in range(400_000):
        stream = Stream(seed, used)
        if all(stream.below(n) == value for n, value in draws):
            return used
    raise AssertionError(f"no offset gives {draws}")


def dice(grey: str, white: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two draws of a roll that shows these colours (grey die first)."""
    return (6, FACES.index(grey)), (6, FACES.index(white))


def chest(state: DwarvesState, colour: str) -> list[str]:
    """A dwarf's stones by name, as the notation writes them."""
    found: list[str] = GAME.to_json(state)["dwarves"][state.lineup.index[colour]]["chest"]
    return found
