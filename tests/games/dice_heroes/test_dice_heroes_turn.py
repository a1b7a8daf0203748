"""A turn: the faces, re-rolls and X, coins and the big treasure, troop growth."""

from __future__ import annotations

import pytest
from dice_heroes_helpers import GAME, kinds, load, only, play, position, seat, tableau, troop

from ludoteca.core import IllegalActionError


@pytest.mark.parametrize(("face", "swords"), [("sword1", 1), ("sword2", 2), ("sword3", 3)])
def test_sword_faces_count_their_swords_and_go_to_the_posters(face: str, swords: int) -> None:
    state = load(position(dice=(f"white:{face}", "white:coin", "white:coin")))
    events = play(state, "stop")
    hunt = only(events, "hunt")
    assert hunt["swords"] == swords and hunt["success"]
    view = GAME.observation(state, None)
    assert view["holder"] == 0
    assert view["laid"] == [{"colour": "white", "face": face, "swords": swords}]
    assert view["seats"][0]["at_posters"] == {"white": 1, "yellow": 0, "red": 0}
    assert troop(state, 0)["white"] == 2


def test_coin_faces_pay_one_coin_each_and_only_with_swords() -> None:
    state = load(position(dice=("white:sword1", "white:coin", "white:coin")))
    coins = only(play(state, "stop"), "coins")
    assert coins == {"kind": "coins", "seat": 0, "coins": 2, "big_treasure": False}
    assert GAME.observation(state, None)["seats"][0]["coins"] == 2


def test_yellow_die_face_moves_a_yellow_die_into_the_troop() -> None:
    state = load(position(dice=("white:yellow-die", "white:coin", "white:coin")))
    events = play(state, "stop")
    assert only(events, "growth")["dice"] == {"yellow": 1}
    assert troop(state, 0) == {"white": 3, "yellow": 1, "red": 0}
    assert tableau(state, 0) == {"white": 0, "yellow": 2, "red": 3}


def test_red_die_face_moves_a_red_die_into_the_troop() -> None:
    data = position(
        seats=[seat(troop=(3, 1, 0), tableau=(0, 2, 3)), seat()],
        dice=("white:sword1", "white:coin", "white:coin", "yellow:red-die"),
    )
    state = load(data)
    assert only(play(state, "stop"), "growth")["dice"] == {"red": 1}
    assert troop(state, 0) == {"white": 2, "yellow": 1, "red": 1}  # one white lies at the posters


def test_x_on_the_first_roll_sends_the_die_back_at_once_and_locks_it() -> None:
    data = position(
        seats=[seat(), seat(troop=(3, 1, 0), tableau=(0, 2, 3))],
        to_move=1,
        dice=("white:coin", "white:coin", "white:coin", "yellow:coin"),
    )
    # seat 1 stops; seat 0 rolls; then seat 0's turn passes back and seat 1 rolls four dice
    state = load(data, None, None, None, "white:sword1", "white:sword1", "white:coin", "yellow:x")
    play(state, "stop")
    play(state, "stop")
    assert GAME.to_move(state) == 1
    view = GAME.observation(state, None)
    assert view["turn"]["dice"][3] == {
        "die": 4,
        "colour": "yellow",
        "face": "x",
        "swords": 0,
        "locked": True,
    }
    assert troop(state, 1)["yellow"] == 0 and tableau(state, 1)["yellow"] == 3
    assert all(4 not in action for action in GAME.legal_actions(state))


def test_x_during_a_reroll_locks_the_die_which_stays_listed() -> None:
    data = position(
        seats=[seat(troop=(3, 1, 0), tableau=(0, 2, 3)), seat()],
        dice=("white:coin", "white:coin", "white:sword1", "yellow:coin"),
    )
    state = load(data, "yellow:x")
    events = play(state, "reroll 4")
    assert kinds(events) == ["roll", "sent_back"]
    assert only(events, "sent_back") == {
        "kind": "sent_back",
        "seat": 0,
        "die": 4,
        "colour": "yellow",
    }
    assert troop(state, 0)["yellow"] == 0 and tableau(state, 0)["yellow"] == 3
    assert GAME.to_move(state) == 0, "rolls are left: the turn goes on"
    assert GAME.observation(state, None)["turn"]["dice"][3]["locked"]
    with pytest.raises(IllegalActionError, match="locked"):
        GAME.check(state, "reroll 3 4")
    assert GAME.check(state, "reroll all") == (1, 2, 3)
    events = play(state, "stop")
    assert only(events, "coins")["coins"] == 2, "the locked die's coin no longer counts"


def test_the_third_roll_ends_the_turn_by_itself() -> None:
    state = load(position(roll=2, dice=("white:coin", "white:coin", "white:sword1")), "white:coin")
    events = play(state, "reroll 3")
    assert kinds(events)[:2] == ["roll", "coins"]
    assert only(events, "coins")["big_treasure"]
    assert GAME.to_move(state) == 1
    assert GAME.observation(state, None)["turn"]["roll"] == 1


def test_a_player_may_stop_after_the_first_roll() -> None:
    state = load(position(roll=1))
    assert () in GAME.legal_actions(state)
    play(state, "stop")
    assert GAME.to_move(state) == 1


def test_big_treasure_doubles_coins_when_no_final_die_shows_a_sword() -> None:
    # the spec's example: coin, coin, yellow-die -> 4 coins
    state = load(position(dice=("white:coin", "white:coin", "white:yellow-die")))
    assert only(play(state, "stop"), "coins") == {
        "kind": "coins",
        "seat": 0,
        "coins": 4,
        "big_treasure": True,
    }


def test_one_sword_that_does_not_outbid_still_spoils_the_big_treasure() -> None:
    data = position(
        seats=[seat(), seat(troop=(1, 0, 0))],
        holder=1,
        laid=("white:sword3", "white:sword3"),
        dice=("white:coin", "white:coin", "white:sword1"),
    )
    state = load(data)
    events = play(state, "stop")
    assert not only(events, "hunt")["success"]
    assert only(events, "coins")["coins"] == 2


def test_swords_of_earlier_rolls_do_not_spoil_the_big_treasure() -> None:
    state = load(position(dice=("white:sword2", "white:coin", "white:coin")), "white:coin")
    play(state, "reroll 1")
    assert only(play(state, "stop"), "coins")["coins"] == 6


def test_growth_is_capped_by_the_dice_left_on_the_tableau() -> None:
    data = position(
        seats=[seat(troop=(3, 2, 0), tableau=(0, 1, 3)), seat()],
        dice=("white:yellow-die", "white:yellow-die", "white:coin", "yellow:coin", "yellow:coin"),
    )
    state = load(data)
    assert only(play(state, "stop"), "growth")["dice"] == {"yellow": 1}
    assert troop(state, 0)["yellow"] == 3 and tableau(state, 0)["yellow"] == 0


def test_growth_does_nothing_when_the_tableau_is_empty() -> None:
    data = position(
        seats=[seat(troop=(3, 3, 0), tableau=(0, 0, 3)), seat()],
        dice=("white:yellow-die",) + ("white:coin",) * 2 + ("yellow:coin",) * 3,
    )
    state = load(data)
    assert "growth" not in kinds(play(state, "stop"))
    assert troop(state, 0)["yellow"] == 3


def test_growth_counts_the_tableau_after_this_turns_x() -> None:
    data = position(
        seats=[seat(troop=(3, 3, 0), tableau=(0, 0, 3)), seat()],
        dice=("white:yellow-die",) + ("white:coin",) * 2 + ("yellow:coin",) * 3,
    )
    state = load(data, "yellow:x")
    play(state, "reroll 4")
    assert tableau(state, 0)["yellow"] == 1
    assert only(play(state, "stop"), "growth")["dice"] == {"yellow": 1}
    assert troop(state, 0)["yellow"] == 3 and tableau(state, 0)["yellow"] == 0


def test_a_grown_die_is_rolled_from_the_next_turn_on() -> None:
    state = load(position(dice=("white:yellow-die", "white:coin", "white:coin")))
    events = play(state, "stop")
    assert [d["colour"] for d in only(events, "roll")["dice"]] == ["white"] * 3  # seat 1's roll
    events = play(state, "stop")  # seat 1 stops; seat 0's next turn starts
    first = only(events, "roll")
    assert first["seat"] == 0
    assert [d["colour"] for d in first["dice"]] == ["white", "white", "white", "yellow"]
