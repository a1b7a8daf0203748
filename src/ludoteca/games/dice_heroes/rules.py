"""Dice Heroes rules: the position and the turn.

Everything automatic happens inside ``setup`` and ``apply_unchecked``: the opening roll-off, the
capture check, the first roll of a turn, and the actions after the last roll. The only choices are
the seat to move's: which dice to re-roll, or stop. Random draws, in order, are documented in
``docs/notation/dice-heroes.md``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from itertools import combinations

from ludoteca.core import Event, Outcome, State, Stream

from .dice import COIN, COLOURS, FACE_NAMES, GROWS, ROLL, SIDES, SWORDS, WHITE, X

Action = tuple[int, ...]
"""The numbers of the dice to re-roll, ascending; the empty tuple is ``stop``."""

STOP: Action = ()
ROLLS = 3
PER_COLOUR = 3
HUES = len(COLOURS)
HEROES = ("bears", "falcons", "otters", "ibexes")


def poster_stack(players: int) -> tuple[int, ...]:
    """The wanted posters, top first (two 10s fewer with two players)."""
    tens = 3 if players == 2 else 5
    return (5, *[10] * tens, 15)


class DiceState(State):
    """A position. Dice counts are per seat and colour, at index ``seat * 3 + colour``.

    ``laid`` are the holder's dice at the posters as ``(colour, face)``; ``marker`` says the
    holder's duel marker lies there too (2 players). ``colours``/``faces`` are the roll of the seat
    to move; a face ``X`` is a die sent back to the tableau (locked). ``seat`` is -1 once over.
    """

    __slots__ = (
        "coins",
        "colours",
        "faces",
        "holder",
        "laid",
        "marker",
        "players",
        "posters",
        "roll",
        "seat",
        "tableau",
        "taken",
        "troop",
    )

    def __init__(self, players: int, rng: Stream) -> None:
        self.rng = rng
        self.players = players
        self.troop = [PER_COLOUR if c == WHITE else 0 for c in range(HUES)] * players
        self.tableau = [0 if c == WHITE else PER_COLOUR for c in range(HUES)] * players
        self.coins = [0] * players
        self.taken: list[tuple[int, ...]] = [()] * players
        self.posters = poster_stack(players)
        self.holder = -1
        self.laid: tuple[tuple[int, int], ...] = ()
        self.marker = False
        self.seat = -1
        self.roll = 0
        self.colours: tuple[int, ...] = ()
        self.faces: list[int] = []

    def clone(self) -> DiceState:
        copy = DiceState.__new__(DiceState)
        copy.rng = self.rng.clone()
        copy.players = self.players
        copy.troop = self.troop[:]
        copy.tableau = self.tableau[:]
        copy.coins = self.coins[:]
        copy.taken = self.taken[:]
        copy.posters = self.posters
        copy.holder = self.holder
        copy.laid = self.laid
        copy.marker = self.marker
        copy.seat = self.seat
        copy.roll = self.roll
        copy.colours = self.colours
        copy.faces = self.faces[:]
        return copy


# --------------------------------------------------------------------------------- queries
def rerollable(state: DiceState) -> int:
    """Bit ``i`` set when die ``i + 1`` of the roll may be re-rolled (it does not show X)."""
    mask = 0
    for i, face in enumerate(state.faces):
        if face != X:
            mask |= 1 << i
    return mask


def lying_swords(state: DiceState) -> int:
    """Swords on the dice at the posters (the duel marker counts 0)."""
    return sum(SWORDS[face] for _, face in state.laid)


def to_beat(state: DiceState) -> int:
    """The swords the seat to move must exceed to lay its dice (0 beside its own marker)."""
    return 0 if state.holder == state.seat else lying_swords(state)


def scores(state: DiceState) -> list[int]:
    """Coins plus the values of the posters taken, per seat."""
    return [state.coins[s] + sum(state.taken[s]) for s in range(state.players)]


def leaders(final: list[int]) -> list[int]:
    """The seats with the highest score (several share the win)."""
    best = max(final)
    return [seat for seat, score in enumerate(final) if score == best]


@cache
def _choices(mask: int) -> tuple[Action, ...]:
    """``stop``, then every non-empty subset of the dice in ``mask`` by size, then by numbers."""
    numbers = [i + 1 for i in range(mask.bit_length()) if mask >> i & 1]
    actions = [STOP]
    for size in range(1, len(numbers) + 1):
        actions.extend(combinations(numbers, size))
    return tuple(actions)


# ----------------------------------------------------------------------------- the turn
def _roll_dice(state: DiceState, numbers: Iterable[int], events: list[Event]) -> None:
    """Roll the given dice in ascending order; an X sends its die back to the tableau at once."""
    seat, base = state.seat, state.seat * HUES
    shown = []
    back = []
    for n in numbers:
        colour = state.colours[n - 1]
        face = ROLL[colour][state.rng.below(SIDES)]
        state.faces[n - 1] = face
        shown.append({"die": n, "colour": COLOURS[colour], "face": FACE_NAMES[face]})
        if face == X:
            state.troop[base + colour] -= 1
            state.tableau[base + colour] += 1
            back.append(Event("sent_back", {"seat": seat, "die": n, "colour": COLOURS[colour]}))
    events.append(Event("roll", {"seat": seat, "roll": state.roll, "dice": shown}))
    events.extend(back)


def _return_laid(state: DiceState) -> int:
    """The holder's dice at the posters go back to its troop; returns how many."""
    base = state.holder * HUES
    for colour, _ in state.laid:
        state.troop[base + colour] += 1
    count = len(state.laid)
    state.laid = ()
    return count


def _start_turn(state: DiceState, seat: int, events: list[Event]) -> None:
    """Capture check (or the duel marker), then the first roll of all troop dice."""
    state.seat = seat
    if state.holder == seat:
        back = _return_laid(state)
        if state.players == 2 and not state.marker:
            state.marker = True
            events.append(Event("marker", {"seat": seat, "dice_back": back}))
        else:
            poster, state.posters = state.posters[0], state.posters[1:]
            state.taken[seat] += (poster,)
            state.holder, state.marker = -1, False
            events.append(
                Event(
                    "capture",
                    {"seat": seat, "poster": poster, "dice_back": back, "left": len(state.posters)},
                )
            )
            if not state.posters:
                _finish(state, events)
                return
    base = seat * HUES
    state.colours = tuple(c for c in range(HUES) for _ in range(state.troop[base + c]))
    state.faces = [X] * len(state.colours)
    state.roll = 1
    _roll_dice(state, range(1, len(state.colours) + 1), events)


def _resolve(state: DiceState, events: list[Event]) -> None:
    """The actions from the final faces: hunt, coins, troop growth."""
    seat, base = state.seat, state.seat * HUES
    swords = coins = 0
    growth = [0] * HUES
    sword_dice = []
    for colour, face in zip(state.colours, state.faces, strict=True):
        if SWORDS[face]:
            swords += SWORDS[face]
            sword_dice.append((colour, face))
        elif face == COIN:
            coins += 1
        elif GROWS[face] >= 0:
            growth[GROWS[face]] += 1
    if swords:
        beside_marker = state.holder == seat
        lying = to_beat(state)
        success = beside_marker or swords > lying
        previous = state.holder
        if success:
            if previous >= 0 and not beside_marker:
                _return_laid(state)
                state.marker = False
            for colour, _ in sword_dice:
                state.troop[base + colour] -= 1
            state.holder, state.laid = seat, tuple(sword_dice)
        events.append(
            Event(
                "hunt",
                {
                    "seat": seat,
                    "swords": swords,
                    "to_beat": lying,
                    "success": success,
                    "previous": previous if previous >= 0 and previous != seat else None,
                    "beside_marker": beside_marker,
                },
            )
        )
    if coins:
        gain = coins if swords else 2 * coins
        state.coins[seat] += gain
        events.append(Event("coins", {"seat": seat, "coins": gain, "big_treasure": not swords}))
    grown = {}
    for colour, count in enumerate(growth):
        moved = min(count, state.tableau[base + colour])
        if moved:
            state.tableau[base + colour] -= moved
            state.troop[base + colour] += moved
            grown[COLOURS[colour]] = moved
    if grown:
        events.append(Event("growth", {"seat": seat, "dice": grown}))


def _finish(state: DiceState, events: list[Event]) -> None:
    state.seat, state.roll, state.colours, state.faces = -1, 0, (), []
    final = scores(state)
    events.append(Event("end", {"scores": final, "winners": leaders(final)}))


def _settle(state: DiceState, events: list[Event]) -> None:
    """End turns (and start the next ones) until the seat to move has a choice."""
    while state.seat >= 0 and (state.roll >= ROLLS or not rerollable(state)):
        _resolve(state, events)
        _start_turn(state, (state.seat + 1) % state.players, events)


def _rolloff(state: DiceState, events: list[Event]) -> None:
    """Everyone rolls 3 white dice; the tied for the most swords roll again until one leads."""
    contenders = list(range(state.players))
    round_ = 1
    while True:
        results = []
        for seat in contenders:
            faces = [ROLL[WHITE][state.rng.below(SIDES)] for _ in range(PER_COLOUR)]
            swords = sum(SWORDS[f] for f in faces)
            results.append((seat, faces, swords))
            events.append(
                Event(
                    "rolloff",
                    {
                        "round": round_,
                        "seat": seat,
                        "faces": [FACE_NAMES[f] for f in faces],
                        "swords": swords,
                    },
                )
            )
        best = max(swords for _, _, swords in results)
        contenders = [seat for seat, _, swords in results if swords == best]
        if len(contenders) == 1:
            break
        round_ += 1
    seat, faces, swords = next(r for r in results if r[0] == contenders[0])
    state.laid = tuple((WHITE, f) for f in faces if SWORDS[f])
    state.troop[seat * HUES + WHITE] -= len(state.laid)
    state.holder = seat
    events.append(Event("opening", {"seat": seat, "swords": swords}))


# ----------------------------------------------------------------------------- the rules
def setup(players: int, rng: Stream) -> tuple[DiceState, list[Event]]:
    """The roll-off for the posters, then the first roll of the seat after the holder."""
    state = DiceState(players, rng)
    events: list[Event] = []
    _rolloff(state, events)
    _start_turn(state, (state.holder + 1) % state.players, events)
    _settle(state, events)
    return state, events


def legal_actions(state: DiceState) -> list[Action]:
    if state.seat < 0:
        return []
    return list(_choices(rerollable(state)))


def apply(state: DiceState, action: Action) -> list[Event]:
    """Apply a legal action in place: re-roll the named dice, or stop and end the turn."""
    events: list[Event] = []
    if action:
        state.roll += 1
        _roll_dice(state, action, events)
    else:
        _resolve(state, events)
        _start_turn(state, (state.seat + 1) % state.players, events)
    _settle(state, events)
    return events


def outcome(state: DiceState) -> Outcome | None:
    if state.posters:
        return None
    final = scores(state)
    winners = tuple(leaders(final))  # several: they share the win
    return Outcome(winners, "score", len(winners) > 1, tuple(final))


def sample_world(state: DiceState, seat: int, rng: random.Random) -> DiceState:
    """Nothing is hidden but the future: the same position with a fresh stream from ``rng``."""
    world = state.clone()
    world.rng = Stream(f"{rng.getrandbits(128):032x}")
    return world
