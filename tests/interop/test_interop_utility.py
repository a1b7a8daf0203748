"""Both adapters pay what a game declares of its utility: a win shared by some of the seats pays
those seats only. Dice Heroes' shared wins at 3 and 4 players used to pay the other seats
1/players each too (returns summing to 1.333 and 1.5 where OpenSpiel is told 1)."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

import ludoteca.interop.openspiel  # noqa: F401 - registers the games
from kit.matches import random_end
from ludoteca.core import Outcome
from ludoteca.games import get
from ludoteca.interop.chance import Position
from ludoteca.interop.openspiel_entry import BY_NAME
from ludoteca.interop.pettingzoo import raw_env


def shared_win(game_id: str, players: int) -> tuple[Any, Outcome]:
    """The end of the first random match (seeded: the same every run) that some but not all of
    the seats win together."""
    game = get(game_id)
    for k in range(5_000):
        state = random_end(game, players, f"shared-{k}", random.Random(k))
        outcome = game.outcome(state)
        assert outcome is not None
        if 1 < len(outcome.winners) < players:
            return state, outcome
    raise AssertionError(f"no shared win in 5,000 random {game_id} matches of {players}")


def expected(outcome: Outcome, players: int) -> list[float]:
    share = 1.0 / len(outcome.winners)
    return [share if seat in outcome.winners else 0.0 for seat in range(players)]


@pytest.mark.parametrize("players", [3, 4])
def test_openspiel_returns_of_a_shared_win(players: int) -> None:
    state, outcome = shared_win("dice-heroes", players)
    game = pyspiel.load_game("ludoteca_dice_heroes", {"players": players})
    position = game.new_initial_state()
    position.position = Position(get("dice-heroes"), {"players": players}, state)
    assert position.is_terminal()
    assert position.returns() == expected(outcome, players)
    assert sum(position.returns()) == pytest.approx(game.utility_sum())
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert BY_NAME["ludoteca_dice_heroes"].constant_sum


@pytest.mark.parametrize("players", [3, 4])
def test_pettingzoo_rewards_of_a_shared_win(players: int) -> None:
    state, outcome = shared_win("dice-heroes", players)
    table = raw_env("dice-heroes", players=players)
    table.load(state)
    assert all(table.terminations.values())
    assert [table.rewards[agent] for agent in table.possible_agents] == expected(outcome, players)
