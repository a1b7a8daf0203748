"""Where a hero may go: stacking, the Halfling, connection, the Rogue and the rival camp."""

from __future__ import annotations

import pytest
from heroes_positions import hand, load, play, top

from ludoteca.core import IllegalActionError
from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import HeroesState


def legal(state: HeroesState) -> set[str]:
    return set(GAME.legal_texts(state))


def refused(state: HeroesState, text: str) -> str:
    before = GAME.to_json(state)
    with pytest.raises(IllegalActionError) as caught:
        GAME.apply_text(state, text)
    assert GAME.to_json(state) == before
    return str(caught.value)


def test_an_empty_room_next_to_the_own_camp_takes_any_hero() -> None:
    state = load(hands={"gold": ["bard", "paladin"]})
    assert {"place bard a1", "place paladin c1"} <= legal(state)
    play(state, "place paladin b1")
    assert top(state, "b1") == "gold paladin"
    assert hand(state, "gold") == ["bard"]
    assert GAME.to_move(state) == 1


def test_a_weaker_rival_hero_is_covered_a_stronger_or_equal_one_is_not() -> None:
    rooms = {
        "b1": ["gold bard"],
        "b2": ["gold bard"],
        "b3": ["blue paladin"],
        "c2": ["blue ranger"],
    }
    state = load(rooms=rooms, hands={"gold": ["fighter", "paladin"]})
    assert "place fighter c2" in legal(state)
    assert refused(state, "place fighter b3") == (
        "b3 holds a rival paladin (7): a fighter (3) cannot go on a stronger or equal hero"
    )
    assert refused(state, "place paladin b3") == (
        "b3 holds a rival paladin (7): a paladin (7) cannot go on a stronger or equal hero"
    )


def test_own_heroes_take_any_other_strength_but_never_the_same() -> None:
    rooms = {"a1": ["gold paladin"], "b1": ["gold fighter"]}
    state = load(rooms=rooms, hands={"gold": ["bard", "fighter", "halfling"]})
    assert {"place bard a1", "place halfling a1", "place halfling b1", "place bard b1"} <= legal(
        state
    )
    assert refused(state, "place fighter b1") == (
        "b1 holds your own fighter (3): a hero never goes on one of the same strength"
    )
    play(state, "place bard a1")
    assert GAME.to_json(state)["rooms"]["a1"] == ["gold paladin", "gold bard"]


def test_halfling_goes_on_a_rival_paladin_and_a_paladin_on_a_rival_halfling() -> None:
    rooms = {"b1": ["gold cleric"], "b2": ["blue paladin"], "c1": ["blue halfling"]}
    state = load(rooms=rooms, hands={"gold": ["halfling", "paladin", "bard"]})
    assert {"place halfling b2", "place paladin c1", "place bard c1"} <= legal(state)
    assert "place paladin b2" not in legal(state)
    play(state, "place halfling b2")
    assert GAME.to_json(state)["rooms"]["b2"] == ["blue paladin", "gold halfling"]


def test_a_rival_paladin_goes_on_a_halfling() -> None:
    rooms = {"b5": ["blue bard"], "b4": ["blue ranger"], "b3": ["gold halfling"]}
    state = load(rooms=rooms, hands={"blue": ["paladin", "bard"]}, to_move="blue")
    assert {"place paladin b3", "place bard b3"} <= legal(state)
    play(state, "place paladin b3")
    assert GAME.to_json(state)["rooms"]["b3"] == ["gold halfling", "blue paladin"]


def test_halflings_own_on_own_refused_rival_on_rival_allowed() -> None:
    rooms = {"a1": ["gold halfling"], "b1": ["blue halfling"]}
    state = load(rooms=rooms, hands={"gold": ["halfling"]})
    assert refused(state, "place halfling a1") == (
        "a1 holds your own halfling: a halfling never goes on your own halfling"
    )
    play(state, "place halfling b1")
    assert GAME.to_json(state)["rooms"]["b1"] == ["blue halfling", "gold halfling"]


def test_equal_strength_is_refused_for_a_rival_and_for_an_own_hero() -> None:
    rooms = {"a1": ["gold wizard"], "b1": ["blue wizard"]}
    state = load(rooms=rooms, hands={"gold": ["wizard"]})
    assert "own wizard (5)" in refused(state, "place wizard a1")
    assert "rival wizard (5)" in refused(state, "place wizard b1")


def test_connection_runs_through_own_topped_rooms_from_the_own_camp() -> None:
    rooms = {"a1": ["gold bard"], "a2": ["gold bard"], "a3": ["blue halfling", "gold bard"]}
    state = load(rooms=rooms, hands={"gold": ["cleric"]})
    allowed = legal(state)
    assert {"place cleric a4", "place cleric b3", "place cleric b2", "place cleric c1"} <= allowed
    assert "place cleric b4" not in allowed
    assert refused(state, "place cleric b4") == "b4 is not connected to your camp"


def test_a_cut_off_own_room_extends_nothing() -> None:
    # c3 is Gold's, but c2 is Blue's: the chain from the north camp stops at c1
    rooms = {"c1": ["gold bard"], "c2": ["blue paladin"], "c3": ["gold paladin"]}
    state = load(rooms=rooms, hands={"gold": ["cleric", "halfling"]})
    assert refused(state, "place cleric c4") == "c4 is not connected to your camp"
    assert refused(state, "place halfling c3") == "c3 is not connected to your camp"
    assert "place halfling c2" in legal(state)  # next to c1: a halfling goes onto any rival


def test_a_later_break_removes_nothing() -> None:
    rooms = {"a1": ["gold bard"], "a2": ["gold cleric"], "a3": ["gold paladin"]}
    state = load(rooms=rooms, hands={"blue": ["rogue"], "gold": ["wizard"]}, to_move="blue")
    play(state, "place rogue a1")  # cuts Gold's chain at its first room
    assert top(state, "a3") == "gold paladin"
    assert top(state, "a2") == "gold cleric"
    assert refused(state, "place wizard a4") == "a4 is not connected to your camp"


def test_the_rogue_ignores_connection_for_rooms_but_not_for_the_camp() -> None:
    rooms = {"c4": ["gold bard"], "c5": ["gold bard"]}  # cut off from the north camp
    state = load(rooms=rooms, hands={"gold": ["rogue", "cleric"]})
    allowed = legal(state)
    assert {"place rogue b4", "place rogue a5", "place rogue c3"} <= allowed
    assert "place cleric b4" not in allowed
    message = refused(state, "place rogue camp")
    assert message.startswith("the rival camp is not connected to yours")
    assert "rogue" in message
    play(state, "place rogue a4")
    assert top(state, "a4") == "gold rogue"


def test_the_rival_camp_is_entered_through_a_chain_and_wins_at_once() -> None:
    roles = ("bard", "ranger", "fighter", "cleric", "wizard")
    chain = {f"a{row}": [f"gold {role}"] for row, role in enumerate(roles, 1)}
    state = load(rooms=chain, hands={"gold": ["rogue", "paladin"]})
    assert {"place rogue camp", "place paladin camp"} <= legal(state)
    events = play(state, "place rogue camp")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "camp"
    assert [e["kind"] for e in events] == ["placed", "end"]
    assert GAME.legal_actions(state) == []


def test_camp_always_means_the_rival_camp() -> None:
    state = load(hands={"gold": ["bard"]})  # next to its own camp, far from the rival's
    assert refused(state, "place bard camp") == (
        "the rival camp is not connected to yours: no chain of your rooms reaches it"
    )


def test_a_hero_not_in_hand_is_refused() -> None:
    state = load(hands={"gold": ["bard"]})
    assert refused(state, "place rogue a1") == "you have no rogue in hand"


def test_the_connection_example_of_the_rules_page() -> None:
    rooms = {"a1": ["gold bard"], "a2": ["gold ranger"], "b3": ["gold fighter"]}
    rooms["b2"] = ["blue wizard"]
    state = load(rooms=rooms, hands={"gold": ["cleric", "halfling"]})
    reach = {t.split()[2] for t in legal(state) if t.startswith("place cleric")}
    assert reach == {"a1", "b1", "c1", "a2", "b2", "a3"}
    play(state, "place cleric b2")
    play(state, "draw")
    reach = {t.split()[2] for t in legal(state) if t.startswith("place halfling")}
    assert {"b3", "b4", "c3", "a3"} <= reach
