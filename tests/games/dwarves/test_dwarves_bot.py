"""The heuristic bot: its rules of thumb, and that it beats random play."""

from __future__ import annotations

import random

from dwarves_table import load, position

from ludoteca.bots import RandomBot
from ludoteca.core import Bot, decide
from ludoteca.games.dwarves import GAME


def choice(data: dict[str, object], bot: Bot | None = None) -> str:
    state = load(data)
    seat = GAME.to_move(state)
    assert seat is not None
    action = decide(bot or GAME.heuristic_bot(), GAME, state, seat, random.Random(1))
    return GAME.action_to_text(state, action)


def test_it_goes_for_the_hobbit() -> None:
    # from 7: a step reaches the hobbit on 8, grey blue leads to 9, white yellow to 1
    data = position(
        dwarves={"red": {"tile": 7, "chest": ["gold"]}}, dice={"grey": "blue", "white": "yellow"}
    )
    assert choice(data) == "to 8"


def test_it_keeps_away_from_the_dragon() -> None:
    # from 3: grey green leads to the dragon on 4 (a step too); white purple to the empty 11
    data = position(
        dwarves={"red": {"tile": 3, "chest": ["gold", "gold"]}, "green": {"tile": 10}},
        dragon={"tile": 4, "hoard": []},
        dice={"grey": "green", "white": "purple"},
    )
    assert choice(data) in ("to 11", "to 3")


def test_it_trades_towards_its_best_kind() -> None:
    data = position(
        dwarves={
            "red": {"tile": 4, "chest": ["gold", "gold", "gold", "ruby"]},
            "green": {"tile": 4, "chest": ["gold", "sapphire"]},
        },
        phase="meet",
        meet=["green"],
    )
    assert choice(data) == "trade ruby gold"


def test_it_steals_when_allowed_and_useful() -> None:
    data = position(
        dwarves={
            "red": {"tile": 4, "chest": ["emerald"]},
            "green": {"tile": 4, "chest": ["emerald", "ruby", "ruby"]},
        },
        phase="meet",
        meet=["green"],
    )
    assert choice(data) == "steal emerald"


def play(bots: list[Bot], seed: str) -> tuple[int, ...]:
    state = GAME.new({"players": len(bots)}, seed)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        seat = GAME.to_move(state)
        assert seat is not None
        GAME.apply(state, decide(bots[seat], GAME, state, seat, rng))
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.winners


def test_it_wins_far_more_often_than_random_players() -> None:
    heuristic, rand = GAME.heuristic_bot(), RandomBot()
    wins = {"heuristic": 0, "random": 0}
    for k in range(80):
        bots: list[Bot] = [rand, rand, rand]
        bots.insert(k % 4, heuristic)
        for seat in play(bots, f"strength-{k}"):
            wins["heuristic" if bots[seat] is heuristic else "random"] += 1
    assert wins["heuristic"] >= 12
    assert wins["heuristic"] >= 4 * wins["random"]


def test_the_search_policy_counts_a_meeting_in_full() -> None:
    # from 2: grey blue (and a step) leads to 3, where green has the gold red collects; white
    # green leads to 4, one step before the hobbit on 5. The heuristic counts a tenth of the
    # trade and heads for the hobbit; the policy hard searches with trades first.
    data = position(
        dwarves={
            "red": {"tile": 2, "chest": ["gold", "gold", "gold", "ruby"]},
            "green": {"tile": 3, "chest": ["gold", "sapphire"]},
        },
        hobbit=5,
        dice={"grey": "blue", "white": "green"},
    )
    assert choice(data) == "to 4"
    assert choice(data, GAME.search_bot()) == "to 3"
