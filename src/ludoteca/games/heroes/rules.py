"""Heroes & Relics: the board tables, the position and every rule (pure; chance from state.rng).

Encoding (also in ``docs/notation/heroes.md``): seats Gold = 0 (north camp), Blue = 1 (south
camp); roles 0..7 = halfling, bard, ranger, fighter, rogue, wizard, cleric, paladin (the index is
the strength, the Halfling has none); a hero is ``seat * 8 + role``; rooms 0..14 = a1 b1 c1 a2 ...
c5 (row by row from the north); target 15 is the rival camp.
"""

from __future__ import annotations

import random
from typing import Self

from ludoteca.core import Event, Outcome, State, Stream

Log = list[Event] | None
"""Where the events of an action go; None when nobody reads them (search, playouts): the match is
the same, bit for bit, only the events are not built."""

ROLES = ("halfling", "bard", "ranger", "fighter", "rogue", "wizard", "cleric", "paladin")
HALFLING, BARD, RANGER, FIGHTER, ROGUE, WIZARD, CLERIC, PALADIN = range(8)
SEATS = ("Gold", "Blue")
CAMPS = ("north", "south")
COPIES = 3
SET_ASIDE = 4
OPENING_HAND = 4
HAND_LIMIT = 8
RELICS_TO_WIN = 6
MAX_DECISIONS = 2 * 60
"""The longest match: each seat plays at most 20 heroes (24 less the 4 set aside), so at most 20
draws, 20 placements and one strike-or-skip after each placement."""

ROOMS = tuple(f"{col}{row}" for row in range(1, 6) for col in "abc")
CAMP = 15
EMPTY = 16  # the "top" of an empty room
ALL_ROOMS = (1 << 15) - 1
CAMP_ROW = (0b111, 0b111 << 12)  # rooms next to each seat's own camp
SANCTUARIES = (1 << ROOMS.index("a3")) | (1 << ROOMS.index("c3"))


def _neighbours(room: int) -> int:
    row, col = divmod(room, 3)
    mask = 0
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < 5 and 0 <= c < 3:
            mask |= 1 << (r * 3 + c)
    return mask


NEIGHBOURS = tuple(_neighbours(r) for r in range(15))


def _spread_table() -> list[int]:
    """SPREAD[m] = the rooms of mask m and all their neighbours."""
    table = [0] * (1 << 15)
    for m in range(1, 1 << 15):
        low = m & -m
        table[m] = table[m ^ low] | low | NEIGHBOURS[low.bit_length() - 1]
    return table


SPREAD = _spread_table()

WARDS = ("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4")
WARD_RELICS = (1, 1, 2, 2, 2, 2, 1, 1)


def _ward_mask(name: str) -> int:
    top_left = ROOMS.index(name)
    return sum(1 << (top_left + d) for d in (0, 1, 3, 4))


WARD_MASKS = tuple(_ward_mask(w) for w in WARDS)
WARDS_OF_ROOM = tuple(tuple(w for w in range(8) if WARD_MASKS[w] >> r & 1) for r in range(15))


def _allowed(seat: int, top: int) -> int:
    """The roles (bitmask) ``seat`` may place onto a room whose top hero is ``top``."""
    if top == EMPTY:
        return 0xFF
    role = top & 7
    if top >> 3 == seat:
        return 0xFF & ~(1 << role)  # never the same strength (two own Halflings count as same)
    if role == HALFLING:
        return 0xFF
    return (1 << HALFLING) | (0xFF & ~((2 << role) - 1))


ALLOWED = tuple(tuple(_allowed(seat, top) for top in range(EMPTY + 1)) for seat in (0, 1))

Action = tuple[str | int, ...]
DRAW: Action = ("draw",)
SKIP: Action = ("skip",)
PLACE: tuple[tuple[Action, ...], ...] = tuple(
    tuple(("place", role, t) for t in range(16)) for role in range(8)
)
STRIKE: tuple[Action, ...] = tuple(("strike", r) for r in range(15))


def _placements_by_mask(role: int, first: int, count: int) -> tuple[tuple[Action, ...], ...]:
    """For each mask of ``count`` rooms from ``first``: the placements there, in room order."""
    return tuple(
        tuple(PLACE[role][first + r] for r in range(count) if m >> r & 1) for m in range(1 << count)
    )


# a room mask m gives PLACE_LOW[role][m & 255] + PLACE_HIGH[role][m >> 8] (rooms a1..c5)
PLACE_LOW = tuple(_placements_by_mask(role, 0, 8) for role in range(8))
PLACE_HIGH = tuple(_placements_by_mask(role, 8, 7) for role in range(8))

# The research encoding's ids of the same actions (``HeroesEncoding.actions``: draw 0, skip 1,
# then each role's placements a1..c5 and camp, then the strikes a1..c5), for ``legal_ids``.
DRAW_ID, SKIP_ID = 0, 1
PLACE_IDS = tuple(tuple(2 + role * 16 + t for t in range(16)) for role in range(8))
STRIKE_IDS = tuple(2 + 8 * 16 + r for r in range(15))


def _place_ids_by_mask(role: int, first: int, count: int) -> tuple[tuple[int, ...], ...]:
    """``_placements_by_mask``'s ids."""
    return tuple(
        tuple(PLACE_IDS[role][first + r] for r in range(count) if m >> r & 1)
        for m in range(1 << count)
    )


PLACE_LOW_IDS = tuple(_place_ids_by_mask(role, 0, 8) for role in range(8))
PLACE_HIGH_IDS = tuple(_place_ids_by_mask(role, 8, 7) for role in range(8))

NO_CHOICE, STRIKE_CHOICE, RANGER_CHOICE = 0, 1, 2
CHOICES = (None, "strike", "ranger")


def hero_json(hero: int) -> dict[str, int | str]:
    return {"owner": hero >> 3, "role": ROLES[hero & 7]}


def hand_roles(hand: list[int]) -> list[str]:
    """A hand (count per role) as role names, halfling first."""
    return [ROLES[role] for role in range(8) for _ in range(hand[role])]


class HeroesState(State):
    """A position. Stacks, reserves, discards and set-aside heroes are tuples (shared on clone)."""

    __slots__ = (
        "aside",
        "camp_hero",
        "discards",
        "hands",
        "hero_rooms",
        "masks",
        "mover",
        "pending",
        "pending_room",
        "relics",
        "reserves",
        "result",
        "sealed",
        "stacks",
        "tops",
    )

    stacks: list[tuple[int, ...]]  # per room, heroes bottom to top
    tops: list[int]  # per room, the top hero or EMPTY
    masks: list[int]  # per seat, the rooms it tops
    hero_rooms: list[int]  # per hero (seat * 8 + role), the rooms it tops
    hands: list[list[int]]  # per seat, count per role
    reserves: list[tuple[int, ...]]  # per seat, roles, next drawn first
    discards: list[tuple[int, ...]]  # per seat, roles, oldest first
    aside: list[tuple[int, ...]]  # per seat, roles set aside face down
    relics: list[int]
    sealed: list[int]  # per ward, the seat that sealed it or -1
    mover: int
    pending: int
    pending_room: int  # the Fighter's or the Ranger's room while a choice is pending
    camp_hero: int  # the hero that entered a camp (ends the match), else -1
    result: Outcome | None

    def clone(self) -> Self:
        cls = type(self)
        copy = cls.__new__(cls)
        copy.rng = self.rng.clone()
        copy.stacks = self.stacks[:]
        copy.tops = self.tops[:]
        copy.masks = self.masks[:]
        copy.hero_rooms = self.hero_rooms[:]
        copy.hands = [self.hands[0][:], self.hands[1][:]]
        copy.reserves = self.reserves[:]
        copy.discards = self.discards[:]
        copy.aside = self.aside[:]
        copy.relics = self.relics[:]
        copy.sealed = self.sealed[:]
        copy.mover = self.mover
        copy.pending = self.pending
        copy.pending_room = self.pending_room
        copy.camp_hero = self.camp_hero
        copy.result = self.result
        return copy


def empty_state(rng: Stream) -> HeroesState:
    """An empty board, empty hands and reserves, Gold to move (filled by set-up or a position)."""
    state = HeroesState.__new__(HeroesState)
    state.rng = rng
    state.stacks = [()] * 15
    state.tops = [EMPTY] * 15
    state.masks = [0, 0]
    state.hero_rooms = [0] * 16
    state.hands = [[0] * 8, [0] * 8]
    state.reserves = [(), ()]
    state.discards = [(), ()]
    state.aside = [(), ()]
    state.relics = [0, 0]
    state.sealed = [-1] * 8
    state.mover = 0
    state.pending = NO_CHOICE
    state.pending_room = -1
    state.camp_hero = -1
    state.result = None
    return state


def set_top(state: HeroesState, room: int, hero: int) -> None:
    """Make ``hero`` (or EMPTY) the top of ``room`` in the lookup tables (not the stack)."""
    bit = 1 << room
    old = state.tops[room]
    if old != EMPTY:
        state.masks[old >> 3] &= ~bit
        state.hero_rooms[old] &= ~bit
    if hero != EMPTY:
        state.masks[hero >> 3] |= bit
        state.hero_rooms[hero] |= bit
    state.tops[room] = hero


# ---------------------------------------------------------------------------------- set-up


GROUP = tuple(role for role in range(8) for _ in range(COPIES))
"""A seat's 24 heroes in canonical order, before its shuffle."""


def setup(rng: Stream, events: Log) -> HeroesState:
    """Shuffle Gold's 24, then Blue's 24; pick the first seat; set aside 4; each draws 4 (the
    events to ``events``, None: not built)."""
    state = empty_state(rng)
    for seat in (0, 1):
        group = list(GROUP)
        rng.shuffle(group)
        state.aside[seat] = tuple(group[:SET_ASIDE])
        state.reserves[seat] = tuple(group[SET_ASIDE:])
    first = rng.below(2)
    state.mover = first
    if events is not None:
        events.append(Event("start", {"first": first}))
    for seat in (0, 1):
        _draw(state, seat, OPENING_HAND, "deal", events)
    return state


# ---------------------------------------------------------------------------------- queries


def hand_size(state: HeroesState, seat: int) -> int:
    return sum(state.hands[seat])


def draw_amount(state: HeroesState, seat: int) -> int:
    """What the draw action (and the Bard) takes now: 2, 1 or 0."""
    held = sum(state.hands[seat])  # hand_size
    left = len(state.reserves[seat])
    if held >= HAND_LIMIT or not left:
        return 0
    return 1 if held == HAND_LIMIT - 1 or left == 1 else 2


def connection(state: HeroesState, seat: int) -> int:
    """C: the rooms topped by ``seat`` reachable from its camp through rooms it tops."""
    own = state.masks[seat]
    reached = own & CAMP_ROW[seat]
    while True:
        grown = SPREAD[reached] & own
        if grown == reached:
            return reached
        reached = grown


def connected_rooms(chain: int, seat: int) -> int:
    """The rooms a non-Rogue of ``seat`` may target, given its chain C."""
    return SPREAD[chain] | CAMP_ROW[seat]


def reaches_camp(chain: int, seat: int) -> bool:
    """Whether the chain touches the rival camp (any hero may then enter it)."""
    return bool(chain & CAMP_ROW[1 - seat])


def _blocked(state: HeroesState, seat: int) -> list[int]:
    """Per role, the rooms a hero of ``seat`` with that role may not go onto (stacking only):
    its own role, and for a role with strength any rival of that strength or more."""
    rooms = state.hero_rooms
    own, rival = seat * 8, (1 - seat) * 8
    blocked = [rooms[own]] * 8
    above = 0
    for role in range(PALADIN, HALFLING, -1):
        above |= rooms[rival + role]
        blocked[role] = above | rooms[own + role]
    return blocked


def _fits(state: HeroesState, seat: int) -> tuple[list[int], int]:
    """Per role (halfling..paladin) the rooms (mask) a hero of it in ``seat``'s hand may be
    placed in, -1 for a role not in hand; and whether the rival's camp is reached (non-zero).
    (``connection`` and ``_blocked``'s rooms, written out for the roles in hand.)"""
    hand = state.hands[seat]
    own_rooms = state.masks[seat]
    home = CAMP_ROW[seat]
    chain = own_rooms & home
    while True:  # connection
        grown = SPREAD[chain] & own_rooms
        if grown == chain:
            break
        chain = grown
    near = SPREAD[chain] | home  # connected_rooms
    camp = chain & CAMP_ROW[1 - seat]  # reaches_camp
    rooms = state.hero_rooms
    own, rival = seat * 8, 8 - seat * 8
    fits = [-1] * 8
    above = 0
    for role in range(PALADIN, HALFLING, -1):
        above |= rooms[rival + role]
        if hand[role]:
            fits[role] = (ALL_ROOMS if role == ROGUE else near) & ~(above | rooms[own + role])
    if hand[HALFLING]:
        fits[HALFLING] = near & ~rooms[own]
    return fits, camp


def placements(state: HeroesState, seat: int, out: list[Action] | None = None) -> list[Action]:
    """Every placement of ``seat``: by role (halfling..paladin), then target (a1..c5, camp);
    appended to ``out`` when given."""
    if out is None:
        out = []
    _placements_with_ids(state, seat, out, None)
    return out


def _placements_with_ids(
    state: HeroesState, seat: int, out: list[Action], ids: list[int] | None
) -> None:
    """``placements`` appended to ``out``, and their ids to ``ids`` unless it is None."""
    fits, camp = _fits(state, seat)
    for role in range(8):
        fit = fits[role]
        if fit >= 0:
            out += PLACE_LOW[role][fit & 255]
            out += PLACE_HIGH[role][fit >> 8]
            if ids is not None:
                ids += PLACE_LOW_IDS[role][fit & 255]
                ids += PLACE_HIGH_IDS[role][fit >> 8]
            if camp:
                out.append(PLACE[role][CAMP])
                if ids is not None:
                    ids.append(PLACE_IDS[role][CAMP])


def can_place(state: HeroesState, seat: int) -> bool:
    """Whether ``seat`` has at least one placement."""
    hand = state.hands[seat]
    if not any(hand):
        return False
    chain = connection(state, seat)
    if reaches_camp(chain, seat):
        return True
    near = connected_rooms(chain, seat)
    blocked = _blocked(state, seat)
    return any(
        n and (ALL_ROOMS if role == ROGUE else near) & ~blocked[role] for role, n in enumerate(hand)
    )


def strike_targets(state: HeroesState) -> int:
    """The rooms (mask) the pending Fighter may strike: neighbours topped by the rival."""
    return NEIGHBOURS[state.pending_room] & state.masks[1 - state.mover]


def to_move(state: HeroesState) -> int | None:
    """The seat to move; None once over."""
    return None if state.result is not None else state.mover


def legal_actions(state: HeroesState) -> list[Action]:
    """Stable order: draw, then placements; or strikes (a1..c5) then skip; or placements, skip."""
    if state.result is not None:
        return []
    seat = state.mover
    if state.pending == STRIKE_CHOICE:
        targets = strike_targets(state)
        return [*(STRIKE[r] for r in range(15) if targets >> r & 1), SKIP]
    if state.pending == RANGER_CHOICE:
        out = placements(state, seat)
        out.append(SKIP)
        return out
    return placements(state, seat, [DRAW] if draw_amount(state, seat) else [])


def ascending_ids(state: HeroesState) -> tuple[list[int], list[Action]]:
    """The ids of the legal actions in the research encoding (``PLACE_IDS`` and friends),
    ascending, and item by item the actions: ``legal_actions`` with skip first (its id is below
    the others'), found with their ids instead of looked up one by one."""
    if state.result is not None:
        return [], []
    seat = state.mover
    if state.pending == STRIKE_CHOICE:
        targets = strike_targets(state)
        struck = [r for r in range(15) if targets >> r & 1]
        return [SKIP_ID, *(STRIKE_IDS[r] for r in struck)], [SKIP, *(STRIKE[r] for r in struck)]
    if state.pending == RANGER_CHOICE:
        out, ids = [SKIP], [SKIP_ID]
    elif draw_amount(state, seat):
        out, ids = [DRAW], [DRAW_ID]
    else:
        out, ids = [], []
    _placements_with_ids(state, seat, out, ids)
    return ids, out


# ---------------------------------------------------------------------------------- effects


def _draw(state: HeroesState, seat: int, count: int, cause: str, events: Log) -> None:
    reserve = state.reserves[seat]
    drawn, state.reserves[seat] = reserve[:count], reserve[count:]
    hand = state.hands[seat]
    for role in drawn:
        hand[role] += 1
    if events is not None:
        events.append(
            Event(
                "drew",
                {"seat": seat, "count": len(drawn), "cause": cause},
                {seat: {"heroes": [ROLES[r] for r in drawn]}},
            )
        )


def _draw_one(state: HeroesState, seat: int, cause: str, events: Log) -> None:
    if sum(state.hands[seat]) < HAND_LIMIT and state.reserves[seat]:
        _draw(state, seat, 1, cause, events)


def _finish(state: HeroesState, winners: tuple[int, ...], reason: str, events: Log) -> None:
    relics = state.relics
    draw = len(winners) > 1  # equal relics: both seats share the result
    state.result = Outcome(winners, reason, draw, scores=(float(relics[0]), float(relics[1])))
    state.pending = NO_CHOICE
    if events is not None:
        data = {"reason": reason, "winners": list(winners), "draw": draw}
        events.append(Event("end", {**data, "relics": relics[:]}))


def _seal(state: HeroesState, room: int, events: Log) -> bool:
    """Seal the unsealed wards around ``room`` that its top hero's owner now tops all round.

    Only a ward around the room whose top just changed can become complete, and only for the
    owner of that room's new top, so this is the seal check for "anyone's now-top heroes".
    Returns True when the sealing wins the match.
    """
    top = state.tops[room]
    if top == EMPTY:
        return False
    seat = top >> 3
    own = state.masks[seat]
    sealed = state.sealed
    for w in WARDS_OF_ROOM[room]:
        need = WARD_MASKS[w]
        if sealed[w] < 0 and own & need == need:
            sealed[w] = seat
            state.relics[seat] += WARD_RELICS[w]
            if events is not None:
                data = {"seat": seat, "ward": WARDS[w], "relics": WARD_RELICS[w]}
                events.append(Event("sealed", {**data, "total": state.relics[seat]}))
    if state.relics[seat] >= RELICS_TO_WIN:
        _finish(state, (seat,), "relics", events)
        return True
    return False


def _end_turn(state: HeroesState, events: Log) -> None:
    state.pending = NO_CHOICE
    state.pending_room = -1
    seat = 1 - state.mover
    state.mover = seat
    if draw_amount(state, seat) or can_place(state, seat):
        return
    r0, r1 = state.relics
    winners = (0, 1) if r0 == r1 else ((0,) if r0 > r1 else (1,))
    _finish(state, winners, "stuck", events)


def _after_trick(state: HeroesState, room: int, ranger: bool, events: Log) -> None:
    """Steps 4-5: the sanctuary draw, then the Ranger's extra placement (if one is possible)."""
    seat = state.mover
    if SANCTUARIES >> room & 1:
        _draw_one(state, seat, "sanctuary", events)
    if ranger and can_place(state, seat):
        state.pending = RANGER_CHOICE
        state.pending_room = room
        if events is not None:
            events.append(Event("extra", {"seat": seat, "room": ROOMS[room]}))
        return
    _end_turn(state, events)


def _place(state: HeroesState, role: int, target: int, events: Log) -> None:
    seat = state.mover
    state.hands[seat][role] -= 1
    state.pending = NO_CHOICE
    hero = seat * 8 + role
    if target == CAMP:
        state.camp_hero = hero
        if events is not None:
            events.append(Event("placed", {"seat": seat, "role": ROLES[role], "room": "camp"}))
        _finish(state, (seat,), "camp", events)
        return
    covered = state.tops[target]
    set_top(state, target, hero)
    state.stacks[target] = (*state.stacks[target], hero)
    if events is not None:
        events.append(
            Event(
                "placed",
                {
                    "seat": seat,
                    "role": ROLES[role],
                    "room": ROOMS[target],
                    "covered": None if covered == EMPTY else hero_json(covered),
                },
            )
        )
    if _seal(state, target, events):
        return
    rival = 1 - seat
    if role == BARD:
        amount = draw_amount(state, seat)
        if amount:
            _draw(state, seat, amount, "bard", events)
    elif role == CLERIC:
        _draw_one(state, seat, "cleric", events)
    elif role == WIZARD:
        _wizard(state, rival, events)
    elif role == FIGHTER and NEIGHBOURS[target] & state.masks[rival]:
        state.pending = STRIKE_CHOICE
        state.pending_room = target
        return
    _after_trick(state, target, role == RANGER, events)


def _wizard(state: HeroesState, rival: int, events: Log) -> None:
    """Discard the hero at ``below(hand size)`` of the rival's hand sorted halfling..paladin."""
    hand = state.hands[rival]
    size = sum(hand)
    if not size:
        return
    index = state.rng.below(size)
    role = 0
    while index >= hand[role]:
        index -= hand[role]
        role += 1
    hand[role] -= 1
    state.discards[rival] = (*state.discards[rival], role)
    if events is not None:
        events.append(Event("wizard", {"seat": 1 - rival, "rival": rival, "role": ROLES[role]}))


def _strike(state: HeroesState, room: int, events: Log) -> None:
    stack = state.stacks[room]
    struck = stack[-1]
    stack = stack[:-1]
    state.stacks[room] = stack
    revealed = stack[-1] if stack else EMPTY
    set_top(state, room, revealed)
    owner = struck >> 3
    state.discards[owner] = (*state.discards[owner], struck & 7)
    if events is not None:
        events.append(
            Event(
                "struck",
                {
                    "seat": state.mover,
                    "room": ROOMS[room],
                    "hero": hero_json(struck),
                    "revealed": None if revealed == EMPTY else hero_json(revealed),
                },
            )
        )
    if _seal(state, room, events):
        return
    _after_trick(state, state.pending_room, False, events)


def apply(state: HeroesState, action: Action) -> list[Event]:
    """Apply a legal action in place and return what happened."""
    events: list[Event] = []
    play(state, action, events)
    return events


def play(state: HeroesState, action: Action, events: Log = None) -> None:
    """``apply``, with the events going to ``events`` (None: not built)."""
    kind = action[0]
    seat = state.mover
    if kind == "place":
        _place(state, action[1], action[2], events)  # type: ignore[arg-type]
    elif kind == "draw":
        _draw(state, seat, draw_amount(state, seat), "draw", events)
        _end_turn(state, events)
    elif kind == "strike":
        _strike(state, int(action[1]), events)
    else:  # skip
        if events is not None:
            events.append(Event("skip", {"seat": seat, "trick": CHOICES[state.pending]}))
        if state.pending == STRIKE_CHOICE:
            _after_trick(state, state.pending_room, False, events)
        else:
            _end_turn(state, events)


# ---------------------------------------------------------------------------- sampled worlds


def sample_world(state: HeroesState, seat: int, rng: random.Random) -> HeroesState:
    """A state ``seat`` cannot tell from ``state``: the unseen heroes of each group (Gold's
    first) pooled in sorted order, shuffled with ``rng`` and dealt by the counts (rival hand,
    then reserve, then set-aside); then a fresh stream from ``rng``."""
    world = state.clone()
    over = state.result is not None
    for group in (0, 1):
        hand = state.hands[group]
        hidden_hand = group != seat
        unseen: list[int] = []
        if hidden_hand:
            unseen += [role for role in range(8) for _ in range(hand[role])]
        unseen += state.reserves[group]
        if not over:
            unseen += state.aside[group]
        unseen.sort()
        rng.shuffle(unseen)
        taken = 0
        if hidden_hand:
            size = sum(hand)
            dealt = [0] * 8
            for role in unseen[:size]:
                dealt[role] += 1
            world.hands[group] = dealt
            taken = size
        left = len(state.reserves[group])
        world.reserves[group] = tuple(unseen[taken : taken + left])
        if not over:
            world.aside[group] = tuple(unseen[taken + left :])
    world.rng = Stream(f"{rng.getrandbits(128):032x}")
    return world
