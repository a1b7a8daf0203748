"""Liar's Dice notation: ``bid 3 5`` (at least three fives), ``liar``; the position as JSON
(``docs/notation/liars-dice.md``)."""

from __future__ import annotations

from typing import Any

from ludoteca.core import JSON, InvalidActionError, InvalidPositionError, Stream

from .rules import (
    BIDS,
    FACES,
    LIAR,
    MAX_DICE,
    MAX_PLAYERS,
    MAX_QUANTITY,
    RESET_FACE,
    RESET_QUANTITY,
    ROUNDS,
    Action,
    Bid,
    LiarsState,
    rank,
)

EXPECTED = f"expected 'bid <quantity 1-{MAX_QUANTITY}> <face 1-6>' or 'liar'"
GAME_ID = "liars-dice"


def action_to_text(action: Action) -> str:
    if isinstance(action, Bid):
        return f"bid {action.quantity} {action.face}"
    return "liar"


def action_fields(action: Action) -> tuple[str, JSON]:
    """The kind and named arguments of an action, for clients: ``bid``
    ``{"quantity": 3, "face": 5}``, ``liar`` ``{}``."""
    if isinstance(action, Bid):
        return "bid", {"quantity": action.quantity, "face": action.face}
    return "liar", {}


def read_action(text: str) -> Action:
    """The action a text names (``bid 3 5``, ``liar``; ``challenge`` is read as ``liar``);
    InvalidActionError for text that is no action of the game."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a text, not {type(text).__name__}")
    words = text.lower().split()
    if words in (["liar"], ["challenge"]):
        return LIAR
    if len(words) == 3 and words[0] == "bid" and words[1].isdigit() and words[2].isdigit():
        q, f = int(words[1]), int(words[2])
        if 1 <= q <= MAX_QUANTITY and 1 <= f <= FACES:
            return BIDS[q][f]
    raise InvalidActionError(f"'{text[:30]}' is not an action: {EXPECTED}")


def bid_text(quantity: int, face: int) -> str:
    return f"{quantity} × {face}"


def why_illegal(state: LiarsState, action: Action) -> str:
    """Why a well-formed action is not allowed now."""
    if not isinstance(action, Bid):
        return "the round's first action must be a bid: there is nothing to challenge yet"
    if action.quantity > state.total:
        return f"only {state.total} dice are in play: bid at most {state.total}"
    if not state.bids:
        return f"'{action_to_text(action)}' is not a bid here"
    _, q, f = state.bids[-1]
    if state.rank == rank(state.total, FACES, state.total, state.reset_face):
        return f"{bid_text(q, f)} is the highest bid: it can only be challenged"
    if state.reset_face:
        rule = "a greater quantity, or the same quantity and a greater face"
    else:
        rule = "a greater face, or the same face and a greater quantity"
    return f"a bid must beat {bid_text(q, f)}: {rule}"


def position_to_json(state: LiarsState) -> JSON:
    return {
        "game": GAME_ID,
        "players": state.players,
        "dice": state.start,
        "rounds": "one" if state.one_round else "last-standing",
        "bidding": RESET_FACE if state.reset_face else RESET_QUANTITY,
        "round": state.round,
        "starter": state.starter,
        "to_move": state.mover if state.mover >= 0 else None,
        "hands": [h[:] for h in state.hands],
        "counts": state.counts[:],
        "bids": [list(b) for b in state.bids],
        "out": state.out[:],
        "loser": state.loser if state.loser >= 0 else None,
        "showdown": _showdown_json(state),
        "rng": state.rng.to_json(),
    }


def _showdown_json(state: LiarsState) -> JSON | None:
    if not state.showdown:
        return None
    rnd, challenger, bidder, q, f, count = state.showdown
    return {
        "round": rnd,
        "challenger": challenger,
        "bidder": bidder,
        "quantity": q,
        "face": f,
        "count": count,
        "hands": [h[:] for h in state.lifted],
    }


def _ints(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise InvalidPositionError(f"{what} must be a list of whole numbers")
    return list(value)


def _seat(value: Any, players: int, what: str, none: bool = False) -> int:
    if value is None and none:
        return -1
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise InvalidPositionError(f"{what} must be a seat 0-{players - 1}")
    return value


def position_from_json(data: Any) -> LiarsState:
    """Load a position; InvalidPositionError naming what is wrong."""
    if not isinstance(data, dict) or data.get("game", GAME_ID) != GAME_ID:
        raise InvalidPositionError("a liars-dice position is a JSON object")
    try:
        players, dice = data["players"], data["dice"]
        rounds, bidding = data["rounds"], data["bidding"]
        if players not in range(2, MAX_PLAYERS + 1) or isinstance(players, bool):
            raise InvalidPositionError(f"players must be 2-{MAX_PLAYERS}")
        if dice not in range(1, MAX_DICE + 1) or isinstance(dice, bool):
            raise InvalidPositionError(f"dice must be 1-{MAX_DICE}")
        if rounds not in ROUNDS or bidding not in (RESET_FACE, RESET_QUANTITY):
            raise InvalidPositionError("rounds or bidding is not one of the table's options")
        state = LiarsState.empty(players, dice, rounds == "one", bidding == RESET_FACE)
        state.rng = Stream.from_json(data["rng"])
        state.counts = _ints(data["counts"], "counts")
        if len(state.counts) != players or not all(0 <= c <= dice for c in state.counts):
            raise InvalidPositionError(f"counts must give 0-{dice} dice for each of {players}")
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != players:
            raise InvalidPositionError(f"hands must hold {players} cups")
        state.hands = [_ints(h, "a hand") for h in hands]
        if any(not 1 <= d <= FACES for h in state.hands for d in h):
            raise InvalidPositionError("a die shows 1-6")
        state.total = sum(state.counts)
        state.round = int(data["round"])
        state.starter = _seat(data["starter"], players, "starter")
        state.mover = _seat(data["to_move"], players, "to_move", none=True)
        state.out = [_seat(s, players, "out") for s in data["out"]]
        state.loser = _seat(data["loser"], players, "loser", none=True)
        state.bids = []
        for row in data["bids"]:
            seat, q, f = _ints(row, "a bid")
            state.bids.append((_seat(seat, players, "a bidder"), q, f))
        _load_showdown(state, data["showdown"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidPositionError(f"not a liars-dice position: {exc}") from None
    _check(state)
    return state


def _load_showdown(state: LiarsState, shown: Any) -> None:
    if shown is None:
        return
    if not isinstance(shown, dict):
        raise InvalidPositionError("showdown must be an object or null")
    keys = ("round", "challenger", "bidder", "quantity", "face", "count")
    state.showdown = _ints([shown[k] for k in keys], "showdown")
    lifted = shown["hands"]
    if not isinstance(lifted, list) or len(lifted) != state.players:
        raise InvalidPositionError(f"showdown.hands must hold {state.players} cups")
    state.lifted = [_ints(h, "a lifted cup") for h in lifted]


def _check(state: LiarsState) -> None:
    """What every reachable position keeps: cups as large as the counts, bids rising."""
    live = state.mover >= 0
    if live and any(len(h) != c for h, c in zip(state.hands, state.counts, strict=True)):
        raise InvalidPositionError("each cup must hold as many dice as its count")
    if sorted(state.out) != sorted(s for s, c in enumerate(state.counts) if c == 0):
        raise InvalidPositionError("out must name exactly the seats without dice")
    if state.round < 1:
        raise InvalidPositionError("round starts at 1")
    last = -1
    for _, q, f in state.bids if live else ():  # the last round's bids once the match is over
        if not (1 <= q <= state.total and 1 <= f <= FACES):
            raise InvalidPositionError(f"bid {q} {f} is not a bid with {state.total} dice")
        r = rank(q, f, state.total, state.reset_face)
        if r <= last:
            raise InvalidPositionError("each bid must be higher than the last")
        last = r
    state.rank = last
    if live and state.counts[state.mover] == 0:
        raise InvalidPositionError("the seat to move has no dice")
