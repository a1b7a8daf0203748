"""Our ``hard`` bot against OpenSpiel's search bots, at equal wall time per decision.

    .venv/bin/python bench/openspiel_match.py --seconds 0.1 --matches 24
    .venv/bin/python bench/openspiel_match.py --matches 100 --opponents ismcts --clock cpu --jobs 2

For each game (two players), two pairings, seats alternating match by match:

* ``ismcts``: OpenSpiel's Python ISMCTS, given our resampler (``resample_from_infostate``, i.e.
  ``Game.sample_world``) for every simulation. OpenSpiel's ISMCTS refuses games typed perfect
  information, so Dice Heroes and Dwarves are loaded here typed imperfect: their hidden part is
  then the future dice and the pool's order, which the resampler redraws.
* ``mcts``: OpenSpiel's MCTS on a determinised state: each decision it searches one world drawn
  by our resampler, as if that world were the truth.

Both OpenSpiel bots use random rollouts and UCT (c = 1.4). They count simulations, not seconds,
so each of their decisions runs on a clock instead, as ours does: the search looks at the wall
clock before every simulation and stops once ``--seconds`` have passed since the decision began
(after at least ``MIN_SIMULATIONS``), and answers from the tree it has. Each decision thus gets
its own time, whatever its position costs per simulation, not a count estimated from a rate.
``hard`` is ``make_bot("hard")`` with its clock set to ``--seconds`` instead of the table's
0.8 s (it reads the clock after every playout). The table prints, per side,
the median and the 10th and 90th percentiles of the seconds each decision took, and OpenSpiel's
mean simulations per decision. The score is ours: 1 a win, 1/k a shared win or draw, 0 a loss or
when nobody wins (the Dwarves' dragon or an extra dwarf: column N). The head-to-head score is our
share of what the seats won, and an even share when no seat won (a match the dragon or an extra
dwarf took is no win of one seat over another); where every match has a winner at the table it
is the score. 95% intervals are normal intervals of the mean. Decisions with one legal action are
answered at once by both sides and not timed.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import multiprocessing
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ludoteca.bots.ismcts import IsmctsBot
from ludoteca.bots.levels import make_bot
from ludoteca.core import decide
from ludoteca.interop import openspiel as interop

GAMES = ("ludoteca_heroes", "ludoteca_dice_heroes", "ludoteca_dwarves")
OPPONENTS = ("ismcts", "mcts")
UCT_C = 1.4


CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}
"""What ``--clock`` reads for both sides: wall time, or this process's CPU time (fairer when
other work shares the machine)."""
MIN_SIMULATIONS = 2
"""Simulations an OpenSpiel decision runs whatever the clock says."""
UNBOUNDED = 1 << 40
"""The simulation count handed to OpenSpiel's bots: the clock stops them long before."""


class OutOfTime(Exception):
    """The decision's time is used: the search stops before its next simulation."""


class Deadline:
    """The clock of one OpenSpiel decision: ``tick`` before every simulation, raising
    ``OutOfTime`` once ``seconds`` have passed since ``start`` (after ``MIN_SIMULATIONS``)."""

    def __init__(self, seconds: float, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.start = clock()
        self.end = self.start + seconds
        self.simulations = 0

    def tick(self) -> None:
        if self.simulations >= MIN_SIMULATIONS and self.clock() >= self.end:
            raise OutOfTime
        self.simulations += 1


class TimedIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS on a clock: every simulation starts by sampling a root world."""

    deadline: Deadline

    def sample_root_state(self, state: Any) -> Any:
        self.deadline.tick()
        return super().sample_root_state(state)

    def timed_step(self, state: Any) -> int:
        """``step`` until the deadline: the final policy of the tree searched so far."""
        with contextlib.suppress(OutOfTime):
            self.run_search(state)
        actions, probabilities = zip(*self.get_final_policy(state, self._root_node), strict=True)
        return int(self._random_state.choice(actions, p=probabilities))


class TimedMcts(mcts.MCTSBot):  # type: ignore[misc]
    """OpenSpiel's MCTS on a clock: every simulation starts with the tree policy from the root."""

    deadline: Deadline
    root: Any = None

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self.root = root
        self.deadline.tick()
        return super()._apply_tree_policy(root, state)

    def timed_step(self, state: Any) -> int:
        """``step`` until the deadline: the most visited child of the tree searched so far."""
        with contextlib.suppress(OutOfTime):
            self.mcts_search(state)
        return int(self.root.best_child().action)


@dataclass
class Clock:
    """The seconds of every timed decision of one side, and OpenSpiel's simulations."""

    times: list[float] = field(default_factory=list)
    simulations: int = 0

    def add(self, seconds: float) -> None:
        self.times.append(seconds)

    def quantile(self, q: float) -> float:
        if not self.times:
            return 0.0
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def shown(self) -> str:
        return f"{self.quantile(0.5):.3f} [{self.quantile(0.1):.3f}-{self.quantile(0.9):.3f}]"


@dataclass
class Pairing:
    game: str
    opponent: str
    scores: list[float] = field(default_factory=list)
    head_to_head: list[float] = field(default_factory=list)
    nobody: int = 0
    ours: Clock = field(default_factory=Clock)
    theirs: Clock = field(default_factory=Clock)

    def merge(self, other: Pairing) -> None:
        """Add the matches of ``other`` (the same pairing, played in another process)."""
        self.scores += other.scores
        self.head_to_head += other.head_to_head
        self.nobody += other.nobody
        for mine, theirs in ((self.ours, other.ours), (self.theirs, other.theirs)):
            mine.times += theirs.times
            mine.simulations += theirs.simulations

    @staticmethod
    def interval(scores: list[float]) -> tuple[float, float, float]:
        n = len(scores)
        mean = sum(scores) / n
        var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n)
        return mean, max(0.0, mean - half), min(1.0, mean + half)


def load(name: str, players: int, rng_seed: int) -> Any:
    """The game typed imperfect information (see the module docstring)."""
    params: dict[str, Any] = {"players": players}
    if not interop.BY_NAME[name].explicit_chance:
        params["rng_seed"] = rng_seed
    return interop.load_typed_imperfect(name, params)


def opponent_search(
    kind: str, game: Any, state: Any, rng: random.Random, deadline: Deadline
) -> int:
    """The OpenSpiel bot's action, its search stopped by ``deadline``."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(32)))
    random_state = np.random.RandomState(rng.getrandbits(32))
    if kind == "ismcts":
        bot = TimedIsmcts(game, evaluator, UCT_C, UNBOUNDED, random_state=random_state)
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
        bot.deadline = deadline
        return bot.timed_step(state)
    world = state.resample_from_infostate(state.current_player(), rng.random)
    timed = TimedMcts(game, UCT_C, UNBOUNDED, evaluator, solve=False, random_state=random_state)
    timed.deadline = deadline
    return timed.timed_step(world)


def opponent_move(
    kind: str,
    game: Any,
    state: Any,
    rng: random.Random,
    clock: Clock,
    *,
    seconds: float,
    reading: Callable[[], float],
) -> int:
    """The OpenSpiel bot's action, searched until ``seconds`` have passed on this decision."""
    if len(state.legal_actions()) == 1:
        return int(state.legal_actions()[0])
    deadline = Deadline(seconds, reading)
    action = opponent_search(kind, game, state, rng, deadline)
    clock.add(reading() - deadline.start)
    clock.simulations += deadline.simulations
    return action


def play(
    pairing: Pairing,
    index: int,
    players: int,
    seconds: float,
    seed: int,
    *,
    reading: Callable[[], float] = time.perf_counter,
) -> None:
    game = load(pairing.game, players, rng_seed=seed * 1000 + index)
    shared = game.shared
    hard = make_bot("hard", shared.game)
    assert isinstance(hard, IsmctsBot)
    hard.options = replace(hard.options, seconds=seconds, clock=reading)
    ours = index % players
    rng = random.Random(f"{seed}/{pairing.game}/{pairing.opponent}/{index}")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
            continue
        seat = state.current_player()
        if seat == ours:
            start = reading()
            position = state.position.state
            action = decide(hard, shared.game, position, seat, rng)
            if len(state.legal_actions()) > 1:
                pairing.ours.add(reading() - start)
            state.apply_action(shared.encoding.action_id(shared.game, position, action))
        else:
            state.apply_action(
                opponent_move(
                    pairing.opponent,
                    game,
                    state,
                    rng,
                    pairing.theirs,
                    seconds=seconds,
                    reading=reading,
                )
            )
    returns = state.returns()
    pairing.scores.append(returns[ours])
    pairing.nobody += not any(returns)
    won = sum(returns)
    pairing.head_to_head.append(returns[ours] / won if won else 1 / len(returns))


def one_match(job: tuple[str, str, int, int, float, int, str]) -> Pairing:
    """One match of a pairing (in a worker process with ``--jobs``): a pairing of one match."""
    name, opponent, index, players, seconds, seed, clock = job
    pairing = Pairing(name, opponent)
    play(pairing, index, players, seconds, seed, reading=CLOCKS[clock])
    return pairing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.1, help="wall time per decision")
    parser.add_argument("--matches", type=int, default=24, help="matches per pairing")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall", help="the time both sides are given"
    )
    parser.add_argument(
        "--opponents", nargs="*", default=list(OPPONENTS), choices=OPPONENTS, help="OpenSpiel bots"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes playing matches side by side (use --clock cpu)",
    )
    args = parser.parse_args()
    if args.seconds <= 0 or args.matches < 2 or args.jobs < 1:
        parser.error("--seconds must be positive, --matches at least 2 and --jobs at least 1")
    if args.jobs > 1 and args.clock != "cpu":
        parser.error("--jobs shares the machine between matches: give both sides --clock cpu")
    begun = time.perf_counter()
    print(
        f"hard vs OpenSpiel {pyspiel.__name__} bots: {args.seconds:.2f} s ({args.clock}) "
        "per decision, "
        f"{args.matches} matches per pairing, {args.players} players, seed {args.seed}"
    )
    print(
        f"{'game':22} {'opponent':8} {'n':>3} {'our score':>9} {'95% interval':>15} "
        f"{'W':>3} {'D':>3} {'L':>3} {'N':>3} {'head to head':>21} "
        f"{'s/dec ours p50 [p10-p90]':>25} {'s/dec theirs p50 [p10-p90]':>27} {'sims/dec':>8}"
    )
    for name in args.games:
        for opponent in args.opponents:
            pairing = Pairing(name, opponent)
            jobs = [
                (name, opponent, index, args.players, args.seconds, args.seed, args.clock)
                for index in range(args.matches)
            ]
            with multiprocessing.Pool(args.jobs) as pool:
                for played in pool.imap_unordered(one_match, jobs):
                    pairing.merge(played)
            mean, low, high = pairing.interval(pairing.scores)
            head, head_low, head_high = pairing.interval(pairing.head_to_head)
            wins = sum(s == 1.0 for s in pairing.scores)
            losses = sum(s == 0.0 for s in pairing.scores) - pairing.nobody
            draws = len(pairing.scores) - wins - losses - pairing.nobody
            print(
                f"{name:22} {opponent:8} {len(pairing.scores):3d} {mean:9.3f} "
                f"[{low:5.3f}, {high:5.3f}] {wins:3d} {draws:3d} {losses:3d} {pairing.nobody:3d} "
                f"{head:5.3f} [{head_low:5.3f}, {head_high:5.3f}] "
                f"{pairing.ours.shown():>25} {pairing.theirs.shown():>27} "
                f"{pairing.theirs.simulations / max(1, len(pairing.theirs.times)):8.1f}",
                flush=True,
            )
    print(f"total {time.perf_counter() - begun:.0f} s")


if __name__ == "__main__":
    main()
