"""Return of the Dwarves for research frameworks: action ids and the layout of the observation
tensor (listed in ``docs/research.md``), from the documented observation only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ludoteca.core import JSON
from ludoteca.core.encoding import Encoding, Tensor, observer_block, one_hot

from .choices import code

STONES = ("gold", "ruby", "sapphire", "emerald", "garnet", "diamond")
TILE_KINDS = ("yellow", "red", "blue", "green", "orange", "purple", "portal", "passage")
DIE_FACES = ("yellow", "red", "blue", "green", "orange", "purple")
DWARF_COLOURS = ("red", "yellow", "green", "blue", "orange", "purple")
MAX_TILES = 14
PHASES = ("move", "meet", "over")


def _stones(view: Tensor, chest: Sequence[str]) -> None:
    for stone in chest:
        view[STONES.index(stone)] += 1.0


class DwarvesEncoding(Encoding):
    game_id = "dwarves"
    actions = (
        *(f"to {t}" for t in range(MAX_TILES)),
        *(f"trade {give} {take}" for give in STONES for take in STONES),
        "trade blind",
        *(f"steal {take}" for take in STONES),
    )

    def code_of_state(self) -> Callable[[Any], int]:
        """``choices.code``: the ids of the legal list packed into a number (some thousands of
        distinct lists in a match's positions)."""
        return code

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [
            observer_block(self.players),
            ("ring", (MAX_TILES, 8), "per tile 0..13, one-hot kind (6 colours, portal, passage)"),
            (
                "dwarves",
                (6, MAX_TILES + 9),
                "per dwarf by colour (red, yellow, green, blue, orange, purple): one-hot tile, "
                "chest count per stone (6), in play, extra dwarf, to move",
            ),
            ("hobbit", (MAX_TILES,), "one-hot: the hobbit's tile"),
            ("dragon", (MAX_TILES,), "one-hot: the dragon's tile"),
            ("hoard", (6,), "the dragon's hoard, count per stone"),
            ("pool", (1,), "stones left in the face-down pool"),
            ("dice", (2, 6), "one-hot face of the grey die, then the white die"),
            ("round", (2,), "round, round cap"),
            ("phase", (3,), "one-hot: move, meet, over"),
            ("meeting", (6,), "one-hot: the dwarf met (by colour) while trading"),
        ]

    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        for t, tile in enumerate(obs["ring"]):
            one_hot(views["ring"][t], TILE_KINDS.index(tile["kind"]))
        for dwarf in obs["dwarves"]:
            row = views["dwarves"][DWARF_COLOURS.index(dwarf["colour"])]
            one_hot(row, int(dwarf["tile"]))
            _stones(row[MAX_TILES : MAX_TILES + 6], dwarf["chest"])
            row[MAX_TILES + 6] = 1.0
            row[MAX_TILES + 7] = 1.0 if dwarf["extra"] else 0.0
            row[MAX_TILES + 8] = 1.0 if dwarf["colour"] == obs.get("turn") else 0.0
        one_hot(views["hobbit"], int(obs["hobbit"]))
        one_hot(views["dragon"], int(obs["dragon"]["tile"]))
        _stones(views["hoard"], obs["dragon"]["hoard"])
        views["pool"][0] = obs["pool"]
        one_hot(views["dice"][0], DIE_FACES.index(obs["dice"]["grey"]))
        one_hot(views["dice"][1], DIE_FACES.index(obs["dice"]["white"]))
        views["round"][:] = (obs["round"], obs["round_cap"])
        one_hot(views["phase"], PHASES.index(obs["phase"]))
        pending = obs.get("pending")
        if pending is not None and pending.get("choice") == "meet":
            one_hot(views["meeting"], DWARF_COLOURS.index(pending["with"]))
