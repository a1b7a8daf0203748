"""Our games as PettingZoo AEC environments.

    from ludoteca.interop.pettingzoo import env

    table = env(game_id, players=4)  # any game of the catalogue with an encoding
    table.reset(seed=7)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, info = table.last()
        mask = obs["action_mask"]
        action = None if terminated or truncated else table.action_space(agent).sample(mask)
        table.step(action)

Agents are ``player_0`` .. ``player_<n-1>`` (seat order). An observation is
``{"observation": float32 tensor, "action_mask": int8 mask}``: the tensor is the game's documented
layout (``docs/research.md``) computed from ``Game.observation(state, seat)``; the mask marks the
legal action ids of the agent to move (all 0 for the others). Rewards come once, at the end:
``Outcome.payoff`` (1 for a win, shared on a shared win or a draw, else 0). ``reset(seed=s)``
deals the match from the seed ``pettingzoo:<s>``, so a seed replays the same match; chance
happens inside ``step`` from the match's own seeded stream.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Hashable
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ludoteca.core import JSON
from ludoteca.games import get

from .encoding import Encoding, encoding, tensor

Observation = dict[str, npt.NDArray[Any]]


class raw_env(AECEnv):  # type: ignore[misc]
    """An AEC environment for one of our games, without PettingZoo's checking wrappers."""

    RENDER_MODES = ("human", "ansi")

    def __init__(
        self, game_id: str, players: int | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.game = get(game_id)
        spec = self.game.spec
        self.params: JSON = spec.params({} if players is None else {"players": players})
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(self.RENDER_MODES),
            "name": f"ludoteca_{game_id.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        n = self.params["players"]
        self.encoding: Encoding = encoding(game_id, n)
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agents = self.possible_agents[:]
        actions = len(self.encoding.actions)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, np.inf, (self.encoding.size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.seeder: random.Random | None = None
        self.state: Any = None
        self.legal: dict[int, Hashable] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def seat(self, agent: str) -> int:
        try:
            return self.possible_agents.index(agent)
        except ValueError:
            raise ValueError(f"no agent {agent!r} (agents: {self.possible_agents})") from None

    # ------------------------------------------------------------------------------- episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: from ``seed`` when given, else the next seed of the last seeded reset.

        ``options`` is accepted (PettingZoo passes it) and unused.
        """
        if seed is not None:
            self.seeder = random.Random(seed)
        elif self.seeder is None:
            self.seeder = random.Random(secrets.randbits(64))
        match_seed = str(seed) if seed is not None else f"{self.seeder.getrandbits(64):016x}"
        self.load(self.game.new(self.params, f"pettingzoo:{match_seed}"))

    def load(self, state: Any) -> None:
        """Go on from a position of this game, e.g. one read with ``Game.from_json``."""
        if self.game.players(state) != len(self.possible_agents):
            raise ValueError(
                f"a position for {self.game.players(state)} players, not for this table"
            )
        self.state = state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def _settle(self) -> None:
        """Point at the seat to move and list its actions (or end the match)."""
        seat = self.game.to_move(self.state)
        if seat is None:
            self.legal = {}
            outcome = self.game.outcome(self.state)
            n = len(self.possible_agents)
            for agent in self.agents:
                seat = self.seat(agent)
                self.rewards[agent] = 0.0 if outcome is None else outcome.payoff(seat, n)
                self.terminations[agent] = True
            return
        self.legal = self.encoding.legal(self.game, self.state)
        self.agent_selection = self.possible_agents[seat]

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for the agent to move; ValueError, nothing changed,
        when it is not one of its legal ids."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is a whole number id, not {action!r}")
        chosen = self.legal.get(int(action))
        if chosen is None:
            raise ValueError(f"action {int(action)} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.game.apply_unchecked(self.state, chosen)
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ---------------------------------------------------------------------------- observing
    def observe(self, agent: str) -> Observation:
        seat = self.seat(agent)
        mask = np.zeros(len(self.encoding.actions), dtype=np.int8)
        if self.game.to_move(self.state) == seat:
            mask[list(self.legal)] = 1
        return {
            "observation": tensor(self.encoding, self.game, self.state, seat),
            "action_mask": mask,
        }

    def render(self) -> str | None:
        """The table as a spectator sees it, as text (printed in ``human`` mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        text = self.game.describe(self.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def env(game_id: str, players: int | None = None, render_mode: str | None = None) -> Any:
    """The environment with PettingZoo's order-enforcing and bounds-checking wrappers."""
    wrapped = raw_env(game_id, players, render_mode)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
