"""The eight tricks, sanctuaries and pending choices."""

from __future__ import annotations

import pytest
from heroes_positions import hand, load, play, top

from ludoteca.core import IllegalActionError, Stream
from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import ROLES

SEVEN = ["halfling", "halfling", "ranger", "ranger", "fighter", "rogue", "wizard"]


def kinds(events: list[dict[str, object]]) -> list[object]:
    return [e["kind"] for e in events]


def drawn(events: list[dict[str, object]], cause: str) -> int:
    return sum(int(str(e["count"])) for e in events if e["kind"] == "drew" and e["cause"] == cause)


@pytest.mark.parametrize(
    ("others", "reserve", "expected"),
    [
        (SEVEN[:3], ["paladin", "paladin", "paladin"], 2),  # 4 in hand: the usual 2
        (SEVEN[:7], ["paladin", "paladin", "paladin"], 1),  # 8 in hand, 7 after the Bard
        (SEVEN[:3], ["paladin"], 1),  # 1 left in the reserve
        (SEVEN[:3], [], 0),  # nothing to draw
    ],
)
def test_the_bard_draws_exactly_as_the_draw_action_would(
    others: list[str], reserve: list[str], expected: int
) -> None:
    state = load(hands={"gold": ["bard", *others]}, reserves={"gold": reserve})
    events = play(state, "place bard a1")
    assert drawn(events, "bard") == expected
    assert len(hand(state, "gold")) == len(others) + expected
    assert GAME.to_move(state) == 1


def test_the_cleric_draws_one_when_it_can() -> None:
    state = load(hands={"gold": ["cleric", "bard"]}, reserves={"gold": ["paladin", "rogue"]})
    events = play(state, "place cleric a1")
    assert drawn(events, "cleric") == 1
    assert hand(state, "gold") == ["bard", "paladin"]
    assert GAME.to_json(state)["reserves"]["gold"] == ["rogue"]


def test_the_cleric_draws_nothing_from_an_empty_reserve() -> None:
    state = load(hands={"gold": ["cleric", "bard"]}, reserves={"gold": []})
    events = play(state, "place cleric a1")
    assert "drew" not in kinds(events)
    assert hand(state, "gold") == ["bard"]


def test_the_wizard_discard_is_reproducible_from_the_seed() -> None:
    seen = set()
    for k in range(12):
        seed = f"wizard-{k}"
        rival = ["paladin", "halfling", "cleric", "bard", "cleric"]
        state = load(
            hands={"gold": ["wizard"], "blue": rival},
            rng={"seed": seed, "used": 3},
        )
        # documented: below(hand size) over the rival hand sorted halfling..paladin
        ordered = sorted(rival, key=ROLES.index)
        expected = ordered[Stream(seed, 3).below(len(rival))]
        events = play(state, "place wizard b1")
        wizard = [e for e in events if e["kind"] == "wizard"]
        assert wizard == [{"kind": "wizard", "seat": 0, "rival": 1, "role": expected}]
        assert GAME.to_json(state)["discards"]["blue"][-1] == expected
        assert len(hand(state, "blue")) == 4
        seen.add(expected)
    assert len(seen) > 1


def test_the_wizard_against_an_empty_hand_does_nothing_and_draws_no_chance() -> None:
    state = load(hands={"gold": ["wizard"], "blue": []}, rng={"seed": "w", "used": 0})
    events = play(state, "place wizard b1")
    assert "wizard" not in kinds(events)
    assert state.rng.used == 0


def test_the_fighter_strikes_a_rival_top_next_to_it_or_skips() -> None:
    rooms = {
        "b1": ["gold bard"],
        "b3": ["gold cleric", "blue paladin"],
        "c2": ["blue halfling"],
        "a3": ["blue wizard"],
    }
    state = load(rooms=rooms, hands={"gold": ["fighter", "rogue"]})
    play(state, "place fighter b2")
    assert GAME.to_move(state) == 0
    assert GAME.legal_texts(state) == ["strike c2", "strike b3", "skip"]
    with pytest.raises(IllegalActionError, match="a pending Fighter strike: strike a lit room"):
        GAME.apply_text(state, "place rogue c5")
    with pytest.raises(IllegalActionError, match="a3 is not next to your Fighter in b2"):
        GAME.apply_text(state, "strike a3")
    events = play(state, "strike b3")
    assert events[0] == {
        "kind": "struck",
        "seat": 0,
        "room": "b3",
        "hero": {"owner": 1, "role": "paladin"},
        "revealed": {"owner": 0, "role": "cleric"},
    }
    assert top(state, "b3") == "gold cleric"
    assert GAME.to_json(state)["discards"]["blue"][-1] == "paladin"
    assert GAME.to_move(state) == 1


def test_a_skipped_strike_leaves_the_board_alone() -> None:
    rooms = {"b1": ["gold bard"], "c2": ["blue halfling"]}
    state = load(rooms=rooms, hands={"gold": ["fighter"]})
    play(state, "place fighter b2", "skip")
    assert top(state, "c2") == "blue halfling"
    assert GAME.to_move(state) == 1


def test_a_trick_with_nothing_to_choose_asks_nothing() -> None:
    state = load(hands={"gold": ["fighter", "bard"]})  # no rival hero anywhere
    play(state, "place fighter b1")
    assert GAME.to_move(state) == 1
    assert GAME.observation(state, 0)["pending"] is None
    lone = load(hands={"gold": ["ranger"]}, reserves={"gold": []})  # nothing left to place
    play(lone, "place ranger b1")
    assert GAME.to_move(lone) == 1


def test_the_ranger_grants_one_more_placement_with_fresh_connection() -> None:
    state = load(hands={"gold": ["ranger", "paladin"]})
    assert "place paladin a2" not in GAME.legal_texts(state)
    events = play(state, "place ranger a1")
    assert kinds(events)[-1] == "extra"
    assert GAME.to_move(state) == 0
    texts = GAME.legal_texts(state)
    assert {"place paladin a2", "place paladin a1", "skip"} <= set(texts)
    assert texts[-1] == "skip" and "draw" not in texts
    with pytest.raises(IllegalActionError, match="a pending Ranger placement"):
        GAME.apply_text(state, "draw")
    play(state, "place paladin a1")  # may cover the Ranger itself
    assert GAME.to_json(state)["rooms"]["a1"] == ["gold ranger", "gold paladin"]
    assert GAME.to_move(state) == 1


def test_a_ranger_chain() -> None:
    state = load(hands={"gold": ["ranger", "ranger", "cleric", "bard"]})
    play(state, "place ranger a1")
    play(state, "place ranger a2")
    assert GAME.to_move(state) == 0
    play(state, "place cleric b2")
    assert GAME.to_move(state) == 1
    rooms = GAME.to_json(state)["rooms"]
    assert rooms == {"a1": ["gold ranger"], "a2": ["gold ranger"], "b2": ["gold cleric"]}


def test_skipping_the_ranger_ends_the_turn() -> None:
    state = load(hands={"gold": ["ranger", "bard"]})
    play(state, "place ranger a1", "skip")
    assert GAME.to_move(state) == 1
    assert hand(state, "gold") == ["bard"]


def test_a_sanctuary_draws_one() -> None:
    rooms = {"c1": ["gold bard"], "c2": ["gold ranger"]}
    state = load(rooms=rooms, hands={"gold": ["paladin"]}, reserves={"gold": ["rogue", "cleric"]})
    events = play(state, "place paladin c3")
    assert drawn(events, "sanctuary") == 1
    assert hand(state, "gold") == ["rogue"]


def test_a_sanctuary_with_a_full_hand_draws_nothing() -> None:
    rooms = {"c1": ["gold bard"], "c2": ["gold ranger"]}
    full = ["cleric", "halfling", "halfling", "ranger", "fighter", "rogue", "wizard", "paladin"]
    state = load(rooms=rooms, hands={"gold": full}, reserves={"gold": ["bard", "paladin"]})
    events = play(state, "place cleric c3")  # 7 left, the Cleric fills the hand to 8
    assert drawn(events, "cleric") == 1
    assert drawn(events, "sanctuary") == 0
    assert len(hand(state, "gold")) == 8


def test_a_fighter_on_a_sanctuary_strikes_before_the_sanctuary_draws() -> None:
    rooms = {"a1": ["gold bard"], "a2": ["gold ranger"], "b3": ["blue bard"]}
    state = load(rooms=rooms, hands={"gold": ["fighter"]}, reserves={"gold": ["paladin"]})
    events = play(state, "place fighter a3")
    assert "drew" not in kinds(events)
    assert hand(state, "gold") == []
    events = play(state, "strike b3")
    assert kinds(events) == ["struck", "drew"]
    assert hand(state, "gold") == ["paladin"]


def test_a_ranger_on_a_sanctuary_can_place_the_hero_it_drew() -> None:
    rooms = {"a1": ["gold bard"], "a2": ["gold cleric"]}
    state = load(rooms=rooms, hands={"gold": ["ranger"]}, reserves={"gold": ["paladin"]})
    events = play(state, "place ranger a3")
    assert kinds(events) == ["placed", "drew", "extra"]
    assert "place paladin a4" in GAME.legal_texts(state)
    play(state, "place paladin a4")
    assert GAME.to_move(state) == 1
