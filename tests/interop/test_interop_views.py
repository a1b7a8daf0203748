"""Neither the OpenSpiel nor the PettingZoo view of a seat shows what our own view of it hides.

The test changes exactly what a seat cannot see: ``Game.sample_world`` redraws every hidden part
(the other hand, reserves, set-aside heroes, the pool's order, the random stream) while keeping
``Game.observation(state, seat)``. If any framework view depended on a hidden part, some redraw
would change it. For Heroes the redraws are checked to really differ, so the test has teeth.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import ludoteca.interop.openspiel  # noqa: F401 - registers the games
from ludoteca.games import get
from ludoteca.interop.pettingzoo import raw_env

TABLES = [
    ("heroes", "ludoteca_heroes", 2),
    ("dice-heroes", "ludoteca_dice_heroes", 2),
    ("dice-heroes", "ludoteca_dice_heroes", 4),
    ("dwarves", "ludoteca_dwarves", 2),
    ("dwarves", "ludoteca_dwarves", 6),
]
IDS = [f"{g}-{p}" for g, _, p in TABLES]
WORLDS = 4
HIDDEN = {"heroes": ("hands", "reserves", "set_aside"), "dwarves": ("pool",)}
"""Fields of the full position (``Game.to_json``) some seat cannot see, per game."""

PRIVATE = pyspiel.IIGObservationType(
    public_info=False, perfect_recall=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
)
PUBLIC = pyspiel.IIGObservationType(
    public_info=True, perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE
)


def openspiel_views(game: Any, state: Any, seat: int) -> list[Any]:
    private = game.make_py_observer(PRIVATE)
    public = game.make_py_observer(PUBLIC)
    return [
        state.observation_string(seat),
        state.information_state_string(seat),
        list(state.observation_tensor(seat)),
        list(state.information_state_tensor(seat)),
        private.string_from(state, seat),
        public.string_from(state, seat),
        state.legal_actions(seat),
    ]


def decision_states(game: Any, count: int, seed: int) -> list[Any]:
    """Every few decisions of random playouts, the state (a seat to move, not over)."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(rng.randrange(len(state.chance_outcomes())))
                continue
            if rng.random() < 0.15:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


@pytest.mark.parametrize(("game_id", "name", "players"), TABLES, ids=IDS)
def test_openspiel_views_depend_only_on_what_the_seat_sees(
    game_id: str, name: str, players: int
) -> None:
    ours = get(game_id)
    game = pyspiel.load_game(name, {"players": players})
    rng = random.Random(7)
    hidden = HIDDEN.get(game_id, ())
    redrawn = 0
    for state in decision_states(game, 12, seed=players):
        for seat in range(players):
            seen = openspiel_views(game, state, seat)
            for _ in range(WORLDS):
                world = state.resample_from_infostate(seat, rng.random)
                assert ours.observation(world.position.state, seat) == ours.observation(
                    state.position.state, seat
                )
                assert openspiel_views(game, world, seat) == seen
                truth, drawn = (
                    ours.to_json(state.position.state),
                    ours.to_json(world.position.state),
                )
                redrawn += any(truth[key] != drawn[key] for key in hidden)
    assert redrawn > 0 or not hidden  # the redraws did change what was hidden


@pytest.mark.parametrize(("game_id", "name", "players"), TABLES, ids=IDS)
def test_pettingzoo_observations_depend_only_on_what_the_seat_sees(
    game_id: str, name: str, players: int
) -> None:
    table = raw_env(game_id, players=players)
    table.reset(seed=players)
    ours = table.game
    rng = random.Random(9)
    for _ in range(30):
        if ours.is_over(table.state):
            break
        state = table.state
        for seat, agent in enumerate(table.possible_agents):
            table.load(state)
            seen = table.observe(agent)
            for _ in range(WORLDS):
                table.load(ours.sample_world(state, seat, rng))
                obs = table.observe(agent)
                assert np.array_equal(obs["observation"], seen["observation"])
                assert np.array_equal(obs["action_mask"], seen["action_mask"])
        table.load(state)
        mask = table.observe(table.agent_selection)["action_mask"]
        table.step(int(rng.choice(np.flatnonzero(mask))))
