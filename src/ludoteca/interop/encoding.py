"""Numbers for research frameworks: action ids and observation tensors, per game.

Both are built from the documented public surface of a game only (``docs/notation/<game>.md``):
an action id is the index of the action's canonical text in a fixed vocabulary, and a tensor is
computed from ``Game.observation(state, seat)`` and nothing else, so a tensor can never show what
that observation hides. The layouts are listed in ``docs/research.md``.
"""

from __future__ import annotations

import json
import math
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from ludoteca.core import JSON, Game

Tensor = npt.NDArray[np.float32]
AnyGame = Game[Any, Any]


class EncodingError(ValueError):
    """An action or observation outside the documented vocabulary of a game."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A named block of the flat tensor: ``shape`` numbers starting at ``offset``."""

    name: str
    shape: tuple[int, ...]
    offset: int
    meaning: str
    size: int


class Encoding(ABC):
    """A game's action vocabulary and tensor layout for a given number of players."""

    game_id: str
    actions: tuple[str, ...]

    def __init__(self, players: int) -> None:
        self.players = players
        self.ids = {text: i for i, text in enumerate(self.actions)}
        # Actions are plain values equal across states and each has one canonical text, so the
        # id found for an action's text is kept by action (a game's text is never state-dependent
        # in these three games; the ids are still checked against the text on first sight).
        self.known: dict[Hashable, int] = {}
        segments: list[Segment] = []
        offset = 0
        for name, shape, meaning in self.blocks():
            segment = Segment(name, shape, offset, meaning, math.prod(shape))
            segments.append(segment)
            offset += segment.size
        self.segments = tuple(segments)
        self.size = offset

    @abstractmethod
    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        """The tensor's blocks in order: name, shape and what the numbers mean."""

    @abstractmethod
    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        """Write the observation into the (zeroed) block views."""

    # ------------------------------------------------------------------------------ actions
    def action_id(self, game: AnyGame, state: Any, action: Hashable) -> int:
        known = self.known.get(action)
        if known is not None:
            return known
        text = game.action_to_text(state, action)
        try:
            found = self.known[action] = self.ids[text]
        except KeyError:
            raise EncodingError(f"{self.game_id}: action '{text}' has no id") from None
        return found

    def legal(self, game: AnyGame, state: Any) -> dict[int, Hashable]:
        """The legal actions by id (ids ascending)."""
        actions = game.legal_actions(state)
        known = self.known
        try:
            ids = [known[a] for a in actions]
        except KeyError:
            ids = [self.action_id(game, state, a) for a in actions]
        return dict(sorted(zip(ids, actions, strict=True)))

    # ------------------------------------------------------------------------------ tensors
    def views(self, flat: Tensor) -> dict[str, Tensor]:
        """Named, shaped views into a flat tensor of ``self.size`` numbers."""
        return {s.name: flat[s.offset : s.offset + s.size].reshape(s.shape) for s in self.segments}

    def write(
        self, obs: JSON, seat: int | None, flat: Tensor, views: dict[str, Tensor] | None = None
    ) -> None:
        """Fill ``flat`` (``self.size`` numbers) from ``obs``, seen by ``seat`` (None: spectator);
        ``views`` are ``self.views(flat)`` when the caller keeps them."""
        flat.fill(0.0)
        views = self.views(flat) if views is None else views
        if seat is not None:
            views["observer"][seat] = 1.0
        self.fill(obs, views)

    def tensor(self, game: AnyGame, state: Any, seat: int | None) -> Tensor:
        flat = np.zeros(self.size, dtype=np.float32)
        self.write(game.observation(state, seat), seat, flat)
        return flat


def canonical(value: Any) -> str:
    """Canonical JSON: sorted keys, no spaces (the form of ``Game.info_key``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def private_part(game: AnyGame, state: Any, seat: int) -> JSON:
    """What ``seat`` sees beyond a spectator: the top-level observation fields that differ."""
    mine, public = game.observation(state, seat), game.observation(state, None)
    return {key: value for key, value in mine.items() if public.get(key) != value}


def _one_hot(view: Tensor, index: int | None) -> None:
    if index is not None:
        view[index] = 1.0


def _observer(players: int) -> tuple[str, tuple[int, ...], str]:
    return ("observer", (players,), "one-hot: the seat whose view this is (all 0 for a spectator)")


# ------------------------------------------------------------------------------------ heroes
ROLES = ("halfling", "bard", "ranger", "fighter", "rogue", "wizard", "cleric", "paladin")
ROOMS = tuple(f"{col}{row}" for row in range(1, 6) for col in "abc")


def _hero(hero: Mapping[str, Any]) -> int:
    return int(hero["owner"]) * 8 + ROLES.index(str(hero["role"]))


def _role_counts(view: Tensor, roles: Sequence[str] | None) -> None:
    for role in roles or ():
        view[ROLES.index(role)] += 1.0


class HeroesEncoding(Encoding):
    game_id = "heroes"
    actions = (
        "draw",
        "skip",
        *(f"place {role} {room}" for role in ROLES for room in (*ROOMS, "camp")),
        *(f"strike {room}" for room in ROOMS),
    )

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [
            _observer(2),
            ("to_move", (3,), "one-hot: Gold, Blue, nobody (over)"),
            ("tops", (15, 17), "per room a1..c5, one-hot top hero: owner*8+role, 16 = empty"),
            ("stacks", (15, 16), "per room, count of each hero (owner*8+role) in its stack"),
            ("sealed", (8, 3), "per ward a1..b4, one-hot: unsealed, sealed by Gold, by Blue"),
            ("relics", (2,), "relics of Gold, Blue"),
            ("hand", (8,), "the observer's own hand, count per role (0 for a spectator)"),
            ("counts", (3, 2), "hand, reserve and set-aside sizes of Gold, Blue"),
            ("discards", (2, 8), "per seat, discarded heroes per role"),
            ("set_aside", (2, 8), "per seat, set-aside heroes per role (shown once over)"),
            ("pending", (3,), "one-hot: no choice, Fighter strike, Ranger placement"),
            ("pending_room", (15,), "one-hot: the Fighter's or Ranger's room"),
            ("strikable", (15,), "1 for each room the pending Fighter may strike"),
            ("camp_hero", (17,), "one-hot: the hero that entered a camp (owner*8+role), 16 none"),
        ]

    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        to_move = obs.get("to_move")
        _one_hot(views["to_move"], 2 if to_move is None else int(to_move))
        for r, room in enumerate(obs["rooms"]):
            stack = room["stack"]
            _one_hot(views["tops"][r], _hero(stack[-1]) if stack else 16)
            for hero in stack:
                views["stacks"][r][_hero(hero)] += 1.0
        for w, ward in enumerate(obs["wards"]):
            by = ward["sealed_by"]
            _one_hot(views["sealed"][w], 0 if by is None else int(by) + 1)
        views["relics"][:] = obs["relics"]
        _role_counts(views["hand"], obs.get("hand"))
        views["counts"][0] = obs["hand_counts"]
        views["counts"][1] = obs["reserve_counts"]
        views["counts"][2] = obs["set_aside_counts"]
        for seat in (0, 1):
            _role_counts(views["discards"][seat], obs["discards"][seat])
            if obs.get("set_aside"):
                _role_counts(views["set_aside"][seat], obs["set_aside"][seat])
        pending = obs.get("pending")
        if pending is None:
            _one_hot(views["pending"], 0)
        else:
            _one_hot(views["pending"], 1 if pending["kind"] == "strike" else 2)
            _one_hot(views["pending_room"], ROOMS.index(pending["room"]))
            for room in pending.get("rooms", ()):
                views["strikable"][ROOMS.index(room)] = 1.0
        camp = obs.get("camp_hero")
        _one_hot(views["camp_hero"], 16 if camp is None else _hero(camp))


# ------------------------------------------------------------------------------- dice heroes
DICE_COLOURS = ("white", "yellow", "red")
DICE_FACES = ("sword1", "sword2", "sword3", "coin", "yellow-die", "red-die", "x")
MAX_DICE = 9


def _subsets() -> tuple[str, ...]:
    """Id = bit mask of the dice re-rolled (die n is bit n-1); 0 = stop."""
    texts = ["stop"] * (1 << MAX_DICE)
    for size in range(1, MAX_DICE + 1):
        for dice in combinations(range(1, MAX_DICE + 1), size):
            texts[sum(1 << (n - 1) for n in dice)] = "reroll " + " ".join(map(str, dice))
    return tuple(texts)


class DiceHeroesEncoding(Encoding):
    game_id = "dice-heroes"
    actions = _subsets()

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        n = self.players
        return [
            _observer(n),
            (
                "seats",
                (n, 14),
                "per seat: troop, tableau, at the posters (white, yellow, red each), coins, "
                "posters taken, their value, score, duel marker",
            ),
            ("posters_left", (2,), "posters left, their total value"),
            ("holder", (n + 1,), "one-hot: the seat holding the posters, last = nobody"),
            ("laid", (3, 7), "dice at the posters: count per colour and face"),
            ("duel", (1,), "1 in a two-player match (duel markers)"),
            ("turn", (n + 1,), "one-hot: the seat to move, last = nobody (over)"),
            ("roll", (4,), "one-hot: rolls made this turn (0..3)"),
            ("dice", (MAX_DICE, 10), "per die 1..9: one-hot colour (3), one-hot face (7)"),
            ("swords", (2,), "swords shown, swords to beat"),
        ]

    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        n = self.players
        for s, seat in enumerate(obs["seats"]):
            row = views["seats"][s]
            for block, key in enumerate(("troop", "tableau", "at_posters")):
                row[block * 3 : block * 3 + 3] = [seat[key][c] for c in DICE_COLOURS]
            row[9] = seat["coins"]
            row[10] = len(seat["posters"])
            row[11] = sum(seat["posters"])
            row[12] = seat["score"]
            row[13] = 1.0 if seat["marker"] else 0.0
        left = obs["posters_left"]
        views["posters_left"][:] = (len(left), sum(left))
        holder = obs.get("holder")
        _one_hot(views["holder"], n if holder is None else int(holder))
        for die in obs["laid"]:
            views["laid"][DICE_COLOURS.index(die["colour"])][DICE_FACES.index(die["face"])] += 1
        views["duel"][0] = 1.0 if obs["duel"] else 0.0
        turn = obs.get("turn")
        _one_hot(views["turn"], n if turn is None else int(turn["seat"]))
        if turn is not None:
            _one_hot(views["roll"], int(turn["roll"]))
            for die in turn["dice"]:
                row = views["dice"][int(die["die"]) - 1]
                row[DICE_COLOURS.index(die["colour"])] = 1.0
                row[3 + DICE_FACES.index(die["face"])] = 1.0
            views["swords"][:] = (turn["swords"], turn["to_beat"])
        else:
            _one_hot(views["roll"], 0)


# ----------------------------------------------------------------------------------- dwarves
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

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [
            _observer(self.players),
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
            _one_hot(views["ring"][t], TILE_KINDS.index(tile["kind"]))
        for dwarf in obs["dwarves"]:
            row = views["dwarves"][DWARF_COLOURS.index(dwarf["colour"])]
            _one_hot(row, int(dwarf["tile"]))
            _stones(row[MAX_TILES : MAX_TILES + 6], dwarf["chest"])
            row[MAX_TILES + 6] = 1.0
            row[MAX_TILES + 7] = 1.0 if dwarf["extra"] else 0.0
            row[MAX_TILES + 8] = 1.0 if dwarf["colour"] == obs.get("turn") else 0.0
        _one_hot(views["hobbit"], int(obs["hobbit"]))
        _one_hot(views["dragon"], int(obs["dragon"]["tile"]))
        _stones(views["hoard"], obs["dragon"]["hoard"])
        views["pool"][0] = obs["pool"]
        _one_hot(views["dice"][0], DIE_FACES.index(obs["dice"]["grey"]))
        _one_hot(views["dice"][1], DIE_FACES.index(obs["dice"]["white"]))
        views["round"][:] = (obs["round"], obs["round_cap"])
        _one_hot(views["phase"], PHASES.index(obs["phase"]))
        pending = obs.get("pending")
        if pending is not None and pending.get("choice") == "meet":
            _one_hot(views["meeting"], DWARF_COLOURS.index(pending["with"]))


ENCODINGS: dict[str, type[Encoding]] = {
    e.game_id: e for e in (HeroesEncoding, DiceHeroesEncoding, DwarvesEncoding)
}


def encoding(game_id: str, players: int) -> Encoding:
    """The encoding of ``game_id`` for ``players`` seats; EncodingError for an unknown game."""
    try:
        kind = ENCODINGS[game_id]
    except KeyError:
        known = ", ".join(ENCODINGS)
        raise EncodingError(f"no research encoding for '{game_id}' (known: {known})") from None
    return kind(players)
