"""No bot reads hidden state: two positions that differ only in what the seat to move cannot see
(the rivals' cards, the order of face-down piles, the dice to come) get the same decision from the
same bot randomness, at every level and in every game, through ``ludoteca.core.decide``; so does
the policy ``hard`` searches with (``Game.search_bot``, here the level ``search``)."""

from __future__ import annotations

import json
import random
from itertools import islice

import pytest
from bots_positions import positions

from ludoteca.bots import LEVELS, make_bot
from ludoteca.core import decide
from ludoteca.games import all_games, get

CASES = [
    pytest.param(
        game_id,
        players,
        level,
        id=f"{game_id}-{players}p-{level}",
        marks=[pytest.mark.slow] if level == "hard" else [],  # a search of its own each turn
    )
    for game_id, game in all_games().items()
    for players in sorted({2, game.spec.max_players})
    for level in (*LEVELS, "search")
]


@pytest.mark.parametrize(("game_id", "players", "level"), CASES)
def test_decisions_depend_only_on_what_the_seat_sees(
    game_id: str, players: int, level: str
) -> None:
    game = get(game_id)
    states = list(islice(positions(game, players, f"hidden-{level}", every=3), 4))
    if len(states) < 4:  # a game of short matches (Liar's Dice: an early call): every position
        states = list(islice(positions(game, players, f"hidden-{level}"), 4))
    assert len(states) == 4
    for n, state in enumerate(states):
        seat = game.to_move(state)
        assert seat is not None
        twin = game.sample_world(state, seat, random.Random(1000 + n))
        assert game.observation(twin, seat) == game.observation(state, seat)
        assert json.dumps(game.to_json(twin)) != json.dumps(game.to_json(state))
        choices = [
            decide(
                game.search_bot() if level == "search" else make_bot(level, game, iterations=25),
                game,
                s,
                seat,
                random.Random(n),
            )
            for s in (state, twin)
        ]
        assert choices[0] == choices[1]
        assert choices[0] in game.legal_actions(state)
