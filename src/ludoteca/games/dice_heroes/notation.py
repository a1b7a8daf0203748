"""Dice Heroes notation: action text and the JSON position (the observation is in ``view``).

Documented in ``docs/notation/dice-heroes.md``. Dice are numbered 1, 2, ... in the order of the
roll: white dice first, then yellow, then red; the numbers hold for the whole turn.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ludoteca.core import (
    JSON,
    InvalidActionError,
    InvalidPositionError,
    Stream,
)

from .dice import COLOURS, FACE_NAMES, FACES, SWORDS, X
from .rules import (
    HEROES,
    HUES,
    PER_COLOUR,
    ROLLS,
    STOP,
    Action,
    DiceState,
    poster_stack,
    rerollable,
)

GAME_ID = "dice-heroes"
_SEPARATORS = re.compile(r"[\s,;]+")


# ----------------------------------------------------------------------------- actions
def action_to_text(action: Action) -> str:
    """``stop`` or ``reroll`` with the die numbers ascending, e.g. ``reroll 1 3 4``."""
    if not action:
        return "stop"
    return "reroll " + " ".join(str(n) for n in action)


def action_fields(action: Action) -> tuple[str, JSON]:
    """``stop`` / ``reroll`` with ``{"dice": [1, 3]}``, for clients (``docs/protocol.md``)."""
    return ("reroll", {"dice": list(action)}) if action else ("stop", {})


def read_action(state: DiceState, text: str) -> Action:
    """The action a text names, forgiving about case, order, spaces and commas (syntax only:
    ``reroll all`` names the dice of ``state`` that do not show X)."""
    if not isinstance(text, str):
        raise InvalidActionError("an action is a text such as 'reroll 1 3' or 'stop'")
    words = [w for w in _SEPARATORS.split(text.strip().lower()) if w]
    if not words:
        raise InvalidActionError("empty action: type 'stop' or 'reroll' and die numbers")
    verb, rest = words[0], words[1:]
    if verb == "stop":
        if rest:
            raise InvalidActionError("'stop' takes nothing after it")
        return STOP
    if verb not in ("reroll", "re-roll"):
        raise InvalidActionError(f"unknown action '{verb[:20]}': type 'stop' or 'reroll 1 3'")
    if not rest:
        raise InvalidActionError("reroll which dice? e.g. 'reroll 1 3' or 'reroll all'")
    if rest == ["all"]:
        mask = rerollable(state)
        return tuple(i + 1 for i in range(len(state.faces)) if mask >> i & 1)
    numbers = [_die_number(word) for word in rest]
    for n in numbers:
        if numbers.count(n) > 1:
            raise InvalidActionError(f"die {n} is named twice")
    return tuple(sorted(numbers))


def why_illegal(state: DiceState, action: Action) -> str:
    """Why a well-formed action is not legal now."""
    if state.seat < 0:
        return "the match is over"
    for n in action:
        if n > len(state.faces):
            return f"there is no die {n} (dice 1-{len(state.faces)})"
        if state.faces[n - 1] == X:
            return f"die {n} showed X and is back on the tableau (locked)"
    return f"'{action_to_text(action)}' is not possible now"


def _die_number(word: str) -> int:
    """A typed die number; a number too long to be a die reads as a million (no such die)."""
    if not (word.isascii() and word.isdigit()):
        raise InvalidActionError(f"'{word[:20]}' is not a die number")
    digits = word.lstrip("0") or "0"
    n = int(digits) if len(digits) <= 6 else 10**6
    if n < 1:
        raise InvalidActionError("dice are numbered from 1")
    return n


# ----------------------------------------------------------------------------- shared
def colour_counts(values: list[int]) -> dict[str, int]:
    return dict(zip(COLOURS, values, strict=True))


def die_json(colour: int, face: int) -> JSON:
    return {"colour": COLOURS[colour], "face": FACE_NAMES[face]}


# ---------------------------------------------------------------------------- position
def position_to_json(state: DiceState) -> JSON:
    """The full position as JSON (the stream included)."""
    return {
        "game": GAME_ID,
        "players": state.players,
        "rng": state.rng.to_json(),
        "posters": list(state.posters),
        "seats": [
            {
                "troop": colour_counts(state.troop[s * HUES : (s + 1) * HUES]),
                "tableau": colour_counts(state.tableau[s * HUES : (s + 1) * HUES]),
                "coins": state.coins[s],
                "posters": list(state.taken[s]),
            }
            for s in range(state.players)
        ],
        "holder": state.holder if state.holder >= 0 else None,
        "laid": [die_json(c, f) for c, f in state.laid],
        "marker": state.marker,
        "to_move": state.seat if state.seat >= 0 else None,
        "roll": state.roll,
        "dice": [die_json(c, f) for c, f in zip(state.colours, state.faces, strict=True)],
    }


_FIELDS = {
    "game",
    "players",
    "rng",
    "posters",
    "seats",
    "holder",
    "laid",
    "marker",
    "to_move",
    "roll",
    "dice",
}
_SEAT_FIELDS = {"troop", "tableau", "coins", "posters"}


def _fail(field: str, problem: str) -> InvalidPositionError:
    return InvalidPositionError(f"{field}: {problem}")


def _whole(value: Any, field: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise _fail(field, f"must be a whole number >= {low}")
    if high is not None and value > high:
        raise _fail(field, f"must be at most {high}")
    return value


def _object(value: Any, field: str, keys: set[str]) -> Mapping[str, Any]:
    """A JSON object with exactly ``keys`` (``game`` may be left out); ``field`` "" is the top."""
    if not isinstance(value, dict):
        raise _fail(field or "position", "must be an object")
    unknown = sorted(str(key) for key in set(value) - keys)
    if unknown:
        raise _fail(f"{field}.{unknown[0]}" if field else unknown[0], "unknown field")
    missing = sorted(keys - set(value) - {"game"})
    if missing:
        raise _fail(f"{field}.{missing[0]}" if field else missing[0], "missing")
    return value


def _list(value: Any, field: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(field, "must be a list")
    return value


def _colour_counts(value: Any, field: str) -> list[int]:
    counts = _object(value, field, set(COLOURS))
    return [_whole(counts[c], f"{field}.{c}", 0, PER_COLOUR) for c in COLOURS]


def _read_die(value: Any, field: str) -> tuple[int, int]:
    die = _object(value, field, {"colour", "face"})
    colour, face = die["colour"], die["face"]
    if colour not in COLOURS:
        raise _fail(f"{field}.colour", f"unknown colour {colour!r} (known: {', '.join(COLOURS)})")
    if face not in FACES[colour]:
        known = ", ".join(dict.fromkeys(FACES[colour]))
        raise _fail(f"{field}.face", f"a {colour} die has no face {face!r} (faces: {known})")
    return COLOURS.index(colour), FACE_NAMES.index(face)


def position_from_json(data: Any) -> DiceState:
    """A position from JSON; InvalidPositionError naming the field when it is not one."""
    top = _object(data, "", _FIELDS)
    if top.get("game", GAME_ID) != GAME_ID:
        raise _fail("game", f"this is a {GAME_ID} position, not {top['game']!r}")
    players = _whole(top["players"], "players", 2, len(HEROES))
    state = DiceState.empty(players, Stream.from_json(top["rng"]))

    stack = poster_stack(players)
    left = tuple(_whole(v, f"posters[{i}]") for i, v in enumerate(_list(top["posters"], "posters")))
    if left != stack[len(stack) - len(left) :]:
        raise _fail("posters", f"must be the bottom of the stack {list(stack)} (top first)")
    state.posters = left

    seats = _list(top["seats"], "seats")
    if len(seats) != players:
        raise _fail("seats", f"must list {players} seats")
    taken_all: list[int] = []
    for s, raw in enumerate(seats):
        seat = _object(raw, f"seats[{s}]", _SEAT_FIELDS)
        state.troop[s * HUES : (s + 1) * HUES] = _colour_counts(seat["troop"], f"seats[{s}].troop")
        state.tableau[s * HUES : (s + 1) * HUES] = _colour_counts(
            seat["tableau"], f"seats[{s}].tableau"
        )
        state.coins[s] = _whole(seat["coins"], f"seats[{s}].coins")
        field = f"seats[{s}].posters"
        state.taken[s] = tuple(_whole(v, field) for v in _list(seat["posters"], field))
        taken_all.extend(state.taken[s])
    if sorted(taken_all) != sorted(stack[: len(stack) - len(left)]):
        raise _fail("seats[].posters", "posters taken and posters left must make up the stack")

    _load_posters_holder(state, top)
    _check_dice_per_colour(state)
    _load_turn(state, top)
    return state


def _load_posters_holder(state: DiceState, top: Mapping[str, Any]) -> None:
    holder = top["holder"]
    laid = [_read_die(d, f"laid[{i}]") for i, d in enumerate(_list(top["laid"], "laid"))]
    marker = top["marker"]
    if not isinstance(marker, bool):
        raise _fail("marker", "must be true or false")
    if holder is None:
        if laid or marker:
            raise _fail("holder", "dice or a marker lie at the posters but no holder is named")
        return
    state.holder = _whole(holder, "holder", 0, state.players - 1)
    if marker and state.players != 2:
        raise _fail("marker", "duel markers are used with two players only")
    if not laid and not marker:
        raise _fail("laid", "the holder has neither dice nor a duel marker at the posters")
    for i, (_, face) in enumerate(laid):
        if not SWORDS[face]:
            raise _fail(f"laid[{i}].face", "only dice showing swords lie at the posters")
    state.laid, state.marker = tuple(laid), marker


def _check_dice_per_colour(state: DiceState) -> None:
    for s in range(state.players):
        for c, name in enumerate(COLOURS):
            laid = sum(1 for colour, _ in state.laid if colour == c) if s == state.holder else 0
            total = state.troop[s * HUES + c] + state.tableau[s * HUES + c] + laid
            if total != PER_COLOUR:
                raise _fail(
                    f"seats[{s}]",
                    f"{name} dice in troop + tableau + posters make {total}, not {PER_COLOUR}",
                )


def _load_turn(state: DiceState, top: Mapping[str, Any]) -> None:
    to_move, roll = top["to_move"], top["roll"]
    raw_dice = _list(top["dice"], "dice")
    if not state.posters:
        if to_move is not None or roll != 0 or raw_dice:
            raise _fail("to_move", "the match is over (no posters left): null, roll 0, no dice")
        return
    if to_move is None:
        raise _fail("to_move", "posters are left, so a seat is to move")
    seat = state.seat = _whole(to_move, "to_move", 0, state.players - 1)
    state.roll = _whole(roll, "roll", 1, ROLLS - 1)
    if seat == state.holder and not (state.marker and not state.laid):
        raise _fail("holder", "the seat to move would have captured at the start of its turn")
    dice = [_read_die(d, f"dice[{i}]") for i, d in enumerate(raw_dice)]
    if [c for c, _ in dice] != sorted(c for c, _ in dice):
        raise _fail("dice", "must be listed by colour: white, yellow, red")
    base = seat * HUES
    for c, name in enumerate(COLOURS):
        live = sum(1 for colour, face in dice if colour == c and face != X)
        locked = sum(1 for colour, face in dice if colour == c and face == X)
        troop = state.troop[base + c]
        if live != troop:
            raise _fail("dice", f"{live} {name} dice in play but the troop has {troop}")
        if locked > state.tableau[base + c]:
            raise _fail("dice", f"{locked} {name} dice sent back but the tableau has fewer")
    state.colours = tuple(c for c, _ in dice)
    state.faces = [f for _, f in dice]
    if not rerollable(state):
        raise _fail("dice", "no die can be re-rolled: the turn would already be over")
