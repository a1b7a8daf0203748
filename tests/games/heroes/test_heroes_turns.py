"""Set-up from the seed, the draw action, and how a match ends."""

from __future__ import annotations

from collections import Counter

import pytest
from heroes_positions import hand, load, play

from ludoteca.core import IllegalActionError, Stream
from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import ROLES

CANONICAL = [role for role in ROLES for _ in range(3)]


def redeal(seed: str) -> tuple[list[list[str]], int, int]:
    """The documented set-up, re-done by hand: Gold's 24 shuffled, Blue's 24, then the seat.

    Returns both orders, the first seat and the number of stream words used."""
    stream = Stream(seed)
    groups = []
    for _ in range(2):
        group = list(CANONICAL)
        stream.shuffle(group)
        groups.append(group)
    first = stream.below(2)
    return groups, first, stream.used


@pytest.mark.parametrize("seed", ["alpha", "beta", "gamma", "delta"])
def test_the_set_up_follows_the_documented_order_of_draws(seed: str) -> None:
    groups, first, used = redeal(seed)
    state, events = GAME.new_with_events(None, seed)
    data = GAME.to_json(state)
    for seat, name in enumerate(("gold", "blue")):
        order = groups[seat]
        assert data["set_aside"][name] == order[:4]
        assert sorted(data["hands"][name], key=ROLES.index) == data["hands"][name]
        assert Counter(data["hands"][name]) == Counter(order[4:8])
        assert data["reserves"][name] == order[8:]
    assert GAME.to_move(state) == first
    assert data["rng"] == {"seed": seed, "used": used}
    assert [e.kind for e in events] == ["start", "drew", "drew"]
    assert events[0].data == {"first": first}


def test_the_seed_chooses_the_starting_seat() -> None:
    firsts = {GAME.to_move(GAME.new(None, f"first-{k}")) for k in range(16)}
    assert firsts == {0, 1}


def test_the_opening_draw_is_secret_to_the_drawer() -> None:
    _, events = GAME.new_with_events(None, "secret-deal")
    gold, blue = events[1], events[2]
    assert gold.for_seat(None) == {"kind": "drew", "seat": 0, "count": 4, "cause": "deal"}
    assert len(gold.for_seat(0)["heroes"]) == 4
    assert "heroes" not in gold.for_seat(1)
    assert "heroes" not in blue.for_seat(0) and len(blue.for_seat(1)["heroes"]) == 4


@pytest.mark.parametrize(
    ("held", "reserve", "expected"),
    [(4, 5, 2), (6, 5, 2), (7, 5, 1), (3, 1, 1), (0, 2, 2)],
)
def test_the_draw_takes_two_or_one(held: int, reserve: int, expected: int) -> None:
    pool = ["halfling", "bard", "ranger", "fighter", "rogue", "wizard", "cleric", "paladin"]
    reserve_roles = ["cleric", "paladin", "rogue", "wizard", "fighter"][:reserve]
    state = load(hands={"gold": pool[:held]}, reserves={"gold": reserve_roles})
    events = GAME.apply_text(state, "draw")
    assert events[0].data["count"] == expected
    assert events[0].secret == {0: {"heroes": reserve_roles[:expected]}}
    assert len(hand(state, "gold")) == held + expected
    assert GAME.to_json(state)["reserves"]["gold"] == reserve_roles[expected:]
    assert GAME.to_move(state) == 1


def test_no_draw_with_a_full_hand_or_an_empty_reserve() -> None:
    full = ["halfling", "bard", "ranger", "fighter", "rogue", "wizard", "cleric", "paladin"]
    state = load(hands={"gold": full})
    assert "draw" not in GAME.legal_texts(state)
    with pytest.raises(IllegalActionError, match=r"your hand is full \(8 heroes\)"):
        GAME.apply_text(state, "draw")
    empty = load(hands={"gold": ["bard"]}, reserves={"gold": []})
    with pytest.raises(IllegalActionError, match="your reserve is empty"):
        GAME.apply_text(empty, "draw")


@pytest.mark.parametrize("role", ["bard", "ranger", "fighter", "wizard", "cleric"])
def test_a_camp_entry_wins_at_once_with_no_trick(role: str) -> None:
    chain = {"b1": ["gold paladin"], "b2": ["gold paladin"], "b3": ["gold paladin"]}
    chain |= {"b4": ["gold rogue"], "b5": ["gold rogue"], "a5": ["blue halfling"]}
    state = load(
        rooms=chain,
        hands={"gold": [role, "halfling"], "blue": ["bard", "cleric"]},
        rng={"seed": "camp", "used": 0},
    )
    events = play(state, f"place {role} camp")
    assert [e["kind"] for e in events] == ["placed", "end"]
    data = GAME.to_json(state)
    assert data["camp"] == f"gold {role}"
    assert data["hands"] == {"gold": ["halfling"], "blue": ["bard", "cleric"]}
    assert data["rooms"]["a5"] == ["blue halfling"]
    assert state.rng.used == 0
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "camp"


BLOCKED = {"a5": ["gold paladin"], "b5": ["gold paladin"], "c5": ["gold paladin"]}


@pytest.mark.parametrize(
    ("sealed", "winners", "draw"),
    [({}, (0, 1), True), ({"a1": "gold"}, (0,), False), ({"b4": "blue"}, (1,), False)],
)
def test_the_match_ends_when_the_player_to_move_can_do_nothing(
    sealed: dict[str, str], winners: tuple[int, ...], draw: bool
) -> None:
    relics = {"gold": 0, "blue": 0}
    for who in sealed.values():
        relics[who] += 1
    blue_hand = ["bard", "bard", "bard", "ranger", "ranger", "ranger", "fighter", "fighter"]
    state = load(
        rooms=BLOCKED,
        hands={"gold": ["cleric"], "blue": blue_hand},  # full hand: Blue cannot draw either
        sealed=sealed,
        relics=relics,
    )
    assert not GAME.is_over(state)
    events = play(state, "place cleric a1")
    assert events[-1]["kind"] == "end"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.draw, outcome.reason) == (winners, draw, "stuck")
    assert GAME.to_move(state) is None and GAME.legal_actions(state) == []


def test_a_player_out_of_heroes_ends_the_match() -> None:
    state = load(hands={"gold": ["cleric"], "blue": []}, reserves={"blue": []})
    play(state, "place cleric a1")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.draw and outcome.reason == "stuck"


def test_a_pending_choice_is_played_out_before_the_match_ends() -> None:
    rooms = {**BLOCKED, "b1": ["blue halfling"]}
    blue_hand = ["bard", "bard", "bard", "ranger", "ranger", "ranger", "fighter", "fighter"]
    state = load(rooms=rooms, hands={"gold": ["fighter"], "blue": blue_hand})
    play(state, "place fighter a1")
    assert not GAME.is_over(state)
    assert GAME.legal_texts(state) == ["strike b1", "skip"]
    play(state, "skip")
    assert GAME.is_over(state)
