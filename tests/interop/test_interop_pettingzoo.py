"""Our games as PettingZoo environments, checked by PettingZoo's own ``api_test`` and
``seed_test``, plus what those do not cover: bad input, rewards and rendering."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ludoteca.core import InvalidParamsError, UnknownGameError
from ludoteca.interop.pettingzoo import env, raw_env

TABLES = [("heroes", 2), ("dice-heroes", 2), ("dice-heroes", 4), ("dwarves", 2), ("dwarves", 6)]
IDS = [f"{g}-{p}" for g, p in TABLES]

# Two advisory warnings of api_test fire for every environment with action masks: it wants a
# plain Box observation, and it checks the observation dict as if it were the array. PettingZoo
# exempts its own masked games (chess, go, connect four ...) by name; we exempt the same two.
MASKED_ENV_ADVISORIES = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


@pytest.mark.parametrize(("game_id", "players"), TABLES, ids=IDS)
@pytest.mark.filterwarnings(MASKED_ENV_ADVISORIES[0])
@pytest.mark.filterwarnings(MASKED_ENV_ADVISORIES[1])
def test_pettingzoo_api_test(game_id: str, players: int) -> None:
    api_test(env(game_id, players=players), num_cycles=400)


@pytest.mark.parametrize(("game_id", "players"), TABLES, ids=IDS)
def test_pettingzoo_seed_test(game_id: str, players: int) -> None:
    seed_test(lambda: env(game_id, players=players), num_cycles=400)


def play_out(table: raw_env, seed: int) -> tuple[list[int], dict[str, float]]:
    """A random masked playout; returns the actions and the final rewards."""
    table.reset(seed=seed)
    for agent in table.possible_agents:
        table.action_space(agent).seed(seed)
    actions: list[int] = []
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        action = int(table.action_space(agent).sample(obs["action_mask"]))
        actions.append(action)
        table.step(action)
    return actions, totals


def test_a_seed_replays_a_match_and_another_seed_deals_another() -> None:
    table = raw_env("heroes")
    first, rewards = play_out(table, 11)
    again, _ = play_out(table, 11)
    other, _ = play_out(table, 12)
    assert first == again and first != other
    assert sorted(rewards.values()) in ([0.0, 1.0], [0.5, 0.5])


def test_only_the_agent_to_move_has_a_mask() -> None:
    table = raw_env("dwarves", players=4)
    table.reset(seed=3)
    mover = table.agent_selection
    for agent in table.possible_agents:
        mask = table.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == mover)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    table = raw_env("dice-heroes", players=3)
    table.reset(seed=5)
    mask = table.observe(table.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = table.game.to_json(table.state)
    with pytest.raises(ValueError, match="not legal"):
        table.step(illegal)
    with pytest.raises(ValueError, match="whole number"):
        table.step("stop")
    assert table.game.to_json(table.state) == before


def test_bad_construction_is_refused() -> None:
    with pytest.raises(InvalidParamsError, match="not 9"):
        raw_env("dwarves", players=9)
    with pytest.raises(UnknownGameError):
        raw_env("chess")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("heroes", render_mode="rgb_array")


def test_render_draws_the_spectators_table() -> None:
    table = raw_env("heroes", render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert text is not None and "north camp" in text
    assert text == table.game.describe(table.state, None)
