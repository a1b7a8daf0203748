"""Positions for the Dice Heroes rule tests, and dice driven by a stream offset found on the spot.

A test writes a position in the documented JSON notation and names the faces the next draws must
show; ``load`` searches the offset of the position's stream whose next draws give exactly those
faces (no seed is hard-coded), so the test asserts the rule and not a seed.
"""

from __future__ import annotations

from typing import Any

from ludoteca.core import Event, Stream
from ludoteca.games import get
from ludoteca.games.dice_heroes.dice import FACES, SIDES
from ludoteca.games.dice_heroes.rules import DiceState, poster_stack

GAME = get("dice-heroes")


def die(spec: str) -> dict[str, str]:
    """``"white:coin"`` -> ``{"colour": "white", "face": "coin"}``."""
    colour, face = spec.split(":")
    return {"colour": colour, "face": face}


def counts(white: int, yellow: int, red: int) -> dict[str, int]:
    return {"white": white, "yellow": yellow, "red": red}


def seat(
    troop: tuple[int, int, int] = (3, 0, 0),
    tableau: tuple[int, int, int] = (0, 3, 3),
    coins: int = 0,
    posters: tuple[int, ...] = (),
) -> dict[str, Any]:
    return {
        "troop": counts(*troop),
        "tableau": counts(*tableau),
        "coins": coins,
        "posters": list(posters),
    }


def position(
    *,
    players: int = 2,
    seats: list[dict[str, Any]] | None = None,
    posters: list[int] | None = None,
    holder: int | None = None,
    laid: tuple[str, ...] = (),
    marker: bool = False,
    to_move: int | None = 0,
    roll: int = 1,
    dice: tuple[str, ...] = ("white:coin", "white:coin", "white:coin"),
) -> dict[str, Any]:
    """A position in the JSON notation; defaults: fresh seats, full stack, seat 0 after roll 1."""
    return {
        "game": "dice-heroes",
        "players": players,
        "rng": {"seed": "dice-heroes-rule-tests", "used": 0},
        "posters": list(poster_stack(players)) if posters is None else posters,
        "seats": seats if seats is not None else [seat() for _ in range(players)],
        "holder": holder,
        "laid": [die(d) for d in laid],
        "marker": marker,
        "to_move": to_move,
        "roll": roll,
        "dice": [die(d) for d in dice],
    }


def offset_for(seed: str, faces: list[str | None]) -> int:
    """The first stream offset whose next draws show ``faces`` (``"red:x"``; None = any face)."""
    wanted = [None if f is None else tuple(f.split(":")) for f in faces]
    for used in range(500_000):
        stream = Stream(seed, used)
        draws = [stream.below(SIDES) for _ in wanted]
        if all(w is None or FACES[w[0]][d] == w[1] for w, d in zip(wanted, draws, strict=True)):
            return used
    raise AssertionError(f"no offset gives {faces}")


def load(data: dict[str, Any], *faces: str | None) -> DiceState:
    """The position, its stream set so that the next draws show ``faces`` in order."""
    data = {**data, "rng": {**data["rng"]}}
    data["rng"]["used"] = offset_for(data["rng"]["seed"], list(faces))
    state: DiceState = GAME.from_json(data)
    return state


def play(state: DiceState, text: str) -> list[dict[str, Any]]:
    """Apply an action text; the events as a spectator sees them."""
    return [e.for_seat(None) for e in GAME.apply_text(state, text)]


def kinds(events: list[dict[str, Any]] | list[Event]) -> list[str]:
    return [e.kind if isinstance(e, Event) else e["kind"] for e in events]


def only(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    """The one event of ``kind``."""
    found = [e for e in events if e["kind"] == kind]
    assert len(found) == 1, (kind, events)
    return found[0]


def troop(state: DiceState, seat_: int) -> dict[str, int]:
    return dict(GAME.observation(state, None)["seats"][seat_]["troop"])


def tableau(state: DiceState, seat_: int) -> dict[str, int]:
    return dict(GAME.observation(state, None)["seats"][seat_]["tableau"])
