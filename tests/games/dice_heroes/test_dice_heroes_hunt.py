"""The hunt, capture with 3-4 players, the 2-player duel markers, posters and the end."""

from __future__ import annotations

from typing import Any

import pytest
from dice_heroes_helpers import GAME, kinds, load, only, play, position, seat, troop

from ludoteca.games.dice_heroes.rules import DiceState, poster_stack


def _holder_with_four_swords(dice: tuple[str, ...]) -> dict[str, Any]:
    """3 players: seat 2 holds the posters with 4 swords; seat 0 rolled ``dice``."""
    return position(
        players=3,
        seats=[seat(), seat(), seat(troop=(1, 0, 0))],
        holder=2,
        laid=("white:sword2", "white:sword2"),
        dice=dice,
    )


def test_equal_swords_do_not_outbid() -> None:
    state = load(_holder_with_four_swords(("white:sword2", "white:sword2", "white:coin")))
    hunt = only(play(state, "stop"), "hunt")
    assert (hunt["swords"], hunt["to_beat"], hunt["success"]) == (4, 4, False)
    view = GAME.observation(state, None)
    assert view["holder"] == 2 and view["laid_swords"] == 4
    assert troop(state, 0)["white"] == 3, "failed sword dice stay in the troop"


def test_strictly_more_swords_outbid_and_the_old_holder_takes_its_dice_back() -> None:
    state = load(_holder_with_four_swords(("white:sword2", "white:sword3", "white:coin")))
    hunt = only(play(state, "stop"), "hunt")
    assert (hunt["swords"], hunt["success"], hunt["previous"]) == (5, True, 2)
    view = GAME.observation(state, None)
    assert view["holder"] == 0 and view["laid_swords"] == 5
    assert troop(state, 2)["white"] == 3
    assert troop(state, 0)["white"] == 1


def test_outbid_dice_of_every_colour_return_to_their_owners_troop() -> None:
    data = position(
        players=3,
        seats=[seat(), seat(), seat(troop=(2, 0, 0), tableau=(0, 2, 2))],
        holder=2,
        laid=("white:sword1", "yellow:sword1", "red:sword1"),
        dice=("white:sword3", "white:sword1", "white:coin"),
    )
    state = load(data)
    assert only(play(state, "stop"), "hunt")["previous"] == 2
    assert troop(state, 2) == {"white": 3, "yellow": 1, "red": 1}


@pytest.mark.parametrize("players", [3, 4])
def test_capture_at_the_start_of_the_holders_turn(players: int) -> None:
    seats = [seat() for _ in range(players)]
    seats[1] = seat(troop=(1, 1, 0), tableau=(0, 1, 3))
    data = position(
        players=players,
        seats=seats,
        holder=1,
        laid=("white:sword3", "white:sword1", "yellow:sword2"),
        dice=("white:coin", "white:coin", "white:coin"),
    )
    state = load(data)
    events = play(state, "stop")
    assert kinds(events) == ["coins", "capture", "roll"]
    assert only(events, "capture") == {
        "kind": "capture",
        "seat": 1,
        "poster": 5,
        "dice_back": 3,
        "left": len(poster_stack(players)) - 1,
    }
    roll = only(events, "roll")
    assert roll["seat"] == 1 and len(roll["dice"]) == 5, "the turn is played with all dice"
    view = GAME.observation(state, None)
    assert view["holder"] is None and view["laid"] == []
    assert view["seats"][1]["posters"] == [5] and view["seats"][1]["score"] == 5
    assert view["posters_left"] == list(poster_stack(players)[1:])


def test_a_holder_outbid_before_its_turn_captures_nothing() -> None:
    data = position(
        players=3,
        seats=[seat(), seat(), seat(troop=(2, 0, 0))],
        holder=2,
        laid=("white:sword1",),
        to_move=1,
        dice=("white:coin", "white:coin", "white:sword2"),
    )
    state = load(data)
    play(state, "stop")  # seat 1 outbids with 2 swords
    events = play(state, "stop")  # seat 2's turn starts
    assert "capture" not in kinds(events)
    assert GAME.observation(state, None)["seats"][2]["posters"] == []


def _duel_after_holding(*faces: str | None) -> tuple[DiceState, list[dict[str, Any]]]:
    """2 players: seat 1 holds with 3 swords, seat 0 stops with coins; seat 1's turn starts."""
    data = position(
        seats=[seat(), seat(troop=(1, 0, 0))],
        holder=1,
        laid=("white:sword2", "white:sword1"),
        dice=("white:coin", "white:coin", "white:coin"),
    )
    state = load(data, *faces)
    return state, play(state, "stop")


def test_duel_unbeaten_once_takes_the_dice_back_and_lays_the_marker() -> None:
    state, events = _duel_after_holding()
    assert kinds(events) == ["coins", "marker", "roll"]
    assert only(events, "marker") == {"kind": "marker", "seat": 1, "dice_back": 2}
    view = GAME.observation(state, None)
    assert view["holder"] == 1 and view["laid"] == [] and view["laid_swords"] == 0
    assert view["seats"][1]["marker"] and not view["seats"][0]["marker"]
    assert view["seats"][1]["posters"] == []
    assert len(only(events, "roll")["dice"]) == 3
    assert view["turn"]["to_beat"] == 0


def test_duel_swords_beside_the_marker_then_capture_on_the_next_turn() -> None:
    state, _ = _duel_after_holding(
        *("white:sword1", "white:coin", "white:coin"),  # seat 1 rolls beside its marker
        *("white:sword1", "white:coin", "white:coin"),  # seat 0 ties
    )
    hunt = only(play(state, "stop"), "hunt")
    assert hunt["success"] and hunt["beside_marker"] and hunt["to_beat"] == 0
    view = GAME.observation(state, None)
    assert view["laid_swords"] == 1 and view["seats"][1]["marker"]
    assert view["turn"]["seat"] == 0 and view["turn"]["to_beat"] == 1
    events = play(state, "stop")
    assert not only(events, "hunt")["success"]
    capture = only(events, "capture")
    assert (capture["seat"], capture["poster"], capture["dice_back"]) == (1, 5, 1)
    view = GAME.observation(state, None)
    assert view["holder"] is None and not view["seats"][1]["marker"]
    assert view["seats"][1]["posters"] == [5]
    assert troop(state, 1)["white"] == 3


def test_duel_no_swords_beside_the_marker_lose_to_a_single_sword() -> None:
    state, _ = _duel_after_holding(
        *("white:coin", "white:coin", "white:coin"),
        *("white:sword1", "white:coin", "white:coin"),
    )
    assert "hunt" not in kinds(play(state, "stop"))
    assert GAME.observation(state, None)["turn"]["to_beat"] == 0
    hunt = only(play(state, "stop"), "hunt")
    assert (hunt["swords"], hunt["success"], hunt["previous"]) == (1, True, 1)
    view = GAME.observation(state, None)
    assert view["holder"] == 0 and not view["seats"][1]["marker"]


def test_duel_outbid_returns_dice_and_marker() -> None:
    state, _ = _duel_after_holding(
        *("white:sword1", "white:coin", "white:coin"),
        *("white:sword2", "white:coin", "white:coin"),
    )
    play(state, "stop")  # seat 1 lays 1 sword beside its marker
    events = play(state, "stop")
    assert only(events, "hunt")["previous"] == 1
    view = GAME.observation(state, None)
    assert view["holder"] == 0 and not any(s["marker"] for s in view["seats"])
    assert troop(state, 1)["white"] == 3
    assert "capture" not in kinds(events) and "marker" not in kinds(events)


@pytest.mark.parametrize(("players", "values"), [(2, [5, 10, 10, 10, 15]), (3, None), (4, None)])
def test_poster_stack_per_player_count(players: int, values: list[int] | None) -> None:
    expected = values or [5, 10, 10, 10, 10, 10, 15]
    state = GAME.new({"players": players}, "posters")
    assert GAME.observation(state, None)["posters_left"] == expected
    assert GAME.to_json(state)["posters"] == expected


def _last_poster(coins: tuple[int, int, int]) -> dict[str, Any]:
    """3 players, only the 15 left; seat 1 holds 8 swords and seat 0 cannot outbid."""
    return position(
        players=3,
        posters=[15],
        seats=[
            seat(coins=coins[0], posters=(5, 10)),
            seat(troop=(0, 0, 0), coins=coins[1], posters=(10, 10)),
            seat(coins=coins[2], posters=(10, 10)),
        ],
        holder=1,
        laid=("white:sword3", "white:sword3", "white:sword2"),
        dice=("white:sword1", "white:sword1", "white:sword1"),
    )


def test_taking_the_last_poster_ends_the_match_at_once() -> None:
    state = load(_last_poster((0, 0, 0)))
    events = play(state, "stop")
    assert kinds(events) == ["hunt", "capture", "end"], "no roll after the last capture"
    assert only(events, "end") == {"kind": "end", "scores": [15, 35, 20], "winners": [1]}
    assert GAME.is_over(state) and GAME.legal_actions(state) == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (15, 35, 20)


def test_equal_top_scores_share_the_win() -> None:
    state = load(_last_poster((20, 0, 3)))
    play(state, "stop")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.scores == (35, 35, 23)
    assert outcome.payoff(0, 3) == outcome.payoff(1, 3) == 0.5
