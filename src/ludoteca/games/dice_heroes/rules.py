"""Dice Heroes rules: the position and the turn.

Everything automatic happens inside ``setup`` and ``apply_unchecked``: the opening roll-off, the
capture check, the first roll of a turn, and the actions after the last roll. The only choices are
the seat to move's: which dice to re-roll, or stop. Random draws, in order, are documented in
``docs/notation/dice-heroes.md``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from ludoteca.core import Event, Outcome, State, Stream

from .dice import COIN, COLOURS, FACE_NAMES, GROWS, ROLL, SIDES, SWORDS, WHITE, X

Action = tuple[int, ...]
"""The numbers of the dice to re-roll, ascending; the empty tuple is ``stop``."""

STOP: Action = ()
ROLLS = 3
MAX_DECISIONS = 1000
"""Dice Heroes has no bound in its rules (a hunt can always be beaten back); OpenSpiel needs one.
The longest of 1,000 random matches is 150 decisions at 2 players, 78 at 3 and 109 at 4
(``python bench/game_lengths.py``): 1,000 leaves a wide margin, as OpenSpiel's backgammon does."""
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
        "rolling",
        "seat",
        "tableau",
        "taken",
        "troop",
    )

    players: int
    troop: list[int]
    tableau: list[int]
    coins: list[int]
    taken: list[tuple[int, ...]]
    posters: tuple[int, ...]
    holder: int
    laid: tuple[tuple[int, int], ...]
    marker: bool
    seat: int
    roll: int
    colours: tuple[int, ...]
    faces: list[int]
    rolling: Sequence[int]
    """Only while a draw has stopped an action mid-roll: the dice still to roll."""

    @staticmethod
    def empty(players: int, rng: Stream) -> DiceState:
        """The table before the roll-off (no ``__init__``: see ``DwarvesState.empty``)."""
        state = DiceState.__new__(DiceState)
        state.rng = rng
        state.players = players
        state.troop = [PER_COLOUR if c == WHITE else 0 for c in range(HUES)] * players
        state.tableau = [0 if c == WHITE else PER_COLOUR for c in range(HUES)] * players
        state.coins = [0] * players
        state.taken = [()] * players
        state.posters = poster_stack(players)
        state.holder = -1
        state.laid = ()
        state.marker = False
        state.seat = -1
        state.roll = 0
        state.colours = ()
        state.faces = []
        state.rolling = ()
        return state

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
        copy.rolling = self.rolling
        return copy


# --------------------------------------------------------------------------------- queries
def rerollable(state: DiceState) -> int:
    """Bit ``i`` set when die ``i + 1`` of the roll may be re-rolled (it does not show X)."""
    faces = state.faces
    if X not in faces:
        return (1 << len(faces)) - 1
    mask = 0
    for i, face in enumerate(faces):
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
Log = list[Event] | None
"""Where the events of an action go; None when nobody reads them (search, playouts): the match is
the same, bit for bit, only the events are not built."""


def _roll_dice(state: DiceState, numbers: Sequence[int], events: Log) -> None:
    """Roll the given dice in ascending order; an X sends its die back to the tableau at once."""
    seat, base = state.seat, state.seat * HUES
    below, colours, faces = state.rng.below, state.colours, state.faces
    sent = n = 0
    try:
        for n in numbers:
            colour = colours[n - 1]
            face = ROLL[colour][below(SIDES)]
            faces[n - 1] = face
            if face == X:
                state.troop[base + colour] -= 1
                state.tableau[base + colour] += 1
                sent += 1
    except BaseException:  # the stream stopped the action (explicit chance): see ``resume``
        state.rolling = tuple(numbers[numbers.index(n) :])  # die ``n`` was being rolled
        raise
    if events is None:
        return
    shown = [
        {"die": n, "colour": COLOURS[colours[n - 1]], "face": FACE_NAMES[faces[n - 1]]}
        for n in numbers
    ]
    events.append(Event("roll", {"seat": seat, "roll": state.roll, "dice": shown}))
    if sent:
        events.extend(
            Event("sent_back", {"seat": seat, "die": n, "colour": COLOURS[colours[n - 1]]})
            for n in numbers
            if faces[n - 1] == X
        )


def _return_laid(state: DiceState) -> int:
    """The holder's dice at the posters go back to its troop; returns how many."""
    base = state.holder * HUES
    for colour, _ in state.laid:
        state.troop[base + colour] += 1
    count = len(state.laid)
    state.laid = ()
    return count


def _start_turn(state: DiceState, seat: int, events: Log) -> None:
    """Capture check (or the duel marker), then the first roll of all troop dice."""
    state.seat = seat
    if state.holder == seat:
        back = _return_laid(state)
        if state.players == 2 and not state.marker:
            state.marker = True
            if events is not None:
                events.append(Event("marker", {"seat": seat, "dice_back": back}))
        else:
            poster, state.posters = state.posters[0], state.posters[1:]
            state.taken[seat] += (poster,)
            state.holder, state.marker = -1, False
            if events is not None:
                events.append(
                    Event(
                        "capture",
                        {
                            "seat": seat,
                            "poster": poster,
                            "dice_back": back,
                            "left": len(state.posters),
                        },
                    )
                )
            if not state.posters:
                _finish(state, events)
                return
    base = seat * HUES
    troop = state.troop
    state.colours = colours = _LINEUPS[troop[base], troop[base + 1], troop[base + 2]]
    state.faces = [X] * len(colours)
    state.roll = 1
    _roll_dice(state, range(1, len(colours) + 1), events)


_LINEUPS = {
    (w, y, r): (WHITE,) * w + (WHITE + 1,) * y + (WHITE + 2,) * r
    for w in range(PER_COLOUR + 1)
    for y in range(PER_COLOUR + 1)
    for r in range(PER_COLOUR + 1)
}
"""The colours of a troop's dice in rolling order (white, yellow, red), by count per colour."""


def _resolve(state: DiceState, events: Log) -> None:
    """The actions from the final faces: hunt, coins, troop growth."""
    seat, base = state.seat, state.seat * HUES
    swords = coins = 0
    growth = [0] * HUES
    sword_dice = []
    for colour, face in zip(state.colours, state.faces, strict=False):  # same length
        sword = SWORDS[face]
        if sword:
            swords += sword
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
        if events is not None:
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
        if events is not None:
            events.append(Event("coins", {"seat": seat, "coins": gain, "big_treasure": not swords}))
    tableau, troop = state.tableau, state.troop
    grown = {}
    for colour in range(HUES):
        count = growth[colour]
        if count:
            moved = min(count, tableau[base + colour])
            if moved:
                tableau[base + colour] -= moved
                troop[base + colour] += moved
                grown[COLOURS[colour]] = moved
    if grown and events is not None:
        events.append(Event("growth", {"seat": seat, "dice": grown}))


def _finish(state: DiceState, events: Log) -> None:
    state.seat, state.roll, state.colours, state.faces = -1, 0, (), []
    if events is not None:
        final = scores(state)
        events.append(Event("end", {"scores": final, "winners": leaders(final)}))


def _settle(state: DiceState, events: Log) -> None:
    """End turns (and start the next ones) until the seat to move has a choice."""
    while state.seat >= 0 and (state.roll >= ROLLS or not rerollable(state)):
        _resolve(state, events)
        _start_turn(state, (state.seat + 1) % state.players, events)


def _rolloff(state: DiceState, events: Log) -> None:
    """Everyone rolls 3 white dice; the tied for the most swords roll again until one leads."""
    contenders = list(range(state.players))
    round_ = 1
    while True:
        results = []
        for seat in contenders:
            faces = [ROLL[WHITE][state.rng.below(SIDES)] for _ in range(PER_COLOUR)]
            swords = sum(SWORDS[f] for f in faces)
            results.append((seat, faces, swords))
            if events is not None:
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
    if events is not None:
        events.append(Event("opening", {"seat": seat, "swords": swords}))


# ----------------------------------------------------------------------------- the rules
def setup(players: int, rng: Stream, events: Log) -> DiceState:
    """The roll-off for the posters, then the first roll of the seat after the holder (the
    events to ``events``, None: not built)."""
    state = DiceState.empty(players, rng)
    _rolloff(state, events)
    _start_turn(state, (state.holder + 1) % state.players, events)
    _settle(state, events)
    return state


def to_move(state: DiceState) -> int | None:
    """The seat to move; None once over."""
    return state.seat if state.seat >= 0 else None


def legal_actions(state: DiceState) -> list[Action]:
    if state.seat < 0:
        return []
    faces = state.faces
    if X not in faces:  # every die may be re-rolled (``rerollable``, the usual case)
        return list(_choices((1 << len(faces)) - 1))
    return list(_choices(rerollable(state)))


def apply(state: DiceState, action: Action) -> list[Event]:
    """Apply a legal action in place: re-roll the named dice, or stop and end the turn."""
    events: list[Event] = []
    play(state, action, events)
    return events


def play(state: DiceState, action: Action, events: Log = None) -> None:
    """``apply``, with the events going to ``events`` (None: not built)."""
    if action:
        state.roll += 1
        _roll_dice(state, action, events)
        if state.roll < ROLLS and X not in state.faces:
            return  # the seat still has a choice (``_settle`` would do nothing)
    else:
        _resolve(state, events)
        _start_turn(state, (state.seat + 1) % state.players, events)
    _settle(state, events)


def resume(state: DiceState) -> None:
    """Go on with an action that the stream stopped in the middle of a roll (a draw that raised,
    as an explicit-chance stream does when it needs an outcome): roll the dice still to roll,
    then play on to the next choice, exactly as the action would have. Every draw of a turn is a
    die of such a roll, so this is where any action stops. Its events are not built."""
    numbers, state.rolling = state.rolling, ()
    _roll_dice(state, numbers, None)
    _settle(state, None)


def dice_to_roll(state: DiceState) -> list[tuple[int, ...]]:
    """The dice a stopped roll still rolls (``resume``), in draw order, each as ``ROLL`` of its
    colour: the face per draw value. Dice of one colour are interchangeable (nothing in the rules
    tells two white dice apart but their numbers) and stand together, white, yellow, red."""
    colours = state.colours
    return [ROLL[colours[n - 1]] for n in state.rolling]


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
