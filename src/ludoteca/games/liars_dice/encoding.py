"""Liar's Dice for research frameworks: action ids and the observation tensor's layout, from the
observation only (no other player's die is in it while a round runs). Listed in
``docs/research.md``."""

from __future__ import annotations

from ludoteca.core import JSON
from ludoteca.core.encoding import Encoding, Tensor, observer_block, one_hot

from .rules import FACES, MAX_DICE


class LiarsDiceEncoding(Encoding):
    """Action ``bid q f`` is ``(q - 1) * 6 + f - 1`` (q up to five dice a player), ``liar`` the
    last id."""

    game_id = "liars-dice"

    def __init__(self, players: int) -> None:
        self.most = MAX_DICE * players
        self.actions = (
            *(f"bid {q} {f}" for q in range(1, self.most + 1) for f in range(1, FACES + 1)),
            "liar",
        )
        super().__init__(players)

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        n, bids = self.players, self.most * FACES
        return [
            observer_block(n),
            ("to_move", (n + 1,), "one-hot: the seat to move, last = nobody (over)"),
            ("hand", (FACES,), "the observer's dice showing each face 1-6"),
            ("counts", (n,), "dice per seat"),
            ("bids", (bids,), "1 for each bid made this round (by action id)"),
            ("last_bid", (bids + 1,), "one-hot: the round's last bid, last = none yet"),
            ("bidder", (n + 1,), "one-hot: who made the last bid, last = nobody"),
        ]

    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        n, bids = self.players, self.most * FACES
        to_move = obs["to_move"]
        one_hot(views["to_move"], n if to_move is None else int(to_move))
        for face in obs["hand"] or ():
            views["hand"][face - 1] += 1.0
        views["counts"][:] = obs["counts"]
        last, bidder = bids, n
        for bid in obs["bids"]:
            last = (bid["quantity"] - 1) * FACES + bid["face"] - 1
            views["bids"][last] = 1.0
            bidder = bid["seat"]
        one_hot(views["last_bid"], last)
        one_hot(views["bidder"], bidder)
