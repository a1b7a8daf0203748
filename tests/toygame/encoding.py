"""High Card for research frameworks: action ids and the observation tensor's layout, from the
observation only (the rival's card is never in it while the match runs)."""

from __future__ import annotations

from ludoteca.core import JSON
from ludoteca.core.encoding import Encoding, Tensor, observer_block, one_hot

from .rules import CARDS, TURNS


class HighCardEncoding(Encoding):
    game_id = "high-card"
    actions = ("stand", "draw", *(f"discard {card}" for card in CARDS))

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [
            observer_block(2),
            ("to_move", (3,), "one-hot: seat 0, seat 1, nobody (over)"),
            ("turn", (TURNS + 1,), "one-hot: turns finished"),
            ("hand", (9,), "1 for each card 1-9 in the observer's hand"),
            ("hand_counts", (2,), "cards in each hand"),
            ("pile", (1,), "cards left in the pile"),
            ("discards", (2, 9), "per seat, 1 for each card discarded"),
        ]

    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        to_move = obs["to_move"]
        one_hot(views["to_move"], 2 if to_move is None else int(to_move))
        one_hot(views["turn"], int(obs["turn"]))
        for card in obs["hand"] or ():
            views["hand"][card - 1] = 1.0
        views["hand_counts"][:] = obs["hand_counts"]
        views["pile"][0] = obs["pile"]
        for seat, cards in enumerate(obs["discards"]):
            for card in cards:
                views["discards"][seat][card - 1] = 1.0
