"""High Card notation: ``stand``, ``draw``, ``discard 7``; the position as JSON."""

from __future__ import annotations

from typing import Any

from ludoteca.core import JSON, InvalidActionError, InvalidPositionError, Stream

from .rules import CARDS, DRAW, STAND, TURNS, Action, Discard, HighCardState

EXPECTED = "expected 'stand', 'draw' or 'discard <card 1-9>'"


def action_to_text(action: Action) -> str:
    if isinstance(action, Discard):
        return f"discard {action.card}"
    return "draw" if action == DRAW else "stand"


def action_fields(action: Action) -> tuple[str, JSON]:
    """The kind and named arguments of an action, for clients: ``discard`` ``{"card": 7}``."""
    if isinstance(action, Discard):
        return "discard", {"card": action.card}
    return ("draw" if action == DRAW else "stand"), {}


def read_action(text: str) -> Action:
    """The action a text names; InvalidActionError for text that is no action of the game."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a text, not {type(text).__name__}")
    words = text.lower().split()
    if words == ["stand"]:
        action: Action = STAND
    elif words == ["draw"]:
        action = DRAW
    elif len(words) == 2 and words[0] == "discard" and words[1] in {str(c) for c in CARDS}:
        action = Discard(int(words[1]))
    else:
        raise InvalidActionError(f"'{text[:30]}' is not an action: {EXPECTED}")
    return action


def why_illegal(state: HighCardState, action: Action) -> str:
    """Why a well-formed action is not allowed now."""
    if isinstance(action, Discard):
        if len(state.hands[state.turn % 2]) < 2:
            return "draw before you discard"
        return f"you do not hold the {action.card}"
    return "discard first: you hold two cards"


def position_to_json(state: HighCardState) -> JSON:
    return {
        "game": "high-card",
        "pile": state.pile[:],
        "hands": [h[:] for h in state.hands],
        "discards": [d[:] for d in state.discards],
        "turn": state.turn,
        "rng": state.rng.to_json(),
    }


def position_from_json(data: Any) -> HighCardState:
    """Load a position; InvalidPositionError naming what is wrong."""
    if not isinstance(data, dict) or data.get("game", "high-card") != "high-card":
        raise InvalidPositionError("a high-card position is a JSON object")
    try:
        state = HighCardState(Stream.from_json(data["rng"]))
        state.pile = [int(c) for c in data["pile"]]
        state.hands = [[int(c) for c in h] for h in data["hands"]]
        state.discards = [[int(c) for c in d] for d in data["discards"]]
        state.turn = int(data["turn"])
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidPositionError(f"not a high-card position: {exc}") from None
    cards = (
        state.pile + [c for h in state.hands for c in h] + [c for d in state.discards for c in d]
    )
    if sorted(cards) != list(CARDS) or len(state.hands) != 2 or len(state.discards) != 2:
        raise InvalidPositionError("the pile, hands and discards must hold the cards 1-9 once each")
    if not 0 <= state.turn <= TURNS:
        raise InvalidPositionError(f"turn must be 0-{TURNS}")
    sizes = [len(h) for h in state.hands]
    drawn = [2, 1] if state.turn % 2 == 0 else [1, 2]
    if sizes != [1, 1] and (state.turn == TURNS or sizes != drawn):
        raise InvalidPositionError(f"hands of {sizes} cards cannot happen at turn {state.turn}")
    return state
