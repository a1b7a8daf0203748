"""``hard`` against OpenSpiel's own bots on the same game: Liar's Dice at ``players: 2, rounds:
one`` is OpenSpiel's C++ ``liars_dice``, so each side searches its own engine.

    .venv/bin/python bench/liars_dice_bots.py --matches 100 --seconds 0.05 --jobs 2
    .venv/bin/python bench/liars_dice_bots.py --exploitability --iterations 200

Matches: for every ``--dice`` count, ``hard`` (our ISMCTS, its clock set to ``--seconds`` of CPU
time a decision) against OpenSpiel's Python ISMCTS and MCTS (random rollouts, UCT c = 1.4, on the
same CPU clock, ``openspiel_match``'s timed bots), seats alternating match by match. OpenSpiel's
``liars_dice`` has no ``ResampleFromInfostate``: its ISMCTS is given a resampler that keeps the
seat's own dice, rolls the rival's again and replays the bids (what our ``sample_world`` does);
its MCTS searches one such world as if it were the truth. Both engines play the same dice (our
stream's, seat 0 always starting as in OpenSpiel). Printed per dice count and opponent: our
score with a 95% interval (normal, of the mean), and the median seconds per decision each side.

``--exploitability`` (one die): the policy ``hard`` plays at a fixed budget (``--iterations``;
one action per information state, the search seeded by that state) as an OpenSpiel tabular
policy, its NashConv and exploitability (``pyspiel.exploitability``), beside OpenSpiel's CFR (C++)
after the same CPU time, and the heuristic's (``medium``) for scale.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from dataclasses import replace
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import mcts

from ludoteca.bots.ismcts import IsmctsBot
from ludoteca.bots.levels import make_bot
from ludoteca.core import decide
from ludoteca.games import get
from openspiel_match import UCT_C, UNBOUNDED, Clock, Deadline, Pairing, TimedIsmcts, TimedMcts

GAME = get("liars-dice")
FACES = 6


def resampler(dice: int) -> Any:
    """OpenSpiel ``liars_dice``'s missing ``ResampleFromInfostate``: the seat's own dice kept,
    the rival's rolled again with ``rng``, the bids replayed."""

    def resample(state: Any, player: int, rng: random.Random) -> Any:
        history = state.history()
        world = state.get_game().new_initial_state()
        for seat in range(2):
            for k in range(dice):
                index = seat * dice + k
                world.apply_action(history[index] if seat == player else rng.randrange(FACES))
        for action in history[2 * dice :]:
            world.apply_action(action)
        return world

    return resample


def start(dice: int, bidding: str, seed: str) -> tuple[Any, Any, Any]:
    """Our position and OpenSpiel's with the same dice, seat 0 to bid first; OpenSpiel's game."""
    ours = GAME.new({"players": 2, "dice": dice, "rounds": "one", "bidding": bidding}, seed)
    ours.starter = ours.mover = 0
    game = pyspiel.load_game("liars_dice", {"numdice": dice, "bidding_rule": bidding})
    state = game.new_initial_state()
    for hand in ours.hands:
        for face in hand:
            state.apply_action(face - 1)
    return ours, game, state


def os_action(state: Any, text: str) -> int:
    spiel = "Liar" if text == "liar" else "-".join(text.split()[1:])
    return next(a for a in state.legal_actions() if state.action_to_string(a) == spiel)


def os_text(state: Any, action: int) -> str:
    spiel = state.action_to_string(action)
    return "liar" if spiel == "Liar" else "bid " + spiel.replace("-", " ")


def theirs(
    kind: str, game: Any, state: Any, rng: random.Random, *, clock: Clock, seconds: float
) -> int:
    """OpenSpiel's bot's action, searched for ``seconds`` of CPU time."""
    dice = state.get_game().get_parameters()["numdice"]
    legal = state.legal_actions()
    if len(legal) == 1:
        return int(legal[0])
    deadline = Deadline(seconds, time.process_time)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(rng.getrandbits(32)))
    random_state = np.random.RandomState(rng.getrandbits(32))
    resample = resampler(dice)
    if kind == "ismcts":
        bot = TimedIsmcts(game, evaluator, UCT_C, UNBOUNDED, random_state=random_state)
        bot.set_resampler(lambda s, p: resample(s, p, rng))
        bot.deadline = deadline
        action = bot.timed_step(state)
    else:
        timed = TimedMcts(game, UCT_C, UNBOUNDED, evaluator, solve=False, random_state=random_state)
        timed.deadline = deadline
        action = timed.timed_step(resample(state, state.current_player(), rng))
    clock.add(time.process_time() - deadline.start)
    clock.simulations += deadline.simulations
    return action


def one_match(job: tuple[int, str, str, int, float, int]) -> Pairing:
    dice, bidding, kind, index, seconds, seed = job
    pairing = Pairing(f"{dice}d", kind)
    name = f"bots-{seed}-{dice}-{kind}-{index}"
    ours, game, state = start(dice, bidding, name)
    hard = make_bot("hard", GAME)
    assert isinstance(hard, IsmctsBot)
    hard.options = replace(hard.options, seconds=seconds, clock=time.process_time)
    mine, rng = index % 2, random.Random(name)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == mine:
            begun = time.process_time()
            action = decide(hard, GAME, ours, seat, rng)
            if len(GAME.legal_actions(ours)) > 1:
                pairing.ours.add(time.process_time() - begun)
            text = GAME.action_to_text(ours, action)
        else:
            text = os_text(
                state, theirs(kind, game, state, rng, clock=pairing.theirs, seconds=seconds)
            )
        state.apply_action(os_action(state, text))
        GAME.apply_text(ours, text)
    returns = state.returns()
    assert GAME.outcome(ours) is not None and GAME.outcome(ours).winners == (returns.index(1.0),)
    pairing.scores.append(1.0 if returns[mine] > 0 else 0.0)
    pairing.head_to_head.append(pairing.scores[-1])
    return pairing


def matches(args: argparse.Namespace) -> None:
    print(
        f"hard vs OpenSpiel bots on liars_dice: {args.seconds:.3f} s CPU a decision, "
        f"{args.matches} matches per dice count and opponent, {args.bidding}, seed {args.seed}"
    )
    print(
        f"{'dice':>4} {'opponent':8} {'n':>4} {'our score':>9} {'95% interval':>15} "
        f"{'s/dec ours':>11} {'s/dec theirs':>12} {'sims/dec':>8}"
    )
    for dice in args.dice:
        for kind in args.opponents:
            pairing = Pairing(f"{dice}d", kind)
            jobs = [
                (dice, args.bidding, kind, i, args.seconds, args.seed) for i in range(args.matches)
            ]
            with multiprocessing.Pool(args.jobs) as pool:
                for played in pool.imap_unordered(one_match, jobs):
                    pairing.merge(played)
            mean, low, high = pairing.interval(pairing.scores)
            print(
                f"{dice:4d} {kind:8} {len(pairing.scores):4d} {mean:9.3f} "
                f"[{low:5.3f}, {high:5.3f}] "
                f"{pairing.ours.quantile(0.5):11.3f} {pairing.theirs.quantile(0.5):12.3f} "
                f"{pairing.theirs.simulations / max(1, len(pairing.theirs.times)):8.1f}",
                flush=True,
            )


class BotPolicy(policy_lib.Policy):  # type: ignore[misc]
    """A bot of ours as an OpenSpiel policy of ``liars_dice`` (one die): at each information
    state, the action the bot picks there, its randomness seeded by that state."""

    def __init__(self, game: Any, bot: Any, bidding: str) -> None:
        super().__init__(game, [0, 1])
        self.bot, self.bidding, self.cache = bot, bidding, {}

    def action_probabilities(self, state: Any, player_id: Any = None) -> dict[int, float]:
        key = state.information_state_string()
        found = self.cache.get(key)
        if found is None:
            ours = GAME.new(
                {"players": 2, "dice": 1, "rounds": "one", "bidding": self.bidding}, key
            )
            ours.starter = ours.mover = 0
            history = state.history()
            ours.hands = [[history[0] + 1], [history[1] + 1]]
            for action in history[2:]:
                GAME.apply_text(ours, os_text(state, action))
            seat = state.current_player()
            action = decide(self.bot, GAME, ours, seat, random.Random(key))
            found = self.cache[key] = os_action(state, GAME.action_to_text(ours, action))
        return {a: float(a == found) for a in state.legal_actions()}


def exploitability(args: argparse.Namespace) -> None:
    game = pyspiel.load_game("liars_dice", {"numdice": 1, "bidding_rule": args.bidding})
    print(f"exploitability, liars_dice one die, {args.bidding} (NashConv = 2 x exploitability)")
    for label, bot in (
        ("medium (heuristic)", GAME.heuristic_bot()),
        (f"hard, {args.iterations} iterations", make_bot("hard", GAME, iterations=args.iterations)),
    ):
        begun = time.process_time()
        tabular = policy_lib.tabular_policy_from_callable(game, BotPolicy(game, bot, args.bidding))
        spent = time.process_time() - begun
        value = pyspiel.exploitability(game, policy_lib.python_policy_to_pyspiel_policy(tabular))
        print(
            f"  {label:28} exploitability {value:.4f}  ({spent:.1f} s CPU to build the policy)",
            flush=True,
        )
    solver = pyspiel.CFRSolver(game)
    begun, iterations = time.process_time(), 0
    while time.process_time() - begun < spent:
        solver.evaluate_and_update_policy()
        iterations += 1
    value = pyspiel.exploitability(game, solver.average_policy())
    print(
        f"  {'OpenSpiel CFR (C++), same CPU':28} exploitability {value:.4f}  "
        f"({iterations} iterations in {time.process_time() - begun:.1f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dice", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--bidding", default="reset-face", choices=["reset-face", "reset-quantity"])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.05, help="CPU seconds a decision")
    parser.add_argument(
        "--opponents", nargs="+", default=["ismcts", "mcts"], choices=["ismcts", "mcts"]
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--exploitability", action="store_true", help="one die: hard's policy vs CFR"
    )
    parser.add_argument(
        "--iterations", type=int, default=200, help="hard's budget for --exploitability"
    )
    args = parser.parse_args()
    if args.exploitability:
        exploitability(args)
    else:
        matches(args)


if __name__ == "__main__":
    main()
