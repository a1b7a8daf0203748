"""Dice Heroes for research frameworks: action ids and the layout of the observation
tensor (listed in ``docs/research.md``), from the documented observation only."""

from __future__ import annotations

from collections.abc import Hashable
from itertools import combinations
from typing import Any

from ludoteca.core import JSON
from ludoteca.core.encoding import Actions, Encoding, Tensor, observer_block, one_hot

DICE_COLOURS = ("white", "yellow", "red")
DICE_FACES = ("sword1", "sword2", "sword3", "coin", "yellow-die", "red-die", "x")
MAX_DICE = 9


def _subsets() -> tuple[str, ...]:
    """Id = bit mask of the dice re-rolled (die n is bit n-1); 0 = stop."""
    texts = ["stop"] * (1 << MAX_DICE)
    for size in range(1, MAX_DICE + 1):
        for dice in combinations(range(1, MAX_DICE + 1), size):
            texts[sum(1 << (n - 1) for n in dice)] = "reroll " + " ".join(map(str, dice))
    return tuple(texts)


class DiceHeroesEncoding(Encoding):
    game_id = "dice-heroes"
    actions = _subsets()
    shares_lists = True  # ``legal_ids``: one ids list per set of re-rollable dice

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.by_dice: dict[Hashable, list[int]] = {}

    def legal_ids(self, game: Actions, state: Any) -> tuple[list[int], list[Hashable]]:
        """The legal actions are ``stop`` and every set of the dice that may be re-rolled, the
        last of them all those dice: it names the list, whose ids are found once per such set
        (the ids are shared, never changed)."""
        actions = game.legal_actions(state)
        if not actions:
            return [], actions
        ids = self.by_dice.get(actions[-1])
        if ids is None:
            ids = self.by_dice[actions[-1]] = super().legal_ids(game, state)[0]
        return ids, actions

    def blocks(self) -> list[tuple[str, tuple[int, ...], str]]:
        n = self.players
        return [
            observer_block(n),
            (
                "seats",
                (n, 14),
                "per seat: troop, tableau, at the posters (white, yellow, red each), coins, "
                "posters taken, their value, score, duel marker",
            ),
            ("posters_left", (2,), "posters left, their total value"),
            ("holder", (n + 1,), "one-hot: the seat holding the posters, last = nobody"),
            ("laid", (3, 7), "dice at the posters: count per colour and face"),
            ("duel", (1,), "1 in a two-player match (duel markers)"),
            ("turn", (n + 1,), "one-hot: the seat to move, last = nobody (over)"),
            ("roll", (4,), "one-hot: rolls made this turn (0..3)"),
            ("dice", (MAX_DICE, 10), "per die 1..9: one-hot colour (3), one-hot face (7)"),
            ("swords", (2,), "swords shown, swords to beat"),
        ]

    def fill(self, obs: JSON, views: dict[str, Tensor]) -> None:
        n = self.players
        for s, seat in enumerate(obs["seats"]):
            row = views["seats"][s]
            for block, key in enumerate(("troop", "tableau", "at_posters")):
                row[block * 3 : block * 3 + 3] = [seat[key][c] for c in DICE_COLOURS]
            row[9] = seat["coins"]
            row[10] = len(seat["posters"])
            row[11] = sum(seat["posters"])
            row[12] = seat["score"]
            row[13] = 1.0 if seat["marker"] else 0.0
        left = obs["posters_left"]
        views["posters_left"][:] = (len(left), sum(left))
        holder = obs.get("holder")
        one_hot(views["holder"], n if holder is None else int(holder))
        for die in obs["laid"]:
            views["laid"][DICE_COLOURS.index(die["colour"])][DICE_FACES.index(die["face"])] += 1
        views["duel"][0] = 1.0 if obs["duel"] else 0.0
        turn = obs.get("turn")
        one_hot(views["turn"], n if turn is None else int(turn["seat"]))
        if turn is not None:
            one_hot(views["roll"], int(turn["roll"]))
            for die in turn["dice"]:
                row = views["dice"][int(die["die"]) - 1]
                row[DICE_COLOURS.index(die["colour"])] = 1.0
                row[3 + DICE_FACES.index(die["face"])] = 1.0
            views["swords"][:] = (turn["swords"], turn["to_beat"])
        else:
            one_hot(views["roll"], 0)
