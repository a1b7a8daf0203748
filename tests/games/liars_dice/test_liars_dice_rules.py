"""Liar's Dice rules as positions in its notation (``docs/notation/liars-dice.md``): wild sixes,
who loses a challenge, the rounds after it, the bidding rules, the table options, what each seat
sees, and the rule of thumb."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ludoteca.core import (
    IllegalActionError,
    InvalidActionError,
    InvalidParamsError,
    InvalidPositionError,
    Match,
    Stream,
    decide,
    verify,
)
from ludoteca.games import get
from ludoteca.games.liars_dice.bot import HeuristicBot, chance_true, favourite

GAME = get("liars-dice")


def position(**changes: Any) -> dict[str, Any]:
    """Round 1 of a three-player, two-dice table, seat 0 to bid."""
    base: dict[str, Any] = {
        "game": "liars-dice",
        "players": 3,
        "dice": 2,
        "rounds": "last-standing",
        "bidding": "reset-face",
        "round": 1,
        "starter": 0,
        "to_move": 0,
        "hands": [[6, 2], [2, 5], [3, 6]],
        "counts": [2, 2, 2],
        "bids": [],
        "out": [],
        "loser": None,
        "showdown": None,
        "rng": {"seed": "rules", "used": 7},
    }
    return {**base, **changes}


def load(**changes: Any) -> Any:
    return GAME.from_json(position(**changes))


def challenge(state: Any) -> dict[str, Any]:
    events = GAME.apply_text(state, "liar")
    return next(e.for_seat(None) for e in events if e.kind == "challenge")


def test_sixes_count_for_every_face_but_six() -> None:
    state = load(bids=[[0, 4, 2]], to_move=1)  # four twos: 2, 2 and the sixes 6, 6 — true
    shown = challenge(state)
    assert (shown["count"], shown["loser"]) == (4, 1)  # the challenger loses
    state = load(bids=[[0, 3, 6]], to_move=1)  # three sixes: only two — false
    shown = challenge(state)
    assert (shown["count"], shown["loser"]) == (2, 0)  # the bidder loses


def test_the_loser_loses_a_die_and_starts_the_next_round() -> None:
    state = load(bids=[[0, 3, 6]], to_move=1)
    challenge(state)
    data = GAME.to_json(state)
    assert data["counts"] == [1, 2, 2] and data["round"] == 2 and data["to_move"] == 0
    assert [len(h) for h in data["hands"]] == [1, 2, 2] and data["bids"] == []
    view = GAME.observation(state, 2)
    assert view["showdown"]["hands"] == [[2, 6], [2, 5], [3, 6]] and view["showdown"]["loser"] == 0


def test_a_player_out_of_dice_is_skipped_and_the_last_with_dice_wins() -> None:
    state = load(counts=[1, 1, 2], hands=[[1], [2], [3, 6]], bids=[[1, 3, 4]], to_move=2)
    challenge(state)  # three fours: only the six — seat 1 bid it and goes out
    data = GAME.to_json(state)
    assert data["out"] == [1] and data["to_move"] == 2  # the next player still in starts
    assert GAME.to_move(state) == 2
    GAME.apply_text(state, "bid 1 1")
    assert GAME.to_move(state) == 0  # seat 1 is skipped
    state = load(counts=[0, 1, 1], hands=[[], [2], [5]], out=[0], bids=[[1, 2, 4]], to_move=2)
    challenge(state)  # two fours: none — seat 1 goes out, seat 2 wins
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (2,)
    assert outcome.scores == (0.0, 1.0, 2.0)  # places: the first out last
    assert GAME.legal_actions(state) == []


def test_one_round_ends_at_the_first_challenge() -> None:
    state = load(rounds="one", bids=[[0, 5, 2]], to_move=1)
    challenge(state)  # five twos: four — the bidder, seat 0, loses; the others win together
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1, 2) and outcome.draw
    assert GAME.to_json(state)["counts"] == [2, 2, 2]


def test_both_bidding_rules() -> None:
    face = load(bids=[[0, 2, 4]], to_move=1)
    texts = GAME.legal_texts(face)
    assert texts[:3] == ["bid 2 5", "bid 2 6", "bid 3 1"] and texts[-1] == "liar"
    quantity = load(bidding="reset-quantity", bids=[[0, 2, 4]], to_move=1)
    texts = GAME.legal_texts(quantity)
    assert texts[:5] == ["bid 3 4", "bid 4 4", "bid 5 4", "bid 6 4", "bid 1 5"]
    with pytest.raises(IllegalActionError, match="a greater face, or the same face"):
        GAME.apply_text(quantity, "bid 6 3")
    with pytest.raises(IllegalActionError, match="a greater quantity, or the same quantity"):
        GAME.apply_text(face, "bid 2 3")


def test_bad_actions_say_why_and_change_nothing() -> None:
    state = load()
    before = GAME.to_json(state)
    with pytest.raises(IllegalActionError, match="first action must be a bid"):
        GAME.apply_text(state, "liar")
    with pytest.raises(IllegalActionError, match="only 6 dice are in play"):
        GAME.apply_text(state, "bid 7 1")
    for text in ("bid 0 3", "bid 2 7", "bid two 3", "raise", "bid 31 1"):
        with pytest.raises(InvalidActionError):
            GAME.apply_text(state, text)
    assert GAME.to_json(state) == before
    top = load(bids=[[0, 6, 6]], to_move=1)
    assert GAME.legal_texts(top) == ["liar"]
    with pytest.raises(IllegalActionError, match="highest bid"):
        GAME.apply_text(top, "bid 6 6")
    assert GAME.read_action(state, "challenge") == GAME.read_action(state, "liar")


def test_the_table_options_are_checked_and_defaulted() -> None:
    params = GAME.spec.params({"players": 4})
    assert params == {"players": 4, "dice": 5, "rounds": "last-standing", "bidding": "reset-face"}
    for bad in (
        {"dice": 6},
        {"dice": 0},
        {"dice": True},
        {"dice": 2.0},
        {"rounds": "two"},
        {"bidding": "reset"},
        {"cups": 2},
    ):
        with pytest.raises(InvalidParamsError):
            GAME.spec.params({"players": 2, **bad})
    state = GAME.new({"players": 3, "dice": 1, "rounds": "one"}, "options")
    assert [len(h) for h in state.hands] == [1, 1, 1]


def test_the_draws_come_in_the_documented_order() -> None:
    state = GAME.new({"players": 3, "dice": 2}, "order")
    rng = Stream("order")
    assert state.starter == rng.below(3)
    assert state.hands == [[rng.below(6) + 1 for _ in range(2)] for _ in range(3)]


def test_each_seat_sees_only_its_own_dice() -> None:
    state = load()
    assert GAME.observation(state, 1)["hand"] == [2, 5]
    assert GAME.observation(state, None)["hand"] is None
    other = load(hands=[[6, 2], [1, 1], [4, 4]])
    assert GAME.observation(state, 0) == GAME.observation(other, 0)
    assert GAME.observation(state, 1) != GAME.observation(other, 1)


def test_loading_refuses_impossible_positions() -> None:
    for bad in (
        {"hands": [[6], [2, 5], [3, 6]]},
        {"counts": [0, 2, 2], "hands": [[], [2, 5], [3, 6]]},
        {"bids": [[0, 3, 2], [1, 2, 5]], "to_move": 2},
        {"bids": [[0, 7, 2]], "to_move": 1},
        {"dice": 6},
        {"hands": [[6, 7], [2, 5], [3, 6]]},
        {"to_move": 5},
    ):
        with pytest.raises(InvalidPositionError):
            load(**bad)


def test_the_rule_of_thumb() -> None:
    """The clock's play: the smallest raise on its most common face; a challenge when nothing is
    left to raise, or when the last bid looks more false than its raise looks true."""
    bot, rng = HeuristicBot(), random.Random(1)
    assert favourite([2, 6]) == 2 and favourite([6, 6]) == 6 and favourite([3, 5, 5]) == 5
    state = load()
    assert GAME.action_to_text(state, bot.choose(GAME, state, 0, rng)) == "bid 1 2"
    state = load(bids=[[2, 1, 5]], to_move=0)
    assert GAME.action_to_text(state, bot.choose(GAME, state, 0, rng)) == "bid 2 2"
    state = load(bids=[[2, 6, 5]], to_move=0)  # six fives of six dice, holding none: a lie
    assert GAME.action_to_text(state, bot.choose(GAME, state, 0, rng)) == "liar"
    state = load(bids=[[2, 6, 6]], to_move=0)
    assert GAME.action_to_text(state, bot.choose(GAME, state, 0, rng)) == "liar"
    assert chance_true([2, 6], 6, 2, 2) == 1.0 and chance_true([2, 6], 6, 7, 2) == 0.0
    assert chance_true([1, 1], 4, 1, 6) == pytest.approx(1 - (5 / 6) ** 2)


def test_a_record_keeps_the_table_options_and_verifies() -> None:
    """The options are the match's params: the record carries them, verifying it replays that
    table, and a record naming an option the game does not have fails."""
    match = Match(
        GAME, {"players": 3, "dice": 1, "rounds": "one", "bidding": "reset-quantity"}, "o"
    )
    rng, bot = random.Random(2), GAME.heuristic_bot()
    while (seat := match.to_move) is not None:
        action = decide(bot, GAME, match.state, seat, rng)
        match.act(seat, GAME.action_to_text(match.state, action), by="bot")
    record = json.loads(match.record().dumps())
    assert record["params"] == {
        "players": 3,
        "dice": 1,
        "rounds": "one",
        "bidding": "reset-quantity",
    }
    assert verify(record, get).ok
    assert not verify({**record, "params": {**record["params"], "dice": 9}}, get).ok
