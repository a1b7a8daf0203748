"""Our ``hard`` bot against OpenSpiel's search bots, at equal wall time per decision.

    .venv/bin/python bench/openspiel_match.py --seconds 0.1 --matches 24

For each game (two players), two pairings, seats alternating match by match:

* ``ismcts``: OpenSpiel's Python ISMCTS, given our resampler (``resample_from_infostate``, i.e.
  ``Game.sample_world``) for every simulation. OpenSpiel's ISMCTS refuses games typed perfect
  information, so Dice Heroes and Dwarves are loaded here typed imperfect: their hidden part is
  then the future dice and the pool's order, which the resampler redraws.
* ``mcts``: OpenSpiel's MCTS on a determinised state: each decision it searches one world drawn
  by our resampler, as if that world were the truth.

Both OpenSpiel bots use random rollouts and UCT (c = 1.4). They count simulations, not seconds:
each decision gets its measured simulations per second times the mean time ``hard`` has taken
per decision so far in the pairing (``--seconds`` before its first), so both sides spend the same
wall time on average (at least 2 simulations); the table prints both measured means and their
mean simulations per decision. ``hard`` is ``make_bot("hard")`` with its clock set to
``--seconds`` instead of the table's 0.8 s (it overruns a short clock by the batch it is in,
hence matching its measured time rather than the nominal one). The score is ours: 1 a win, 1/k a
shared win or draw, 0 a loss or when nobody wins (the Dwarves' dragon or an extra dwarf: column
N); 95% intervals are normal intervals of the mean score. Decisions with one legal action are
answered at once by both sides and not timed.
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


@dataclass
class Clock:
    """Seconds and simulations spent by one side, to set the next decision's simulations."""

    seconds: float = 0.0
    decisions: int = 0
    simulations: int = 0
    search_seconds: float = 0.0
    target: float = 0.0

    def mean(self) -> float:
        return self.seconds / max(1, self.decisions)

    def budget(self, target: float) -> int:
        if self.search_seconds <= 0:
            return 2
        rate = self.simulations / self.search_seconds
        return max(2, round(rate * target))


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


def opponent_move(kind: str, game: Any, state: Any, rng: random.Random, clock: Clock) -> int:
    """The OpenSpiel bot's action, searched for ``clock.target`` seconds' worth of simulations."""
    seconds = clock.target
    seat = state.current_player()
    if len(state.legal_actions()) == 1:
        return int(state.legal_actions()[0])
    sims = clock.budget(seconds)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(32)))
    start = time.perf_counter()
    if kind == "ismcts":
        bot = ismcts.ISMCTSBot(
            game, evaluator, UCT_C, sims, random_state=np.random.RandomState(rng.getrandbits(32))
        )
        bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rng.random))
        action = bot.step(state)
    else:
        world = state.resample_from_infostate(seat, rng.random)
        bot = mcts.MCTSBot(
            game,
            UCT_C,
            sims,
            evaluator,
            solve=False,
            random_state=np.random.RandomState(rng.getrandbits(32)),
        )
        action = bot.step(world)
    spent = time.perf_counter() - start
    clock.simulations += sims
    clock.search_seconds += spent
    clock.seconds += spent
    clock.decisions += 1
    return int(action)


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
                pairing.ours.seconds += time.perf_counter() - start
                pairing.ours.decisions += 1
            state.apply_action(shared.encoding.action_id(shared.game, position, action))
        else:
            pairing.theirs.target = pairing.ours.mean() if pairing.ours.decisions else seconds
            state.apply_action(opponent_move(pairing.opponent, game, state, rng, pairing.theirs))
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
        f"{'W':>3} {'D':>3} {'L':>3} {'N':>3} {'s/dec ours':>10} {'s/dec theirs':>12} "
        f"{'sims/dec':>8}"
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
                f"{pairing.ours.mean():10.3f} {pairing.theirs.mean():12.3f} "
                f"{pairing.theirs.simulations / max(1, pairing.theirs.decisions):8.1f}",
                flush=True,
            )
    print(f"total {time.perf_counter() - begun:.0f} s")


if __name__ == "__main__":
    main()
