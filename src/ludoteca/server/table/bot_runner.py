"""Bots at the table.

A bot decides in a world sampled from its seat's information set (``Game.sample_world``, in
``decide``), so a bot seat never sees the authoritative state. The searching level
(``hard``) thinks in a separate process, so its CPU time never stalls the event loop or other
tables. The cheap levels (``random``, ``easy``, ``medium``) decide on the event loop itself: a
decision takes 10-150 µs on average and under 0.5 ms at the 99th percentile in every game
(``bench/profile_actions.py``), less than handing it to a worker thread and back costs, and a
thread that holds the interpreter lock stalls the loop for up to its switch interval (5 ms).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from ludoteca.bots import make_bot
from ludoteca.core import Game, decide
from ludoteca.games import all_games, get

SEARCHING_LEVELS = frozenset({"hard"})

# Bots need variety, not secrecy: one generator per process, seeded once from the system (reading
# os.urandom per decision measured ~100 µs under load, as the call gives up the GIL).
_seeds = random.Random(secrets.randbits(128))


def _think(game_id: str, world_json: dict[str, Any], seat: int, level: str, seed: int) -> str:
    """Runs in a worker process: the bot's action text for ``seat`` in the given world."""
    game = get(game_id)
    return _decide(game, game.from_json(world_json), seat, level, seed)


def _ready() -> int:
    """Runs in a fresh worker process: load every game, so the first decision does not."""
    return len(all_games())


def _decide(game: Game[Any, Any], state: Any, seat: int, level: str, seed: int) -> str:
    """The bot's action text; ``decide`` samples the world it sees from ``state``."""
    action = decide(make_bot(level, game), game, state, seat, random.Random(seed))
    return game.action_to_text(state, action)


class BotRunner:
    """Decides bot actions: cheap levels at once, searching levels in worker processes."""

    def __init__(self, processes: int = 1) -> None:
        self._processes_wanted = processes
        self._processes: Executor | None = None

    def _process_pool(self) -> Executor:
        if self._processes is None:
            context = multiprocessing.get_context("spawn")
            self._processes = ProcessPoolExecutor(self._processes_wanted, mp_context=context)
        return self._processes

    def warm(self) -> None:
        """Start the worker processes now (once), so that a searching bot's first decision does
        not wait a second for a process to spawn and import the games."""
        if self._processes is None:
            pool = self._process_pool()
            for _ in range(self._processes_wanted):
                pool.submit(_ready)

    async def choose(self, game: Game[Any, Any], state: Any, seat: int, level: str) -> str:
        """The action text a ``level`` bot picks for ``seat``, seeing only what the seat sees."""
        seed = _seeds.getrandbits(64)
        if level not in SEARCHING_LEVELS:  # ``decide`` hands the bot a world sampled for the seat
            return _decide(game, state, seat, level, seed)
        # only a world sampled for the seat crosses to the process, as its JSON position
        world = game.sample_world(state, seat, random.Random(_seeds.getrandbits(64)))
        loop = asyncio.get_running_loop()
        text: str = await loop.run_in_executor(
            self._process_pool(), _think, game.spec.id, game.to_json(world), seat, level, seed
        )
        return text

    def close(self) -> None:
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)
