"""Heroes & Relics' full position as JSON, written (``position_to_json``) and read and checked
(``position_from_json``, which names the field that is wrong), as ``docs/notation/heroes.md``
documents it; ``notation`` gives both under the template's names.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from ludoteca.core import JSON, InvalidPositionError, Outcome, Stream

from .rules import (
    ALLOWED,
    COPIES,
    FIGHTER,
    HAND_LIMIT,
    NEIGHBOURS,
    NO_CHOICE,
    RANGER,
    RANGER_CHOICE,
    RELICS_TO_WIN,
    ROLES,
    ROOMS,
    SET_ASIDE,
    STRIKE_CHOICE,
    WARD_MASKS,
    WARD_RELICS,
    WARDS,
    HeroesState,
    can_place,
    draw_amount,
    empty_state,
    hand_roles,
    set_top,
)

DEFAULT_SEED = "heroes-position"
SEAT_KEYS = ("gold", "blue")
ROLE_LIST = ", ".join(ROLES)


def _hero_text(hero: int) -> str:
    return f"{SEAT_KEYS[hero >> 3]} {ROLES[hero & 7]}"


def position_to_json(state: HeroesState) -> JSON:
    """The full position (every hidden part included)."""
    over = state.result is not None
    pending: JSON | None = None
    if state.pending != NO_CHOICE:
        kind = "strike" if state.pending == STRIKE_CHOICE else "ranger"
        pending = {"kind": kind, "room": ROOMS[state.pending_room]}

    def per_seat(values: list[tuple[int, ...]]) -> JSON:
        return {SEAT_KEYS[s]: [ROLES[r] for r in values[s]] for s in (0, 1)}

    return {
        "game": "heroes",
        "rooms": {
            ROOMS[r]: [_hero_text(h) for h in stack]
            for r, stack in enumerate(state.stacks)
            if stack
        },
        "hands": {SEAT_KEYS[s]: hand_roles(state.hands[s]) for s in (0, 1)},
        "reserves": per_seat(state.reserves),
        "discards": per_seat(state.discards),
        "set_aside": per_seat(state.aside),
        "relics": {SEAT_KEYS[s]: state.relics[s] for s in (0, 1)},
        "sealed": {WARDS[w]: SEAT_KEYS[s] for w, s in enumerate(state.sealed) if s >= 0},
        "to_move": None if over else SEAT_KEYS[state.mover],
        "pending": pending,
        "camp": None if state.camp_hero < 0 else _hero_text(state.camp_hero),
        "outcome": state.result.to_json() if state.result else None,
        "rng": state.rng.to_json(),
    }


# ------------------------------------------------------------------------------------ read

FIELDS = (
    "game",
    "rooms",
    "hands",
    "reserves",
    "discards",
    "set_aside",
    "relics",
    "sealed",
    "to_move",
    "pending",
    "camp",
    "outcome",
    "rng",
)
OUTCOME_REASONS = ("camp", "relics", "stuck")


def _bad(message: str) -> InvalidPositionError:
    return InvalidPositionError(message)


def _seat(value: object, where: str) -> int:
    if value in SEAT_KEYS:
        return SEAT_KEYS.index(str(value))
    raise _bad(f"{where}: {value!r} is not a seat (gold or blue)")


def _read_role(value: object, where: str) -> int:
    if isinstance(value, str) and value in ROLES:
        return ROLES.index(value)
    raise _bad(f"{where}: unknown role {value!r} (roles: {ROLE_LIST})")


def _read_hero(value: object, where: str) -> int:
    words = value.split() if isinstance(value, str) else []
    if len(words) != 2:
        raise _bad(f"{where}: {value!r} is not a hero ('<gold|blue> <role>', e.g. 'gold bard')")
    return _seat(words[0], where) * 8 + _read_role(words[1], where)


def _object(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise _bad(f"{key} must be an object")
    return value


def _per_seat_roles(data: Mapping[str, Any], key: str) -> list[tuple[int, ...]]:
    block = _object(data, key)
    for name in block:
        _seat(name, key)
    out: list[tuple[int, ...]] = []
    for name in SEAT_KEYS:
        items = block.get(name, [])
        if not isinstance(items, list):
            raise _bad(f"{key}.{name} must be a list of roles")
        out.append(tuple(_read_role(v, f"{key}.{name}[{i}]") for i, v in enumerate(items)))
    return out


def position_from_json(data: Any) -> HeroesState:
    """Load and validate a position; InvalidPositionError names the field that is wrong."""
    if not isinstance(data, dict):
        raise _bad("a position is a JSON object")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise _bad(f"unknown field(s) {', '.join(unknown)} (fields: {', '.join(FIELDS)})")
    if data.get("game", "heroes") != "heroes":
        raise _bad(f"game: {data['game']!r} is not 'heroes'")
    rng = Stream.from_json(data["rng"]) if data.get("rng") is not None else Stream(DEFAULT_SEED)
    state = empty_state(rng)
    _read_rooms(state, data)
    hands = _per_seat_roles(data, "hands")
    for s in (0, 1):
        if len(hands[s]) > HAND_LIMIT:
            raise _bad(f"hands.{SEAT_KEYS[s]}: {len(hands[s])} heroes (a hand holds at most 8)")
        for role in hands[s]:
            state.hands[s][role] += 1
    state.reserves = _per_seat_roles(data, "reserves")
    state.discards = _per_seat_roles(data, "discards")
    state.aside = _per_seat_roles(data, "set_aside")
    for s in (0, 1):
        if len(state.aside[s]) != SET_ASIDE:
            raise _bad(
                f"set_aside.{SEAT_KEYS[s]}: {len(state.aside[s])} heroes (always {SET_ASIDE})"
            )
    camp = data.get("camp")
    if camp is not None:
        state.camp_hero = _read_hero(camp, "camp")
    _check_groups(state)
    _read_wards(state, data)
    _read_turn(state, data)
    return state


def _read_rooms(state: HeroesState, data: Mapping[str, Any]) -> None:
    for name, stack in _object(data, "rooms").items():
        if name not in ROOMS:
            raise _bad(f"rooms: no room {name!r} (rooms are a1..c5: column a-c, row 1-5)")
        if not isinstance(stack, list):
            raise _bad(f"rooms.{name} must be a list of heroes, bottom to top")
        r = ROOMS.index(name)
        heroes = tuple(_read_hero(h, f"rooms.{name}[{i}]") for i, h in enumerate(stack))
        for below, above in pairwise(heroes):
            if not ALLOWED[above >> 3][below] >> (above & 7) & 1:
                raise _bad(f"rooms.{name}: {_hero_text(above)} cannot stand on {_hero_text(below)}")
        state.stacks[r] = heroes
        if heroes:
            set_top(state, r, heroes[-1])


def _check_groups(state: HeroesState) -> None:
    counts = [[0] * 8, [0] * 8]
    for stack in state.stacks:
        for hero in stack:
            counts[hero >> 3][hero & 7] += 1
    if state.camp_hero >= 0:
        counts[state.camp_hero >> 3][state.camp_hero & 7] += 1
    for s in (0, 1):
        for role in range(8):
            counts[s][role] += state.hands[s][role]
        for pile in (state.reserves[s], state.discards[s], state.aside[s]):
            for role in pile:
                counts[s][role] += 1
    for s in (0, 1):
        total = sum(counts[s])
        group = f"the {SEAT_KEYS[s]} group (rooms, camp, hands, reserves, discards, set_aside)"
        if total != 8 * COPIES:
            raise _bad(f"{group}: {total} heroes, a group has 24 (3 of each role)")
        for role in range(8):
            if counts[s][role] != COPIES:
                raise _bad(f"{group}: {counts[s][role]} {ROLES[role]}s, a group has 3 of each")


def _read_wards(state: HeroesState, data: Mapping[str, Any]) -> None:
    for name, who in _object(data, "sealed").items():
        if name not in WARDS:
            raise _bad(f"sealed: no ward {name!r} (wards: {' '.join(WARDS)})")
        state.sealed[WARDS.index(name)] = _seat(who, f"sealed.{name}")
    relics = _object(data, "relics")
    for name in relics:
        _seat(name, "relics")
    for s, name in enumerate(SEAT_KEYS):
        owed = sum(WARD_RELICS[w] for w in range(8) if state.sealed[w] == s)
        value = relics.get(name, owed)
        if value != owed or isinstance(value, bool):
            raise _bad(f"relics.{name}: {value!r}, but the wards {name} sealed hold {owed}")
        state.relics[s] = owed
    for w in range(8):
        for s in (0, 1):
            need = WARD_MASKS[w]
            if state.sealed[w] < 0 and state.masks[s] & need == need:
                raise _bad(f"sealed: ward {WARDS[w]} is topped all round by {SEAT_KEYS[s]}")


def _read_turn(state: HeroesState, data: Mapping[str, Any]) -> None:
    raw_outcome = data.get("outcome")
    if raw_outcome is not None:
        if data.get("to_move") is not None or data.get("pending") is not None:
            raise _bad("to_move and pending must be null once the match is over")
        state.result = _read_outcome(state, raw_outcome)
        return
    state.mover = _seat(data.get("to_move"), "to_move")
    name = SEAT_KEYS[state.mover]
    for s in (0, 1):
        if state.relics[s] >= RELICS_TO_WIN:
            raise _bad(f"outcome: {SEAT_KEYS[s]} has {state.relics[s]} relics, the match is over")
    if state.camp_hero >= 0:
        raise _bad("outcome: a hero is in a camp, the match is over")
    pending = data.get("pending")
    if pending is None:
        if not (draw_amount(state, state.mover) or can_place(state, state.mover)):
            raise _bad(f"to_move: {name} can neither draw nor place, the match is over")
        return
    if not isinstance(pending, dict) or set(pending) != {"kind", "room"}:
        raise _bad("pending must be null or {kind: strike|ranger, room}")
    kind, room = pending["kind"], pending["room"]
    if kind not in ("strike", "ranger"):
        raise _bad(f"pending.kind: {kind!r} (strike or ranger)")
    if room not in ROOMS:
        raise _bad(f"pending.room: no room {room!r}")
    r = ROOMS.index(room)
    role = FIGHTER if kind == "strike" else RANGER
    if state.tops[r] != state.mover * 8 + role:
        raise _bad(f"pending.room: {room} is not topped by the {ROLES[role]} of {name}")
    state.pending = STRIKE_CHOICE if kind == "strike" else RANGER_CHOICE
    state.pending_room = r
    if kind == "strike" and not NEIGHBOURS[r] & state.masks[1 - state.mover]:
        raise _bad(f"pending: nothing next to {room} to strike (such a trick asks nothing)")


def _read_outcome(state: HeroesState, raw: Any) -> Outcome:
    try:
        outcome = Outcome.from_json(raw)
    except (KeyError, TypeError, ValueError):
        raise _bad("outcome must be {winners, reason, draw, scores}") from None
    if outcome.reason not in OUTCOME_REASONS or not set(outcome.winners) <= {0, 1}:
        raise _bad(f"outcome: reason is one of {', '.join(OUTCOME_REASONS)}, winners are 0 or 1")
    if (outcome.reason == "camp") != (state.camp_hero >= 0):
        raise _bad("outcome: a camp win needs the camp hero, and the camp hero a camp win")
    if outcome.reason == "camp" and outcome.winners != (state.camp_hero >> 3,):
        raise _bad("outcome: the camp win goes to the owner of the camp hero")
    return outcome
