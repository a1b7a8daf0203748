"""Our ``hard`` bot against OpenSpiel's search bots, at equal wall time per decision.

    .venv/bin/python bench/openspiel_match.py --seconds 0.1 --matches 24

For each game (two players), two pairings, seats alternating match by match:

* ``ismcts``: OpenSpiel's Python ISMCTS, given our resampler (``resample_from_infostate``, i.e.
  ``Game.sample_world``) for every simulation. OpenSpiel's ISMCTS refuses games typed perfect
  information, so Dice Heroes and Dwarves are loaded here typed imperfect: their hidden part is
  then the future dice and the pool's order, which the resampler redraws.
* ``mcts``: OpenSpiel's MCTS on a determinised state: each decision it searches one world drawn
  by our resampler, as if that world were the truth.

Both OpenSpiel bots use random rollouts and UCT (c = 1.4). They count simulations, not seconds,
so every decision is measured on its own position: a probe of ``PROBE`` simulations there gives
the rate, and the search proper gets that rate times ``--seconds`` (at least 2 simulations). Only
the search proper is timed. ``hard`` is ``make_bot("hard")`` with its clock set to ``--seconds``
instead of the table's 0.8 s (it keeps its clock to a few actions). The table prints, per side,
the median and the 10th and 90th percentiles of the seconds each decision took, and OpenSpiel's
mean simulations per decision. The score is ours: 1 a win, 1/k a shared win or draw, 0 a loss or
when nobody wins (the Dwarves' dragon or an extra dwarf: column N); 95% intervals are normal
intervals of the mean score. Decisions with one legal action are answered at once by both sides
and not timed.
"""

from __future__ import annotations

import argparse
import math
import random
import time
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
UCT_C = 1.4


PROBE = 4
"""Simulations that measure OpenSpiel's rate on a decision's own position before its search."""


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
    nobody: int = 0
    ours: Clock = field(default_factory=Clock)
    theirs: Clock = field(default_factory=Clock)

    def interval(self) -> tuple[float, float, float]:
        n = len(self.scores)
        mean = sum(self.scores) / n
        var = sum((s - mean) ** 2 for s in self.scores) / (n - 1) if n > 1 else 0.0
        half = 1.96 * math.sqrt(var / n)
        return mean, max(0.0, mean - half), min(1.0, mean + half)


def load(name: str, players: int, rng_seed: int) -> Any:
    """The game typed imperfect information (see the module docstring)."""
    params: dict[str, Any] = {"players": players}
    if not interop.BY_NAME[name].explicit_chance:
        params["rng_seed"] = rng_seed
    return interop.load_typed_imperfect(name, params)


def opponent_search(kind: str, game: Any, state: Any, rng: random.Random, sims: int) -> int:
    """The OpenSpiel bot's action after ``sims`` simulations."""
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(32)))
    if kind == "ismcts":
        bot = ismcts.ISMCTSBot(
            game, evaluator, UCT_C, sims, random_state=np.random.RandomState(rng.getrandbits(32))
        )
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
        return int(bot.step(state))
    world = state.resample_from_infostate(state.current_player(), rng.random)
    bot = mcts.MCTSBot(
        game,
        UCT_C,
        sims,
        evaluator,
        solve=False,
        random_state=np.random.RandomState(rng.getrandbits(32)),
    )
    return int(bot.step(world))


def opponent_move(
    kind: str, game: Any, state: Any, rng: random.Random, clock: Clock, *, seconds: float
) -> int:
    """The OpenSpiel bot's action, searched for ``seconds`` worth of simulations at the rate a
    probe measures on this very position."""
    if len(state.legal_actions()) == 1:
        return int(state.legal_actions()[0])
    start = time.perf_counter()
    opponent_search(kind, game, state, random.Random(rng.getrandbits(32)), PROBE)
    rate = PROBE / max(time.perf_counter() - start, 1e-6)
    sims = max(2, round(rate * seconds))
    start = time.perf_counter()
    action = opponent_search(kind, game, state, rng, sims)
    clock.add(time.perf_counter() - start)
    clock.simulations += sims
    return action


def play(pairing: Pairing, index: int, players: int, seconds: float, seed: int) -> None:
    game = load(pairing.game, players, rng_seed=seed * 1000 + index)
    shared = game.shared
    hard = make_bot("hard", shared.game)
    assert isinstance(hard, IsmctsBot)
    hard.options = replace(hard.options, seconds=seconds)
    ours = index % players
    rng = random.Random(f"{seed}/{pairing.game}/{pairing.opponent}/{index}")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
            continue
        seat = state.current_player()
        if seat == ours:
            start = time.perf_counter()
            position = state.position.state
            action = decide(hard, shared.game, position, seat, rng)
            if len(state.legal_actions()) > 1:
                pairing.ours.add(time.perf_counter() - start)
            state.apply_action(shared.encoding.action_id(shared.game, position, action))
        else:
            state.apply_action(
                opponent_move(pairing.opponent, game, state, rng, pairing.theirs, seconds=seconds)
            )
    returns = state.returns()
    pairing.scores.append(returns[ours])
    pairing.nobody += not any(returns)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.1, help="wall time per decision")
    parser.add_argument("--matches", type=int, default=24, help="matches per pairing")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.seconds <= 0 or args.matches < 2:
        parser.error("--seconds must be positive and --matches at least 2")
    begun = time.perf_counter()
    print(
        f"hard vs OpenSpiel {pyspiel.__name__} bots: {args.seconds:.2f} s per decision, "
        f"{args.matches} matches per pairing, {args.players} players, seed {args.seed}"
    )
    print(
        f"{'game':22} {'opponent':8} {'n':>3} {'our score':>9} {'95% interval':>15} "
        f"{'W':>3} {'D':>3} {'L':>3} {'N':>3} {'s/dec ours p50 [p10-p90]':>25} "
        f"{'s/dec theirs p50 [p10-p90]':>27} {'sims/dec':>8}"
    )
    for name in args.games:
        for opponent in ("ismcts", "mcts"):
            pairing = Pairing(name, opponent)
            for index in range(args.matches):
                play(pairing, index, args.players, args.seconds, args.seed)
            mean, low, high = pairing.interval()
            wins = sum(s == 1.0 for s in pairing.scores)
            losses = sum(s == 0.0 for s in pairing.scores) - pairing.nobody
            draws = len(pairing.scores) - wins - losses - pairing.nobody
            print(
                f"{name:22} {opponent:8} {len(pairing.scores):3d} {mean:9.3f} "
                f"[{low:5.3f}, {high:5.3f}] {wins:3d} {draws:3d} {losses:3d} {pairing.nobody:3d} "
                f"{pairing.ours.shown():>25} {pairing.theirs.shown():>27} "
                f"{pairing.theirs.simulations / max(1, len(pairing.theirs.times)):8.1f}",
                flush=True,
            )
    print(f"total {time.perf_counter() - begun:.0f} s")


if __name__ == "__main__":
    main()
