"""The heuristic bot: takes wins, blocks invasions, strikes hard, and beats random play."""

from __future__ import annotations

import random

from heroes_positions import load

from ludoteca.bots import RandomBot
from ludoteca.core import decide
from ludoteca.games.heroes import GAME
from ludoteca.games.heroes.rules import CAMP, CAMP_ROW, DRAW, Action, HeroesState, connection

BOT = GAME.heuristic_bot()


def choice(state: HeroesState, seed: int = 0) -> Action:
    seat = GAME.to_move(state)
    assert seat is not None
    action = decide(BOT, GAME, state, seat, random.Random(seed))
    assert isinstance(action, tuple)
    return action


def test_it_enters_the_rival_camp_when_it_can() -> None:
    rooms = {"b1": ["gold paladin"], "b2": ["gold paladin"], "b3": ["gold cleric"]}
    rooms |= {"b4": ["gold wizard"], "b5": ["gold rogue"], "a1": ["gold bard"]}
    state = load(rooms=rooms, hands={"gold": ["halfling", "fighter"]})
    assert "place fighter a2" in GAME.legal_texts(state)  # would seal ward a1 instead
    for seed in range(5):
        action = choice(state, seed)
        assert action[0] == "place" and action[2] == CAMP


def test_it_takes_a_relic_win() -> None:
    rooms = {"a1": ["gold bard"], "b1": ["gold ranger"], "a2": ["gold fighter"]}
    state = load(
        rooms=rooms,
        hands={"gold": ["paladin", "cleric"]},
        sealed={"a3": "gold", "b3": "gold", "b4": "gold"},
        relics={"gold": 5, "blue": 0},
    )
    trial = state.clone()
    GAME.apply(trial, choice(state))
    outcome = GAME.outcome(trial)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "relics"


def test_it_cuts_a_rival_chain_that_reaches_its_camp() -> None:
    blue = ["bard", "bard", "ranger", "ranger", "fighter"]
    rooms = {f"c{row}": [f"blue {role}"] for row, role in zip(range(5, 0, -1), blue, strict=True)}
    rooms |= {"a3": ["gold cleric"], "a4": ["gold wizard"], "b4": ["gold fighter"]}
    state = load(rooms=rooms, hands={"gold": ["paladin", "rogue"], "blue": ["halfling"]})
    assert connection(state, 1) & CAMP_ROW[0]
    for seed in range(5):
        trial = state.clone()
        GAME.apply(trial, choice(state, seed))
        assert not connection(trial, 1) & CAMP_ROW[0]


def test_its_fighter_strikes_the_strongest_rival_top() -> None:
    rooms = {
        "b1": ["gold bard"],
        "b2": ["gold fighter"],
        "a2": ["blue bard"],
        "c2": ["blue paladin"],
        "b3": ["blue ranger"],
    }
    state = load(rooms=rooms, hands={"gold": ["cleric"]}, pending={"kind": "strike", "room": "b2"})
    assert choice(state) == ("strike", 5)


def test_it_draws_when_its_hand_is_thin() -> None:
    state = load(hands={"gold": ["halfling"]})
    assert choice(state) == DRAW


def test_it_beats_random_play() -> None:
    rng = random.Random(11)
    wins, matches = 0, 40
    for k in range(matches):
        seat = k % 2
        state = GAME.new(None, f"bot-vs-random-{k}")
        while not GAME.is_over(state):
            mover = GAME.to_move(state)
            assert mover is not None
            bot = BOT if mover == seat else RandomBot()
            action = decide(bot, GAME, state, mover, rng)
            assert isinstance(action, tuple)
            GAME.apply(state, action)
        outcome = GAME.outcome(state)
        assert outcome is not None
        wins += seat in outcome.winners
    assert wins >= 36
