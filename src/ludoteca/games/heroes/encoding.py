"""Heroes & Relics for research frameworks: action ids and the layout of the observation
tensor (listed in ``docs/research.md``), from the documented observation only."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, cast

from ludoteca.core import JSON
from ludoteca.core.encoding import Encoding, Tensor, observer_block, one_hot

from . import rules

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

    def ascending_ids_of_state(self) -> Callable[[Any], tuple[list[int], list[Hashable]]]:
        """The rules find the ids with the actions (``rules.ascending_ids``, numbered as
        ``actions`` here, which the tests check), not looked up action by action."""
        return cast(Callable[[Any], tuple[list[int], list[Hashable]]], rules.ascending_ids)

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [
            observer_block(2),
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
        one_hot(views["to_move"], 2 if to_move is None else int(to_move))
        for r, room in enumerate(obs["rooms"]):
            stack = room["stack"]
            one_hot(views["tops"][r], _hero(stack[-1]) if stack else 16)
            for hero in stack:
                views["stacks"][r][_hero(hero)] += 1.0
        for w, ward in enumerate(obs["wards"]):
            by = ward["sealed_by"]
            one_hot(views["sealed"][w], 0 if by is None else int(by) + 1)
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
            one_hot(views["pending"], 0)
        else:
            one_hot(views["pending"], 1 if pending["kind"] == "strike" else 2)
            one_hot(views["pending_room"], ROOMS.index(pending["room"]))
            for room in pending.get("rooms", ()):
                views["strikable"][ROOMS.index(room)] = 1.0
        camp = obs.get("camp_hero")
        one_hot(views["camp_hero"], 16 if camp is None else _hero(camp))
