"""High Card: what a seat sees. Its own hand, every discard, how many cards are where; both hands
once the match is over."""

from __future__ import annotations

from ludoteca.core import JSON

from .rules import HighCardState, mover


def observation(state: HighCardState, seat: int | None) -> JSON:
    over = mover(state) is None
    return {
        "to_move": mover(state),
        "turn": state.turn,
        "hand": None if seat is None else state.hands[seat][:],
        "hand_counts": [len(h) for h in state.hands],
        "pile": len(state.pile),
        "discards": [d[:] for d in state.discards],
        "revealed": [h[:] for h in state.hands] if over else None,
    }
