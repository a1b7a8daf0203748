"""High Card: the position and every rule (pure; chance only from ``state.rng``).

Nine cards, 1 to 9. Each seat holds one card, face down; the rest is the draw pile. Two rounds:
on its turn a seat either stands, or draws the top card and then discards one of its two cards face
up. After four turns (seat 0, 1, 0, 1) the higher card wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Self

from ludoteca.core import Event, Outcome, State, Stream

CARDS = tuple(range(1, 10))
TURNS = 4
MAX_DECISIONS = 2 * TURNS
"""The longest match: every turn a draw and a discard."""

Log = list[Event] | None
"""Where the events of an action go; None when nobody reads them (search, playouts)."""


@dataclass(frozen=True, slots=True)
class Stand:
    pass


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class Discard:
    card: int


Action = Stand | Draw | Discard
STAND, DRAW = Stand(), Draw()


class HighCardState(State):
    __slots__ = ("discards", "hands", "pile", "turn")

    pile: list[int]  # the draw pile, top card first
    hands: list[list[int]]  # per seat, in the order the cards came
    discards: list[list[int]]  # per seat, oldest first
    turn: int  # turns finished, 0..TURNS

    def __init__(self, rng: Stream) -> None:
        self.rng = rng
        self.pile = []
        self.hands = [[], []]
        self.discards = [[], []]
        self.turn = 0

    def clone(self) -> Self:
        copy = type(self)(self.rng.clone())
        copy.pile = self.pile[:]
        copy.hands = [h[:] for h in self.hands]
        copy.discards = [d[:] for d in self.discards]
        copy.turn = self.turn
        return copy


def mover(state: HighCardState) -> int | None:
    return None if state.turn >= TURNS else state.turn % 2


def setup(rng: Stream) -> tuple[HighCardState, list[Event]]:
    """Shuffle the nine cards; seat 0 then seat 1 take the top card."""
    state = HighCardState(rng)
    state.pile = list(CARDS)
    rng.shuffle(state.pile)
    events = []
    for seat in (0, 1):
        card = state.pile.pop(0)
        state.hands[seat].append(card)
        events.append(Event("dealt", {"seat": seat}, {seat: {"card": card}}))
    return state, events


def legal_actions(state: HighCardState) -> list[Action]:
    """``stand`` then ``draw``; or, holding two cards, ``discard`` of each, lower card first."""
    seat = mover(state)
    if seat is None:
        return []
    hand = state.hands[seat]
    if len(hand) == 2:
        return [Discard(card) for card in sorted(hand)]
    return [STAND, DRAW]


def play(state: HighCardState, action: Action, events: Log = None) -> None:
    """Apply a legal action in place, the events going to ``events`` (None: not built)."""
    seat = state.turn % 2
    if isinstance(action, Draw):
        card = state.pile.pop(0)
        state.hands[seat].append(card)
        if events is not None:
            events.append(Event("drew", {"seat": seat}, {seat: {"card": card}}))
        return
    if isinstance(action, Discard):
        state.hands[seat].remove(action.card)
        state.discards[seat].append(action.card)
        if events is not None:
            events.append(Event("discarded", {"seat": seat, "card": action.card}))
    elif events is not None:
        events.append(Event("stood", {"seat": seat}))
    state.turn += 1
    if state.turn == TURNS and events is not None:
        events.append(Event("showdown", {"cards": [h[0] for h in state.hands]}))


def apply(state: HighCardState, action: Action) -> list[Event]:
    """``play``, returning what happened."""
    events: list[Event] = []
    play(state, action, events)
    return events


def outcome(state: HighCardState) -> Outcome | None:
    if state.turn < TURNS:
        return None
    cards = [h[0] for h in state.hands]
    return Outcome((cards.index(max(cards)),), "high", scores=(float(cards[0]), float(cards[1])))


def sample_world(state: HighCardState, seat: int, rng: random.Random) -> HighCardState:
    """The cards ``seat`` has not seen (the pile, and the rival's card while the match runs),
    sorted, shuffled with ``rng`` and dealt back by the counts; then a fresh stream."""
    world = state.clone()
    rival = 1 - seat
    hidden_hand = state.turn < TURNS
    unseen = sorted(state.pile + (state.hands[rival] if hidden_hand else []))
    rng.shuffle(unseen)
    if hidden_hand:
        size = len(state.hands[rival])
        world.hands[rival], unseen = unseen[:size], unseen[size:]
    world.pile = unseen
    world.rng = Stream(f"{rng.getrandbits(128):032x}")
    return world
