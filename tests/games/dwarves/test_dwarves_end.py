"""The end of a match: the pool running dry, the round cap, scoring, tie-breaks and the race."""

from __future__ import annotations

import random
from typing import Any

import pytest
from dwarves_table import RING, dice, load, offset_for, position

from ludoteca.core import Outcome, Stream
from ludoteca.games.dwarves import GAME, scoring
from ludoteca.games.dwarves.fortress import board
from ludoteca.games.dwarves.scoring import race, score
from ludoteca.games.dwarves.state import DwarvesState

DRAGON_TO_11 = dice("purple", "yellow")  # the dragon's roll that takes it to the free tile 11


def last_move(
    dwarves: dict[str, dict[str, Any]], *draws: tuple[int, int], **fields: Any
) -> DwarvesState:
    """Round 300 (the cap) with blue, last in the round, to move: blue stays, the dragon rolls
    purple to the free tile 11, then ``draws`` follow (the race), and the match is over."""
    used = offset_for(*DRAGON_TO_11, *draws)
    data = position(
        dwarves={"blue": {"tile": 9}, **dwarves},
        round=300,
        turn="blue",
        rng={"seed": "dwarves-test", "used": used},
        **fields,
    )
    state = load(data)
    GAME.apply_text(state, "stay")
    assert GAME.is_over(state)
    return state


def test_the_round_in_which_the_pool_empties_is_finished_dragon_included() -> None:
    data = position(dwarves={"red": {"tile": 7}})
    data["dragon"]["hoard"], data["pool"] = data["pool"][:-1], data["pool"][-1:]
    state = load(data)
    GAME.apply_text(state, "step")  # red meets the hobbit and takes the last stone
    assert GAME.to_json(state)["pool"] == []
    for colour in ("yellow", "green"):
        assert not GAME.is_over(state)
        assert GAME.to_json(state)["turn"] == colour
        GAME.apply_text(state, "stay")
    events = GAME.apply_text(state, "stay")  # blue, then the dragon
    assert GAME.is_over(state)
    assert [e.data["figure"] for e in events if e.kind == "roll"] == ["dragon"]
    assert GAME.to_json(state)["result"]["ended"] == "pool"
    assert GAME.to_json(state)["round"] == 1
    assert GAME.legal_actions(state) == []


def test_the_score_is_the_best_kind_with_the_diamond_then_total_then_next_kinds() -> None:
    assert score([3, 0, 0, 0, 0, 1]) == (4, 4, 0, 0, 0, 0)
    assert score([1, 2, 0, 3, 0, 0]) == (3, 6, 2, 1, 0, 0)
    assert score([0] * 6) == (0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("red", "yellow"),
    [
        # the diamond adds one to the best kind
        (["gold"] * 3 + ["diamond"], ["ruby"] * 3 + ["sapphire"]),
        # level best kinds: more stones win
        (["gold"] * 3 + ["ruby"], ["ruby"] * 3),
        # level best and total: the second kind decides
        (
            ["gold"] * 3 + ["ruby"] * 2 + ["sapphire"],
            ["ruby"] * 3 + ["gold", "sapphire", "emerald"],
        ),
        # ... then the third
        (
            ["gold"] * 3 + ["ruby"] * 2 + ["sapphire"] * 2 + ["garnet"],
            ["ruby"] * 3 + ["gold"] * 2 + ["sapphire", "emerald", "garnet"],
        ),
        # ... then the fourth (with the best, the total and the first three level, the fifth is too)
        (
            ["gold"] * 3 + ["ruby"] * 2 + ["sapphire"] * 2 + ["emerald"] * 2,
            ["ruby"] * 3 + ["gold"] * 2 + ["sapphire"] * 2 + ["emerald", "garnet"],
        ),
    ],
)
def test_each_tie_break_decides_for_the_better_chest(red: list[str], yellow: list[str]) -> None:
    for first, second, seat in ((red, yellow, 0), (yellow, red, 1)):
        state = last_move({"red": {"chest": first}, "yellow": {"chest": second}})
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert (outcome.winners, outcome.reason) == ((seat,), "score")
        assert GAME.to_json(state)["result"]["race"] == []


def test_a_remaining_tie_is_decided_by_the_race_furthest_ahead_wins() -> None:
    # Race from the Portal: round 1 both roll purple (to 11, 11 run); round 2 red rolls yellow
    # (to 1, 13 run), yellow red (to 2, 14 run): both passed the Portal, yellow is further.
    draws = [(6, 5), (6, 5), (6, 0), (6, 1)]
    state = last_move(
        {"red": {"chest": ["gold", "ruby"]}, "yellow": {"chest": ["gold", "emerald"]}}, *draws
    )
    assert GAME.outcome(state) == Outcome((1,), "race", False, (1.0, 1.0, 0.0, 0.0))
    result = GAME.to_json(state)["result"]
    assert result["tied"] == ["red", "yellow"]
    assert result["race"] == [
        [
            {"figure": "red", "roll": "purple", "run": 11},
            {"figure": "yellow", "roll": "purple", "run": 11},
        ],
        [
            {"figure": "red", "roll": "yellow", "run": 13},
            {"figure": "yellow", "roll": "red", "run": 14},
        ],
    ]


def test_racers_level_in_front_race_on_alone() -> None:
    ring = board(tuple(RING))
    # round 1: both roll purple (to 11, 11 run); round 2: both yellow (to 1, 13 run), level in
    # front; round 3: red rolls yellow (to 6, 18 run), yellow rolls red (to 2, 14 run)
    draws = [(6, 5), (6, 5), (6, 0), (6, 0), (6, 0), (6, 1)]
    rounds, winner, picked = race(ring, [0, 1], Stream("race", offset_for(*draws, seed="race")))
    assert [[run for _, _, run in r] for r in rounds] == [[11, 11], [13, 13], [18, 14]]
    assert (winner, picked) == (0, False)


def test_after_the_race_cap_the_seed_picks_among_those_in_front(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scoring, "RACE_CAP", 1)
    ring = board(tuple(RING))
    # both roll purple (11 run, nobody past the Portal), then below(2) = 1 picks yellow
    used = offset_for((6, 5), (6, 5), (2, 1), seed="race")
    rounds, winner, picked = race(ring, [0, 1], Stream("race", used))
    assert (len(rounds), winner, picked) == (1, 1, True)


def test_the_dragon_can_win_and_then_no_player_wins() -> None:
    state = last_move({"red": {"chest": ["gold"] * 4}}, dragon={"tile": 0, "hoard": ["ruby"] * 5})
    outcome = GAME.outcome(state)
    assert outcome == Outcome((), "dragon", False, (4.0, 0.0, 0.0, 0.0))


def test_the_dragon_races_when_it_ties() -> None:
    draws = [(6, 5), (6, 5), (6, 0), (6, 1)]  # red is figure 0, the dragon races last
    state = last_move(
        {"red": {"chest": ["gold"] * 3}}, *draws, dragon={"tile": 0, "hoard": ["ruby"] * 3}
    )
    assert GAME.to_json(state)["result"]["tied"] == ["red", "dragon"]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.reason) == ((), "dragon")


def test_an_extra_dwarf_can_win_and_then_no_player_wins() -> None:
    # two players: yellow ends the players' turns, blue (extra) follows white purple to 11,
    # then the dragon goes to the orange tile 5
    used = offset_for(*dice("yellow", "purple"), *dice("orange", "yellow"))
    data = position(
        2,
        dwarves={"green": {"chest": ["emerald"] * 3}, "yellow": {"chest": ["gold"] * 2}},
        round=300,
        turn="yellow",
        rng={"seed": "dwarves-test", "used": used},
    )
    state = load(data)
    GAME.apply_text(state, "stay")
    assert GAME.outcome(state) == Outcome((), "extra-dwarf", False, (0.0, 2.0))


def test_a_table_where_nobody_visits_the_hobbit_ends_at_the_round_cap() -> None:
    state = load(position(round=290))
    gifts = 0
    while not GAME.is_over(state):
        hobbit = GAME.to_json(state)["hobbit"]
        actions = [a for a in GAME.legal_texts(state) if a != f"to {hobbit}"]
        events = GAME.apply_text(state, actions[0])
        gifts += sum(1 for e in events if e.kind == "gift")
    after = GAME.to_json(state)
    assert gifts == 0
    assert (after["round"], after["result"]["ended"]) == (300, "cap")
    assert after["pool"]  # stones were left: only the cap ended the match


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_matches_always_end(players: int) -> None:
    pick = random.Random(players)
    for k in range(25):
        state = GAME.new({"players": players}, f"ends-{players}-{k}")
        for _ in range(5_000):
            actions = GAME.legal_actions(state)
            if not actions:
                break
            GAME.apply(state, pick.choice(actions))
        assert GAME.is_over(state)
        assert GAME.to_json(state)["round"] <= 300
