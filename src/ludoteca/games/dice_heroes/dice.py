"""The dice: six faces per colour, as data.

``FACES`` has one line per colour; another edition of the dice is a one-line change there. A die
is rolled as ``FACES[colour][rng.below(6)]``, so the order of the faces in a line is part of the
documented order of random draws. Everything below ``FACES`` is derived from it.
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("white", "yellow", "red")
WHITE, YELLOW, RED = range(3)

FACES: Final[dict[str, tuple[str, ...]]] = {
    "white": ("sword1", "sword2", "sword3", "coin", "coin", "yellow-die"),
    "yellow": ("sword1", "sword2", "sword3", "coin", "red-die", "x"),
    "red": ("sword1", "sword2", "sword3", "coin", "coin", "x"),
}

# Every face a die may show; a face is stored as its index in this tuple.
FACE_NAMES: Final = ("sword1", "sword2", "sword3", "coin", "yellow-die", "red-die", "x")
X: Final = FACE_NAMES.index("x")
COIN: Final = FACE_NAMES.index("coin")

SWORDS: Final = tuple({"sword1": 1, "sword2": 2, "sword3": 3}.get(f, 0) for f in FACE_NAMES)
"""Swords shown by each face."""

GROWS: Final = tuple(
    COLOURS.index(f.removesuffix("-die")) if f.endswith("-die") else -1 for f in FACE_NAMES
)
"""The colour of die each face brings from the tableau into the troop (-1: none)."""

ROLL: Final = tuple(tuple(FACE_NAMES.index(f) for f in FACES[c]) for c in COLOURS)
"""Per colour, the face numbers in ``FACES`` order: ``ROLL[colour][rng.below(SIDES)]``."""

SIDES: Final = 6
