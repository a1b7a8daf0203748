"""Heroes & Relics: what each seat sees (the observation) and the terminal picture drawn from it.

The observation is documented in ``docs/notation/heroes.md``.
"""

from __future__ import annotations

from ludoteca.core import JSON

from .notation import action_to_text
from .rules import (
    CAMPS,
    NO_CHOICE,
    ROLES,
    ROOMS,
    SANCTUARIES,
    SEATS,
    STRIKE_CHOICE,
    WARD_MASKS,
    WARD_RELICS,
    WARDS,
    WARDS_OF_ROOM,
    HeroesState,
    hand_roles,
    legal_actions,
    strike_targets,
)

# ---------------------------------------------------------------------------- observation


# what never changes: each room's name, sanctuary flag and wards; each ward's rooms; each hero
_ROOM_PARTS = tuple(
    (ROOMS[r], bool(SANCTUARIES >> r & 1), tuple(WARDS[w] for w in WARDS_OF_ROOM[r]))
    for r in range(15)
)
_WARD_PARTS = tuple(
    (WARDS[w], tuple(ROOMS[r] for r in range(15) if WARD_MASKS[w] >> r & 1), WARD_RELICS[w])
    for w in range(8)
)
_HEROES = tuple((hero >> 3, ROLES[hero & 7]) for hero in range(16))


def _hero(hero: int) -> JSON:
    owner, role = _HEROES[hero]
    return {"owner": owner, "role": role}


def observation(state: HeroesState, seat: int | None) -> JSON:
    """What ``seat`` sees (None = a spectator); documented in docs/notation/heroes.md."""
    over = state.result is not None
    hands = state.hands
    stacks, sealed = state.stacks, state.sealed
    rooms = [
        {
            "room": name,
            "stack": [_hero(h) for h in stacks[r]],
            "sanctuary": sanctuary,
            "wards": list(wards),
        }
        for r, (name, sanctuary, wards) in enumerate(_ROOM_PARTS)
    ]
    wards = [
        {
            "ward": name,
            "rooms": list(ward_rooms),
            "relics": relics,
            "sealed_by": None if sealed[w] < 0 else sealed[w],
        }
        for w, (name, ward_rooms, relics) in enumerate(_WARD_PARTS)
    ]
    return {
        "seats": [{"seat": s, "name": SEATS[s], "camp": CAMPS[s]} for s in (0, 1)],
        "rooms": rooms,
        "wards": wards,
        "relics": state.relics[:],
        "hand": None if seat is None else hand_roles(hands[seat]),
        "hand_counts": [sum(hands[0]), sum(hands[1])],
        "reserve_counts": [len(state.reserves[0]), len(state.reserves[1])],
        "discards": [[ROLES[r] for r in state.discards[s]] for s in (0, 1)],
        "set_aside_counts": [len(state.aside[0]), len(state.aside[1])],
        "set_aside": [[ROLES[r] for r in state.aside[s]] for s in (0, 1)] if over else None,
        "to_move": None if over else state.mover,
        "pending": _pending_view(state, seat),
        "camp_hero": None if state.camp_hero < 0 else _hero(state.camp_hero),
    }


def _pending_view(state: HeroesState, seat: int | None) -> JSON | None:
    if state.pending == NO_CHOICE or state.result is not None:
        return None
    shown: JSON = {"seat": state.mover, "room": ROOMS[state.pending_room]}
    if state.pending == STRIKE_CHOICE:
        targets = strike_targets(state)
        shown.update(kind="strike", rooms=[ROOMS[r] for r in range(15) if targets >> r & 1])
    else:
        shown["kind"] = "ranger"
        if seat == state.mover:
            shown["options"] = [action_to_text(a) for a in legal_actions(state)]
    return shown


# --------------------------------------------------------------------------- terminal picture


def describe(view: JSON, seat: int | None) -> str:
    """The board as text for the terminal, drawn from an observation only.

    Each room shows its top hero (``G``/``B`` + role) and, after ``+``, how many lie beneath;
    ``*`` marks a sanctuary.
    """
    names = [s["name"] for s in view["seats"]]
    lines = [f"{'north camp: ' + names[0]:^50}"]
    for row in range(5):
        cells = []
        for room in view["rooms"][row * 3 : row * 3 + 3]:
            stack = room["stack"]
            mark = "*" if room["sanctuary"] else " "
            text = "."
            if stack:
                text = f"{names[stack[-1]['owner']][0]} {stack[-1]['role']}"
                text += f" +{len(stack) - 1}" if len(stack) > 1 else ""
            cells.append(f"{mark}{text:<15}")
        lines.append(f"{row + 1} " + "".join(cells))
    lines += [f"{'south camp: ' + names[1]:^50}", "   a" + " " * 15 + "b" + " " * 15 + "c"]
    sealed = [
        f"{w['ward']} {names[w['sealed_by']]} ({w['relics']})"
        for w in view["wards"]
        if w["sealed_by"] is not None
    ]
    lines.append("sealed wards: " + (", ".join(sealed) or "none"))
    for s, name in enumerate(names):
        discards = ", ".join(view["discards"][s]) or "none"
        lines.append(
            f"{name}: {view['relics'][s]} relics, {view['hand_counts'][s]} in hand, "
            f"{view['reserve_counts'][s]} in reserve; discards: {discards}"
        )
    if seat is not None:
        lines.append("your hand: " + (", ".join(view["hand"]) or "empty"))
    if view["set_aside"] is not None:
        aside = (f"{name} {', '.join(view['set_aside'][s])}" for s, name in enumerate(names))
        lines.append("set aside: " + "; ".join(aside))
    invader = view["camp_hero"]
    if invader is not None:
        owner = invader["owner"]
        lines.append(f"{names[owner]}'s {invader['role']} entered the {CAMPS[1 - owner]} camp")
    pending = view["pending"]
    if pending is not None:
        if pending["kind"] == "strike":
            rooms = ", ".join(pending["rooms"])
            lines.append(f"the Fighter in {pending['room']} may strike {rooms}, or skip")
        else:
            lines.append(f"the Ranger in {pending['room']} grants one more placement, or skip")
    return "\n".join(line.rstrip() for line in lines)
