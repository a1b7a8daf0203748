"""Build Heroes & Relics positions (docs/notation/heroes.md) from only the parts a test cares about.

Heroes a test does not mention are filled in canonical order (halfling..paladin): the first 4 of
each group are set aside, the rest go to that group's reserve, or to its discard pile when the test
gives the reserve itself.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import ROLES, HeroesState

SEATS = ("gold", "blue")


def position(
    rooms: dict[str, list[str]] | None = None,
    hands: dict[str, list[str]] | None = None,
    reserves: dict[str, list[str]] | None = None,
    discards: dict[str, list[str]] | None = None,
    to_move: str | None = "gold",
    **rest: Any,
) -> dict[str, Any]:
    """A complete position as JSON; ``rest`` passes other fields (pending, sealed, rng...) as is."""
    rooms = rooms or {}
    hands = {seat: list((hands or {}).get(seat, [])) for seat in SEATS}
    given = dict(reserves or {})
    discards = {seat: list((discards or {}).get(seat, [])) for seat in SEATS}
    set_aside = dict(rest.pop("set_aside", {}))
    out_reserves: dict[str, list[str]] = {}
    for seat in SEATS:
        left = Counter(dict.fromkeys(ROLES, 3))
        used = [h.split()[1] for stack in rooms.values() for h in stack if h.split()[0] == seat]
        camp = rest.get("camp")
        if camp and camp.split()[0] == seat:
            used.append(camp.split()[1])
        used += hands[seat] + given.get(seat, []) + discards[seat] + set_aside.get(seat, [])
        left.subtract(used)
        spare = sorted(left.elements(), key=ROLES.index)
        if seat not in set_aside:
            set_aside[seat], spare = spare[:4], spare[4:]
        if seat in given:
            out_reserves[seat] = list(given[seat])
            discards[seat] += spare
        else:
            out_reserves[seat] = spare
    return {
        "rooms": rooms,
        "hands": hands,
        "reserves": out_reserves,
        "discards": discards,
        "set_aside": set_aside,
        "to_move": to_move,
        **rest,
    }


def load(**parts: Any) -> HeroesState:
    """The state of ``position(**parts)``, loaded through the engine's own reader."""
    return GAME.from_json(position(**parts))


def play(state: HeroesState, *texts: str) -> list[dict[str, Any]]:
    """Apply action texts in order; the events as a spectator sees them."""
    shown: list[dict[str, Any]] = []
    for text in texts:
        shown += [e.for_seat(None) for e in GAME.apply_text(state, text)]
    return shown


def hand(state: HeroesState, seat: str) -> list[str]:
    return list(GAME.to_json(state)["hands"][seat])


def top(state: HeroesState, room: str) -> str | None:
    stack = GAME.to_json(state)["rooms"].get(room, [])
    return stack[-1] if stack else None
