"""The hard bot at the table: decision times on the clock, and ISMCTS iterations per second."""

from __future__ import annotations

import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ludoteca.bots.levels import hard_bot
from ludoteca.core import Game, decide
from ludoteca.games import get


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the hard bot: wall seconds (world sampling included) and search figures
    (0 iterations when it answered without searching: a forced move or a sure win)."""

    seconds: float
    iterations: int
    search_seconds: float


def positions(game: Game[Any, Any], count: int, seed: str) -> list[Any]:
    """``count`` positions with a choice, from seeded matches of the heuristic against itself,
    taken every third decision so that openings, middles and ends all appear."""
    heuristic = game.heuristic_bot()
    found: list[Any] = []
    match = 0
    while len(found) < count:
        rng = random.Random(f"{seed}/{match}")
        state = game.new({"players": 2}, f"{seed}-{match}")
        step = 0
        while len(found) < count and (seat := game.to_move(state)) is not None:
            if len(game.legal_actions(state)) > 1:
                step += 1
                if step % 3 == 0:
                    found.append(state.clone())
            game.apply(state, heuristic.choose(game, state.clone(), seat, rng))
        match += 1
    return found


def _decide(task: tuple[str, dict[str, Any], int]) -> Decision:
    game_id, position, index = task
    game = get(game_id)
    state = game.from_json(position)
    seat = game.to_move(state)
    assert seat is not None
    bot = hard_bot(game)
    start = time.perf_counter()
    decide(bot, game, state, seat, random.Random(index))
    seconds = time.perf_counter() - start
    if bot.last is None:
        return Decision(seconds, 0, 0.0)
    return Decision(seconds, bot.last.iterations, bot.last.seconds)


def decisions(game_id: str, count: int, jobs: int, seed: str = "decisions") -> list[Decision]:
    """The hard bot's decisions (on its clock) in ``count`` positions, ``jobs`` at a time."""
    game = get(game_id)
    tasks = [(game_id, game.to_json(s), i) for i, s in enumerate(positions(game, count, seed))]
    if jobs <= 1:
        return list(map(_decide, tasks))
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_decide, tasks))


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


@dataclass(frozen=True, slots=True)
class Timing:
    """What the hard bot does on its clock in one game."""

    game: str
    decisions: list[Decision]

    @property
    def searched(self) -> list[Decision]:
        return [d for d in self.decisions if d.iterations]

    @property
    def iterations_per_second(self) -> float:
        searched = self.searched
        return sum(d.iterations for d in searched) / sum(d.search_seconds for d in searched)

    @property
    def median_iterations(self) -> int:
        return int(percentile([float(d.iterations) for d in self.searched], 0.5))

    def line(self) -> str:
        seconds = [d.seconds for d in self.decisions]
        iterations = [float(d.iterations) for d in self.searched]
        return (
            f"  {self.game:<12} {len(seconds):>4} decisions  p50 {percentile(seconds, 0.5):.3f}s "
            f"p99 {percentile(seconds, 0.99):.3f}s max {max(seconds):.3f}s | "
            f"{self.iterations_per_second:>6,.0f} iterations/s, per decision p10 "
            f"{percentile(iterations, 0.1):,.0f} p50 {percentile(iterations, 0.5):,.0f}"
        )


def timing(game_id: str, count: int, jobs: int) -> Timing:
    return Timing(game_id, decisions(game_id, count, jobs))
