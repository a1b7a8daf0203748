"""Liar's Dice: what a seat sees. Its own dice, how many dice every player has, every bid of the
round, and the cups lifted at the last challenge; never another player's dice during a round."""

from __future__ import annotations

from ludoteca.core import JSON

from .notation import position_to_json
from .rules import LiarsState


def observation(state: LiarsState, seat: int | None) -> JSON:
    """The table as ``seat`` sees it (None: a spectator, who sees no cup until it is lifted)."""
    live = state.mover >= 0
    position = position_to_json(state)
    showdown = position["showdown"]
    if showdown is not None:
        showdown["hands"] = [sorted(h) for h in showdown["hands"]]
        showdown["loser"] = state.loser
        showdown["lost_die"] = not state.one_round
    return {
        "players": state.players,
        "dice": state.start,
        "rounds": position["rounds"],
        "bidding": position["bidding"],
        "round": state.round,
        "starter": state.starter,
        "to_move": position["to_move"],
        "counts": state.counts[:],
        "total": state.total,
        "out": state.out[:],
        "hand": sorted(state.hands[seat]) if live and seat is not None else None,
        "bids": [{"seat": s, "quantity": q, "face": f} for s, q, f in state.bids] if live else [],
        "showdown": showdown,
    }
