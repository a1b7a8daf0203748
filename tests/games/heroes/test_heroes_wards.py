"""Wards, relics and the relic win."""

from __future__ import annotations

import pytest
from heroes_positions import load, play

from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import WARDS

FILLERS = ["gold bard", "gold ranger", "gold cleric"]


def ward_rooms(ward: str) -> list[str]:
    col, row = "abc".index(ward[0]), int(ward[1])
    return [f"{'abc'[col + dc]}{row + dr}" for dr in (0, 1) for dc in (0, 1)]


def sealed_events(events: list[dict[str, object]]) -> list[dict[str, object]]:
    return [e for e in events if e["kind"] == "sealed"]


@pytest.mark.parametrize("ward", WARDS)
def test_topping_the_four_rooms_seals_the_ward_for_its_relics(ward: str) -> None:
    first, *others = ward_rooms(ward)
    outer = ward in ("a1", "b1", "a4", "b4")
    state = load(
        rooms=dict(zip(others, [[h] for h in FILLERS], strict=True)), hands={"gold": ["rogue"]}
    )
    events = play(state, f"place rogue {first}")
    expected = 1 if outer else 2
    assert sealed_events(events) == [
        {"kind": "sealed", "seat": 0, "ward": ward, "relics": expected, "total": expected}
    ]
    data = GAME.to_json(state)
    assert data["sealed"] == {ward: "gold"}
    assert data["relics"] == {"gold": expected, "blue": 0}


def test_all_wards_hold_twelve_relics() -> None:
    total = 0
    for ward in WARDS:
        first, *others = ward_rooms(ward)
        rooms = dict(zip(others, [[h] for h in FILLERS], strict=True))
        state = load(rooms=rooms, hands={"gold": ["rogue"]})
        play(state, f"place rogue {first}")
        total += state.relics[0]
    assert total == 12


def test_a_sealed_ward_never_gives_again_and_relics_stay_when_rooms_are_lost() -> None:
    rooms = {
        "a1": ["gold bard"],
        "b1": ["gold ranger"],
        "a2": ["gold fighter"],
        "b2": ["gold bard", "blue cleric"],
    }
    state = load(
        rooms=rooms,
        hands={"gold": ["paladin", "rogue"], "blue": ["rogue"]},
        sealed={"a1": "gold"},
        relics={"gold": 1, "blue": 0},
    )
    events = play(state, "place paladin b2")  # retakes the last room of the sealed ward
    assert sealed_events(events) == []
    assert state.relics == [1, 0]
    play(state, "place rogue b1")  # Blue takes a room of the ward
    assert state.relics == [1, 0]
    assert GAME.to_json(state)["sealed"] == {"a1": "gold"}


def test_two_wards_at_once_reach_six_and_win_before_any_trick() -> None:
    rooms = {
        "a1": ["gold bard"],
        "a2": ["gold bard"],
        "b2": ["gold ranger"],
        "a3": ["gold ranger"],
        "c2": ["gold fighter"],
        "c3": ["gold fighter"],
    }
    state = load(
        rooms=rooms,
        hands={"gold": ["cleric", "rogue"]},
        reserves={"gold": ["paladin"]},
        sealed={"a4": "gold", "b4": "gold"},
        relics={"gold": 2, "blue": 0},
    )
    events = play(state, "place cleric b3")
    assert [e["kind"] for e in events] == ["placed", "sealed", "sealed", "end"]
    assert [e["ward"] for e in sealed_events(events)] == ["a2", "b2"]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.reason == "relics" and outcome.winners == (0,)
    assert state.relics == [6, 0]
    assert GAME.to_json(state)["hands"]["gold"] == ["rogue"]  # the Cleric drew nothing


def test_more_than_six_also_wins() -> None:
    rooms = {"a1": ["gold bard"], "b1": ["gold ranger"], "a2": ["gold fighter"]}
    state = load(
        rooms=rooms,
        hands={"gold": ["ranger", "rogue"]},
        sealed={"a3": "gold", "b3": "gold", "b4": "gold"},
        relics={"gold": 5, "blue": 0},
    )
    events = play(state, "place ranger b2")  # a Ranger: no extra placement after the win
    assert events[-1]["kind"] == "end"
    assert state.relics[0] == 6
    assert GAME.is_over(state) and GAME.legal_actions(state) == []
    bigger = load(
        rooms=rooms,
        hands={"gold": ["paladin"]},
        sealed={"a2": "gold", "b2": "gold", "b4": "gold"},
        relics={"gold": 5, "blue": 0},
    )
    play(bigger, "place paladin b2")
    outcome = GAME.outcome(bigger)
    assert outcome is not None and outcome.reason == "relics" and bigger.relics[0] == 6


def test_a_strike_that_reveals_the_fighters_own_hero_seals_for_the_fighter() -> None:
    rooms = {
        "a1": ["gold bard"],
        "b1": ["gold bard"],
        "a2": ["gold ranger"],
        "b2": ["gold cleric", "blue paladin"],
    }
    state = load(rooms=rooms, hands={"gold": ["fighter"]})
    play(state, "place fighter b1")  # covers its own Bard, next to b2
    events = play(state, "strike b2")
    assert sealed_events(events) == [
        {"kind": "sealed", "seat": 0, "ward": "a1", "relics": 1, "total": 1}
    ]
    assert GAME.to_json(state)["sealed"] == {"a1": "gold"}


def test_a_strike_reveal_can_win_on_relics_before_the_sanctuary() -> None:
    rooms = {
        "a1": ["gold bard"],
        "a2": ["gold ranger"],
        "b2": ["gold bard"],
        "b3": ["gold cleric", "blue paladin"],
    }
    state = load(
        rooms=rooms,
        hands={"gold": ["fighter"]},
        reserves={"gold": ["paladin"]},
        sealed={"b1": "gold", "b4": "gold", "b3": "blue", "a4": "gold", "a1": "gold"},
        relics={"gold": 4, "blue": 2},
    )
    play(state, "place fighter a3")  # a sanctuary next to b3
    events = play(state, "strike b3")
    assert [e["kind"] for e in events] == ["struck", "sealed", "end"]
    assert state.relics == [6, 2]
    assert GAME.to_json(state)["hands"]["gold"] == []  # no sanctuary draw after the win


def test_a_strike_that_reveals_the_struck_players_hero_seals_nothing_new() -> None:
    rooms = {
        "b2": ["blue bard", "blue paladin"],
        "c2": ["blue ranger"],
        "b3": ["blue fighter"],
        "c3": ["blue cleric"],
        "b1": ["gold bard"],
    }
    state = load(
        rooms=rooms,
        hands={"gold": ["fighter"]},
        sealed={"b2": "blue"},
        relics={"gold": 0, "blue": 2},
    )
    play(state, "place fighter b1")
    events = play(state, "strike b2")
    assert sealed_events(events) == []
    assert state.relics == [0, 2]
