"""The heuristic bot: what it keeps and re-rolls, and that it beats the random bot; the search
policy of ``hard``, which differs from it at two players only."""

from __future__ import annotations

import random
from typing import Any

import pytest
from dice_heroes_helpers import GAME, position, seat

from ludoteca.bots import RandomBot
from ludoteca.core import Bot, decide


def _choice(data: dict[str, Any], bot: Bot | None = None) -> str:
    state = GAME.from_json(data)
    bot = bot or GAME.heuristic_bot()
    action = decide(bot, GAME, state, 0, random.Random(0))
    assert action in GAME.legal_actions(state)
    return GAME.action_to_text(state, action)


def _against(laid: tuple[str, ...], dice: tuple[str, ...], **changes: Any) -> dict[str, Any]:
    """3 players, a 10 on top of the posters (seat 1 took the 5); seat 2 holds the posters with
    ``laid`` (white dice); seat 0 rolled ``dice``."""
    seats = [seat(), seat(posters=(5,)), seat(troop=(3 - len(laid), 0, 0))]
    data = position(players=3, seats=seats, holder=2, laid=laid, dice=dice)
    data["posters"] = [10, 10, 10, 10, 10, 15]
    data.update(changes)
    return data


def test_keeps_swords_and_rerolls_the_rest_when_outbidding_is_in_reach() -> None:
    data = _against(("white:sword2",), ("white:sword1", "white:coin", "white:coin"))
    assert _choice(data) == "reroll 2 3"


def test_chases_the_big_treasure_when_the_poster_is_not_worth_the_coins() -> None:
    data = _against(("white:sword2",), ("white:sword1", "white:coin", "white:coin"))
    data["posters"] = [5, 10, 10, 10, 10, 10, 15]
    data["seats"][1]["posters"] = []
    assert _choice(data) == "reroll 1"


def test_rerolls_its_swords_for_the_big_treasure_when_outbidding_is_out_of_reach() -> None:
    laid = ("white:sword3", "white:sword3", "white:sword3")
    dice = ("white:sword1", "white:coin", "white:sword1")
    assert _choice(_against(laid, dice, roll=2)) == "reroll 1 3"


def test_keeps_a_swordless_roll_when_outbidding_is_out_of_reach() -> None:
    laid = ("white:sword3", "white:sword3", "white:sword3")
    assert _choice(_against(laid, ("white:coin", "white:coin", "white:yellow-die"))) == "stop"


def test_stops_when_safely_ahead() -> None:
    dice = ("white:sword3", "white:sword3", "white:coin")
    assert _choice(_against(("white:sword1",), dice)) == "stop"


def test_improves_a_thin_lead_with_its_spare_dice() -> None:
    dice = ("white:sword2", "white:coin", "white:coin")
    assert _choice(_against(("white:sword1",), dice)) == "reroll 2 3"


def test_keeps_growth_faces_early_and_rerolls_them_late() -> None:
    dice = ("white:yellow-die", "white:coin", "white:sword1")
    assert _choice(_against(("white:sword1",), dice)) == "reroll 2"
    late = _against(("white:sword1",), dice, posters=[15])
    late["seats"][0]["posters"] = [10, 10]
    late["seats"][1]["posters"] = [5, 10, 10, 10]
    assert _choice(late) == "reroll 1 2"


def _duel(dice: tuple[str, ...], **changes: Any) -> dict[str, Any]:
    """2 players, seat 1 holds the posters with one white sword; seat 0 rolled ``dice``."""
    seats = [seat(), seat(troop=(2, 0, 0))]
    data = position(players=2, seats=seats, holder=1, laid=("white:sword1",), dice=dice)
    data.update(changes)
    return data


def test_the_search_policy_stops_as_soon_as_it_outbids_a_single_rival() -> None:
    dice = ("white:sword2", "white:coin", "white:coin")
    assert _choice(_duel(dice)) == "reroll 2 3", "medium improves a thin lead"
    assert _choice(_duel(dice), GAME.search_bot()) == "stop"
    # against two rivals it plays as medium does
    three = _against(("white:sword1",), dice)
    assert _choice(three, GAME.search_bot()) == _choice(three) == "reroll 2 3"


def test_the_search_policy_keeps_growth_faces_all_game_against_a_single_rival() -> None:
    dice = ("white:yellow-die", "white:coin", "white:sword1")
    late = _duel(dice, posters=[15])
    late["seats"][0]["posters"] = [5, 10]
    late["seats"][1]["posters"] = [10, 10]
    assert _choice(late) == "reroll 1 2", "medium re-rolls a growth face late"
    assert _choice(late, GAME.search_bot()) == "reroll 2"
    three = _against(("white:sword1",), dice, posters=[15])
    three["seats"][0]["posters"] = [10, 10]
    three["seats"][1]["posters"] = [5, 10, 10, 10]
    assert _choice(three, GAME.search_bot()) == _choice(three) == "reroll 1 2"


@pytest.mark.slow
def test_beats_the_random_bot_in_most_two_player_matches() -> None:
    heuristic, random_bot = GAME.heuristic_bot(), RandomBot()
    matches, points = 200, 0.0
    for k in range(matches):
        state = GAME.new({"players": 2}, f"bot-strength-{k}")
        rng = random.Random(k)
        while (seat_ := GAME.to_move(state)) is not None:
            bot = heuristic if seat_ == k % 2 else random_bot
            GAME.apply(state, decide(bot, GAME, state, seat_, rng))
        outcome = GAME.outcome(state)
        assert outcome is not None
        points += outcome.payoff(k % 2, 2)
    assert points / matches >= 0.8
