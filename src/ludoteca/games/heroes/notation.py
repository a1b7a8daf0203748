"""Heroes & Relics notation: action text and the JSON position.

Both are documented in ``docs/notation/heroes.md``; the JSON position is written and read in
``position`` (given here under the template's names), the per-seat observation is in ``view``.
"""

from __future__ import annotations

from ludoteca.core import JSON, InvalidActionError

from .position import ROLE_LIST
from .position import position_from_json as position_from_json  # noqa: PLC0414 (the template's name)
from .position import position_to_json as position_to_json  # noqa: PLC0414 (the template's name)
from .rules import (
    ALLOWED,
    CAMP,
    DRAW,
    EMPTY,
    HALFLING,
    HAND_LIMIT,
    NEIGHBOURS,
    PLACE,
    RANGER_CHOICE,
    ROGUE,
    ROLES,
    ROOMS,
    SKIP,
    STRIKE,
    STRIKE_CHOICE,
    Action,
    HeroesState,
    hand_size,
    strike_targets,
)

EXPECTED = "expected 'draw', 'place <role> <room>', 'place <role> camp', 'strike <room>' or 'skip'"

# ------------------------------------------------------------------------------ action text


def action_to_text(action: Action) -> str:
    """The canonical text: ``draw``, ``skip``, ``place <role> <room|camp>``, ``strike <room>``."""
    text = _TEXTS.get(action)
    return text if text is not None else _write(action)


def _write(action: Action) -> str:
    kind = action[0]
    if kind == "place":
        target = int(action[2])
        return f"place {ROLES[int(action[1])]} {'camp' if target == CAMP else ROOMS[target]}"
    if kind == "strike":
        return f"strike {ROOMS[int(action[1])]}"
    return str(kind)


# every action's text, written once (the table writes the legal texts at every version)
_TEXTS = {a: _write(a) for a in (DRAW, SKIP, *STRIKE, *(p for role in PLACE for p in role))}


def _shown(word: str) -> str:
    return repr(word if len(word) <= 20 else word[:20] + "...")


def _role(word: str) -> int:
    if word in ROLES:
        return ROLES.index(word)
    raise InvalidActionError(f"unknown role {_shown(word)}: the roles are {ROLE_LIST}")


def _room(word: str, camp_allowed: bool) -> int:
    if word in ROOMS:
        return ROOMS.index(word)
    if word == "camp":
        if camp_allowed:
            return CAMP
        raise InvalidActionError("a camp is never struck: strike a room next to your Fighter")
    where = "a1..c5 (column a-c, row 1-5)" + (" or 'camp' (the rival camp)" if camp_allowed else "")
    raise InvalidActionError(f"unknown room {_shown(word)}: the rooms are {where}")


def read_action(text: object) -> Action:
    """The action a text names (case and spacing are free); InvalidActionError if malformed."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a text, {EXPECTED}")
    words = text.lower().split()
    if not words:
        raise InvalidActionError(f"empty action: {EXPECTED}")
    verb, args = words[0], words[1:]
    if verb in ("draw", "skip"):
        if args:
            raise InvalidActionError(f"'{verb}' takes nothing after it")
        return DRAW if verb == "draw" else SKIP
    if verb == "place":
        if len(args) != 2:
            raise InvalidActionError(
                "expected 'place <role> <room>', e.g. 'place paladin b3', or 'place <role> camp'"
            )
        return PLACE[_role(args[0])][_room(args[1], camp_allowed=True)]
    if verb == "strike":
        if len(args) != 1:
            raise InvalidActionError("expected 'strike <room>', e.g. 'strike b2'")
        return STRIKE[_room(args[0], camp_allowed=False)]
    raise InvalidActionError(f"unknown action {_shown(verb)}: {EXPECTED}")


def action_fields(action: Action) -> tuple[str, JSON]:
    """The kind and named arguments of an action, for clients (``docs/protocol.md``):
    ``place`` ``{"role": "bard", "room": "b2"}`` (room ``camp`` for the rival camp),
    ``strike`` ``{"room": "a1"}``, ``draw`` and ``skip`` with none."""
    kind = str(action[0])
    if kind == "place":
        target = int(action[2])
        room = "camp" if target == CAMP else ROOMS[target]
        return kind, {"role": ROLES[int(action[1])], "room": room}
    if kind == "strike":
        return kind, {"room": ROOMS[int(action[1])]}
    return kind, {}


# -------------------------------------------------------------------------- explanations


def _hero_words(hero: int, seat: int) -> str:
    role = hero & 7
    whose = "your own" if hero >> 3 == seat else "a rival"
    strength = "" if role == HALFLING else f" ({role})"
    return f"{whose} {ROLES[role]}{strength}"


def why_illegal(state: HeroesState, action: Action) -> str:
    """A sentence saying why a well-formed ``action`` is not legal now."""
    if state.result is not None:
        return "the match is over"
    kind, seat = action[0], state.mover
    if state.pending == STRIKE_CHOICE and kind != "skip":
        lit = [ROOMS[r] for r in range(15) if strike_targets(state) >> r & 1]
        fighter = ROOMS[state.pending_room]
        if kind == "strike":
            room = int(action[1])
            if not NEIGHBOURS[state.pending_room] >> room & 1:
                return f"{ROOMS[room]} is not next to your Fighter in {fighter}"
            if state.tops[room] == EMPTY:
                return f"{ROOMS[room]} is empty: strike a room topped by a rival hero"
            return f"{ROOMS[room]} is topped by your own hero: strike a rival hero"
        return f"a pending Fighter strike: strike a lit room ({', '.join(lit)}) or skip"
    if kind == "strike":
        return "there is no Fighter strike pending"
    if kind == "skip":
        return "there is no trick to skip"
    if kind == "draw":
        if state.pending == RANGER_CHOICE:
            return "a pending Ranger placement: place one more hero or skip"
        if hand_size(state, seat) >= HAND_LIMIT:
            return "your hand is full (8 heroes): you cannot draw"
        return "your reserve is empty: you cannot draw"
    role, target = int(action[1]), int(action[2])
    name = ROLES[role]
    if not state.hands[seat][role]:
        return f"you have no {name} in hand"
    if target == CAMP:
        if role == ROGUE:
            return (
                "the rival camp is not connected to yours: a rogue ignores connection for "
                "rooms only, entering the rival camp still needs it"
            )
        return "the rival camp is not connected to yours: no chain of your rooms reaches it"
    top = state.tops[target]
    where = ROOMS[target]
    if not ALLOWED[seat][top] >> role & 1:
        held = _hero_words(top, seat)
        if top >> 3 == seat:
            if role == HALFLING:
                return (
                    f"{where} holds your own halfling: a halfling never goes on your own halfling"
                )
            return f"{where} holds {held}: a hero never goes on one of the same strength"
        return f"{where} holds {held}: a {name} ({role}) cannot go on a stronger or equal hero"
    return f"{where} is not connected to your camp"
