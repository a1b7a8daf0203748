"""Liar's Dice: the position and every rule (pure; chance only from ``state.rng``).

Every player hides their dice under a cup; in seat order each either bids that at least ``q`` of
all the dice in play show face ``f`` (sixes are wild for the faces 1-5), higher than the last bid,
or challenges it. A challenge lifts the cups: the bidder loses when fewer dice match, else the
challenger. With ``rounds: one`` that ends the match; with ``last-standing`` the loser loses a
die and a new round starts, until one player has dice. The specification is
``docs/notation/liars-dice.md`` (and the rules pages of this package).

The order of the draws: the first round's starter (one draw among the seats), then at the start
of every round each player still in, in seat order, rolls their dice one by one (one draw of 1-6
per die).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ludoteca.core import Event, Outcome, State, Stream

FACES = 6
WILD = 6
MAX_DICE = 5
MAX_PLAYERS = 6
MAX_QUANTITY = MAX_DICE * MAX_PLAYERS
RESET_FACE = "reset-face"
RESET_QUANTITY = "reset-quantity"
BIDDING = (RESET_FACE, RESET_QUANTITY)
LAST_STANDING = "last-standing"
ONE = "one"
ROUNDS = (LAST_STANDING, ONE)

Log = list[Event] | None
"""Where the events of an action go; None when nobody reads them (search, playouts)."""


@dataclass(frozen=True, slots=True)
class Bid:
    """At least ``quantity`` of the dice in play show ``face`` (sixes count for faces 1-5)."""

    quantity: int
    face: int


@dataclass(frozen=True, slots=True)
class Liar:
    """Challenge the last bid."""


Action = Bid | Liar
LIAR = Liar()
BIDS = [[Bid(q, f) for f in range(FACES + 1)] for q in range(MAX_QUANTITY + 1)]
"""``BIDS[q][f]``: one object per bid (index 0 unused), so legal lists share them."""


def rank(quantity: int, face: int, total: int, reset_face: bool) -> int:
    """A bid's place in the order of bids of a round with ``total`` dice in play: with
    ``reset-face`` by quantity then face, with ``reset-quantity`` by face then quantity (the id
    of the bid in OpenSpiel's ``liars_dice``)."""
    if reset_face:
        return (quantity - 1) * FACES + face - 1
    return (face - 1) * total + quantity - 1


def _order(total: int, reset_face: bool) -> tuple[Bid, ...]:
    bids = [BIDS[q][f] for q in range(1, total + 1) for f in range(1, FACES + 1)]
    return tuple(sorted(bids, key=lambda b: rank(b.quantity, b.face, total, reset_face)))


ORDERS = {
    (total, reset_face): _order(total, reset_face)
    for total in range(1, MAX_QUANTITY + 1)
    for reset_face in (True, False)
}
"""Every bid of a round with ``total`` dice, lowest first, per bidding rule."""


def max_decisions(players: int, dice: int = MAX_DICE) -> int:
    """The longest match: a round with ``n`` dice in play has at most ``6n`` bids and a
    challenge, and every round but the last takes a die away, from ``players * dice`` dice in
    play down to two (a round needs two players, each with a die)."""
    return sum(FACES * n + 1 for n in range(2, players * dice + 1))


class LiarsState(State):
    __slots__ = (
        "bids",
        "counts",
        "hands",
        "lifted",
        "loser",
        "mover",
        "one_round",
        "out",
        "players",
        "rank",
        "reset_face",
        "round",
        "showdown",
        "start",
        "starter",
        "total",
    )

    players: int
    start: int  # dice per player at the start
    one_round: bool  # rounds: one
    reset_face: bool  # bidding: reset-face (else reset-quantity)
    counts: list[int]  # dice per seat
    hands: list[list[int]]  # per seat, the faces under its cup, in the order rolled
    bids: list[tuple[int, int, int]]  # the round's bids: (seat, quantity, face)
    rank: int  # the last bid's rank (``rank``), -1 before the round's first bid
    total: int  # dice in play
    mover: int  # the seat to move, -1 once the match is over
    starter: int  # the round's starter
    round: int  # 1, 2, ...
    out: list[int]  # seats without dice, in the order they went out
    loser: int  # the last challenge's loser, -1 before any
    showdown: list[int]  # the last challenge: round, challenger, bidder, quantity, face, count
    lifted: list[list[int]]  # the cups lifted at the last challenge

    @staticmethod
    def empty(players: int, start: int, one_round: bool, reset_face: bool) -> LiarsState:
        """A blank position (no ``__init__``: the compiled class is made by ``__new__``)."""
        state = LiarsState.__new__(LiarsState)
        state.players = players
        state.start = start
        state.one_round = one_round
        state.reset_face = reset_face
        state.counts = [start] * players
        state.hands = [[] for _ in range(players)]
        state.bids = []
        state.rank = -1
        state.total = start * players
        state.mover = -1
        state.starter = 0
        state.round = 0
        state.out = []
        state.loser = -1
        state.showdown = []
        state.lifted = []
        return state

    def clone(self) -> LiarsState:
        copy = LiarsState.__new__(LiarsState)
        copy.rng = self.rng.clone()
        copy.players = self.players
        copy.start = self.start
        copy.one_round = self.one_round
        copy.reset_face = self.reset_face
        copy.counts = self.counts[:]
        copy.hands = [h[:] for h in self.hands]
        copy.bids = self.bids[:]
        copy.rank = self.rank
        copy.total = self.total
        copy.mover = self.mover
        copy.starter = self.starter
        copy.round = self.round
        copy.out = self.out[:]
        copy.loser = self.loser
        copy.showdown = self.showdown[:]
        copy.lifted = [h[:] for h in self.lifted]
        return copy


def to_move(state: LiarsState) -> int | None:
    return None if state.mover < 0 else state.mover


def setup(
    players: int, dice: int, rounds: str, bidding: str, rng: Stream, *, events: Log
) -> LiarsState:
    """Draw the first round's starter among the seats, then roll every cup."""
    state = LiarsState.empty(players, dice, rounds == ONE, bidding == RESET_FACE)
    state.rng = rng
    state.starter = rng.below(players)
    if events is not None:
        events.append(Event("starter", {"seat": state.starter}))
    _new_round(state, events)
    return state


def _new_round(state: LiarsState, events: Log) -> None:
    """Every player still in rolls their dice, in seat order; the starter bids first."""
    rng = state.rng
    state.round += 1
    state.bids = []
    state.rank = -1
    state.mover = state.starter
    for seat in range(state.players):
        state.hands[seat] = [rng.below(FACES) + 1 for _ in range(state.counts[seat])]
    if events is not None:
        secret = {s: {"dice": sorted(h)} for s, h in enumerate(state.hands) if h}
        data = {"round": state.round, "starter": state.starter, "counts": state.counts[:]}
        events.append(Event("rolled", data, secret))


def legal_actions(state: LiarsState) -> list[Action]:
    """Every bid higher than the last, lowest first under the table's bidding rule, then
    ``liar`` once the round has a bid; [] once the match is over."""
    if state.mover < 0:
        return []
    actions: list[Action] = list(ORDERS[state.total, state.reset_face][state.rank + 1 :])
    if state.rank >= 0:
        actions.append(LIAR)
    return actions


def matching(hands: list[list[int]], face: int) -> int:
    """How many dice count for ``face``: those showing it, and the sixes when it is not 6."""
    if face == WILD:
        return sum(h.count(WILD) for h in hands)
    return sum(h.count(face) + h.count(WILD) for h in hands)


def _next_in(state: LiarsState, seat: int) -> int:
    """The first seat after ``seat`` (in seat order, wrapping) that still has dice."""
    players = state.players
    seat = (seat + 1) % players
    while state.counts[seat] == 0:
        seat = (seat + 1) % players
    return seat


def play(state: LiarsState, action: Action, events: Log = None) -> None:
    """Apply a legal action in place, the events going to ``events`` (None: not built)."""
    seat = state.mover
    if isinstance(action, Bid):
        q, f = action.quantity, action.face
        state.bids.append((seat, q, f))
        state.rank = rank(q, f, state.total, state.reset_face)
        state.mover = _next_in(state, seat)
        if events is not None:
            events.append(Event("bid", {"seat": seat, "quantity": q, "face": f}))
        return
    bidder, q, f = state.bids[-1]
    count = matching(state.hands, f)
    loser = seat if count >= q else bidder
    state.loser = loser
    state.showdown = [state.round, seat, bidder, q, f, count]
    state.lifted = [h[:] for h in state.hands]
    if state.one_round:
        state.mover = -1
    else:
        state.counts[loser] -= 1
        state.total -= 1
        if state.counts[loser] == 0:
            state.out.append(loser)
    if events is not None:
        data = {
            "seat": seat,
            "bidder": bidder,
            "quantity": q,
            "face": f,
            "count": count,
            "loser": loser,
            "hands": [sorted(h) for h in state.hands],
            "lost_die": not state.one_round,
            "out": state.counts[loser] == 0,
        }
        events.append(Event("challenge", data))
    if state.one_round:
        return
    if len(state.out) == state.players - 1:
        state.mover = -1
        return
    state.starter = loser if state.counts[loser] > 0 else _next_in(state, loser)
    _new_round(state, events)


def apply(state: LiarsState, action: Action) -> list[Event]:
    """``play``, returning what happened."""
    events: list[Event] = []
    play(state, action, events)
    return events


def places(state: LiarsState) -> list[int]:
    """Per seat, how many players it outlasted (the winner ``players - 1``, the first out 0)."""
    score = [state.players - 1] * state.players
    for place, seat in enumerate(state.out):
        score[seat] = place
    return score


def outcome(state: LiarsState) -> Outcome | None:
    if state.mover >= 0:
        return None
    if state.one_round:
        winners = tuple(s for s in range(state.players) if s != state.loser)
        return Outcome(winners, "challenge", len(winners) > 1)
    winner = next(s for s in range(state.players) if state.counts[s] > 0)
    return Outcome((winner,), "last-standing", scores=tuple(float(p) for p in places(state)))


def sample_world(state: LiarsState, seat: int, rng: random.Random) -> LiarsState:
    """Every other player's cup rolled again with ``rng`` (the seat has seen none of those dice
    this round), its own dice kept; then a fresh stream."""
    world = state.clone()
    if state.mover >= 0:
        for other in range(state.players):
            if other != seat:
                world.hands[other] = [rng.randint(1, FACES) for _ in range(state.counts[other])]
    world.rng = Stream(f"{rng.getrandbits(128):032x}")
    return world
