"""Information-set Monte Carlo tree search: SO-ISMCTS (Cowling, Powley & Whitehouse, 2012), with
a Sequential Halving root on common random numbers.

Single-observer: one tree whose nodes are the searching seat's information sets, reached by the
actions taken and what the seat saw happen (the events of each action as that seat sees them, so a
die roll or a card drawn leads to a node of its own). Each iteration determinizes with
``game.sample_world(world, seat, rng)``, so hidden cards are dealt anew and the world's fresh random
stream rolls new dice inside ``apply``; descends the tree choosing, among the actions legal in this
determinization, the best by UCB1 with availability counts from the view of the seat to move
there; expands one untried action (the prior's first, then at most ``widening * sqrt(visits)``
actions); plays the rest out with a rollout policy; and adds every seat's ``Outcome.payoff`` to
the actions on its path.

The root is where the decision is made, and where plain UCB1 is weakest in these games: dice and
hidden cards make one playout's result mostly luck, so with the few hundred iterations a second
allows, the most visited action is often a lucky one. So the root compares actions the way a
careful experiment would (``search``): every action of a batch is played in the same sampled
world with the same rollout randomness, the better half survives each round, and the prior's
action (the game's heuristic) is only overruled on paired evidence.

The search loop is here; the tree's and the root's bookkeeping is in ``bots.tree``, the rollout
policies in ``bots.rollout``.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from math import ceil, log, log2, sqrt
from typing import Any

from ludoteca.core import Bot, Game

from .rollout import RandomRollout, Rollout
from .tree import Arm, Edge, Node, seen

EXPLORATION = 0.7
"""The UCB1 exploration constant for payoffs in [0, 1] (the paper's value)."""

ARMS = 16
"""Root actions a search compares at most: the prior's and others drawn at random. (Dice Heroes
can offer 512; with a few hundred iterations a second, halving them all would spend the whole
budget on one look at each.)"""

MAX_SLACK = 0.2
"""The most a search on the clock stops early by (seconds): see ``Deadline``."""


class Deadline:
    """A search's clock: ``Deadline(clock, end)()`` says whether the time is up.

    On a busy machine the process is held off the processor now and then, tens of milliseconds
    at a time (measured: gaps of 60-350 ms between two reads of the clock one action apart, with
    the two cores shared by a dozen busy processes); one such pause just before the end would
    overrun the budget by all of it, however often the clock is read. So the time counts as up
    once the end is nearer than the longest gap seen between two reads so far (at most
    ``MAX_SLACK``): on an idle machine that is a fraction of a millisecond, on a busy one the
    search gives up that much of its time to stay within its budget."""

    __slots__ = ("clock", "end", "last", "slack")

    def __init__(self, clock: Callable[[], float], end: float) -> None:
        self.clock, self.end = clock, end
        self.last = clock()
        self.slack = 0.0

    def __call__(self) -> bool:
        now = self.clock()
        gap = now - self.last
        self.last = now
        if gap > self.slack:
            self.slack = min(gap, MAX_SLACK)
        return now + self.slack >= self.end


class OutOfTime(Exception):
    """The search's time ran out in the middle of an iteration."""


@dataclass(frozen=True, slots=True)
class Search:
    """A finished search from ``seat``'s view: the tree (``root.edges`` holds the payoffs of
    every root action compared), the chosen action, the prior's action, the iterations run and
    the seconds taken."""

    root: Node
    seat: int
    choice: Hashable
    hint: Hashable
    iterations: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Options:
    """How a search runs: about ``iterations`` iterations and, if given, ``seconds`` of wall time;
    the rollout policy (default random); UCB1's exploration constant below the root; the prior
    bot whose action the root keeps unless beaten and nodes expand first; progressive widening
    below the root (None: every action is tried before UCB1 chooses)."""

    iterations: int
    seconds: float | None = None
    rollout: Rollout | None = None
    exploration: float = EXPLORATION
    prior: Bot | None = None
    widening: float | None = None
    clock: Callable[[], float] = time.perf_counter
    """Where ``seconds`` are read from (tests give a clock they move by hand)."""


def search(
    game: Game[Any, Any],
    world: Any,
    seat: int,
    rng: random.Random,
    options: Options,
    *,
    keep: tuple[Hashable, ...] = (),
) -> Search:
    """Search from ``seat``'s information set, given as any world the seat cannot tell from the
    real one, within the budget of ``options``; the legal actions in ``keep`` are always among
    the root actions compared (the analysis of a match keeps the action a person took).

    The root runs Sequential Halving (Karnin, Koren & Somekh, 2013) over the legal actions (at
    most ``ARMS`` of them: the prior's and a random draw of the others): each
    round shares its budget evenly among the surviving actions, in batches that give every one of
    them the same determinization and the same rollout randomness (common random numbers, so that
    the luck of a batch cancels out of the comparison), then keeps the better half by mean payoff
    for ``seat``, until two are left. Below each root action, every iteration continues as
    SO-ISMCTS. The prior's action takes part in every batch and is played unless the survivor
    did better in the final round's paired worlds by ``CONFIDENCE`` standard errors; without a
    prior, the survivor with the better mean is played. On an iteration budget every round runs
    at least one batch; on a clock, the clock is read after every action of the tree and of the
    playouts, and once the time is up the search stops there, inside a playout if need be (a
    batch cut short counts for nothing), and chooses from what the rounds so far have
    shown, so it overruns its time by one action at most; on a busy machine it stops early by
    the longest pause it was held off the processor (``Deadline``)."""
    iterations, seconds, prior = options.iterations, options.seconds, options.prior
    players = game.players(world)
    play_out = (options.rollout or RandomRollout()).play_out
    clock = options.clock
    start = clock()
    end = None if seconds is None else start + seconds
    stop = None if end is None else Deadline(clock, end)
    hint: Hashable = None
    if prior is not None:
        hint = prior.choose(game, world.clone(), seat, rng)
    root = Node()
    actions = game.legal_actions(world)
    if len(actions) > ARMS:
        first = [a for a in actions if a == hint or a in keep]
        others = [a for a in actions if a not in first]
        actions = first + rng.sample(others, max(0, ARMS - len(first)))
    live = [Arm(a) for a in actions]
    base = next((arm for arm in live if arm.action == hint), None)
    rounds = max(1, ceil(log2(len(live))))
    done = 0
    out_of_time = False
    for round_ in range(rounds):
        pool = live if base is None or base in live else [*live, base]
        budget = (iterations - done) // (rounds - round_)
        deadline = None if seconds is None else start + seconds * (round_ + 1) / rounds
        spent = 0
        for arm in pool:
            arm.forget()
        while True:
            determinization = game.sample_world(world, seat, rng)
            luck = rng.getrandbits(64)
            payoffs = []
            for arm in pool:
                try:
                    value = _iterate(
                        game,
                        determinization.clone(),
                        root,
                        arm.action,
                        seat=seat,
                        players=players,
                        luck=luck,
                        play_out=play_out,
                        options=options,
                        stop=stop,
                    )
                except OutOfTime:
                    out_of_time = True
                    break
                payoffs.append(value)
                if stop is not None and stop():
                    out_of_time = True
                    break
            spent += len(payoffs)
            if out_of_time and len(payoffs) < len(pool):
                break  # a batch cut short is left out of the comparison (not the same worlds)
            for arm, value in zip(pool, payoffs, strict=True):
                arm.n += 1
                arm.total += value
            if base is not None:
                reference = payoffs[pool.index(base)]
                for arm, value in zip(pool, payoffs, strict=True):
                    gap = value - reference
                    arm.diff_n += 1
                    arm.diff_sum += gap
                    arm.diff_sq += gap * gap
            if out_of_time or spent + len(pool) > budget:
                break
            if deadline is not None and clock() >= deadline:
                break
        done += spent
        if out_of_time:
            break
        if len(live) > 2:
            live.sort(key=lambda arm: arm.mean, reverse=True)
            del live[max(2, ceil(len(live) / 2)) :]
    best = max(live, key=lambda arm: arm.mean)
    if base is not None:
        rivals = [arm for arm in live if arm is not base and arm.beats_hint()]
        best = max(rivals, key=lambda arm: arm.diff_sum / arm.diff_n) if rivals else base
    return Search(root, seat, best.action, hint, done, clock() - start)


def _iterate(
    game: Game[Any, Any],
    state: Any,
    root: Node,
    first: Hashable,
    *,
    seat: int,
    players: int,
    luck: int,
    play_out: Callable[[Game[Any, Any], Any, random.Random, Callable[[], bool] | None], bool],
    options: Options,
    stop: Callable[[], bool] | None = None,
) -> float:
    """One SO-ISMCTS iteration in this determinization that starts with the root action
    ``first``; returns ``seat``'s payoff. The tree and the rollout each draw their randomness
    from ``luck`` afresh, so that the rollouts of a batch share it whatever the tree did."""
    rng = random.Random(luck)
    prior, exploration, widening = options.prior, options.exploration, options.widening
    legal, apply, to_move = game.legal_actions, game.apply_unchecked, game.to_move
    edge = root.edges.get(first) or root.edges.setdefault(first, Edge(players))
    path = [edge]
    then = seen(apply(state, first), seat)
    node = edge.then.get(then) or edge.then.setdefault(then, Node())
    while actions := legal(state):
        if stop is not None and stop():
            raise OutOfTime
        edges = node.edges
        node.visits += 1
        tried = [a for a in actions if a in edges]
        if len(tried) < len(actions) and (
            not tried or widening is None or len(tried) < widening * sqrt(node.visits)
        ):
            if prior is not None and node.hint is None:
                mover = to_move(state)
                assert mover is not None
                node.hint = prior.choose(game, state, mover, rng)
            if node.hint is not None and node.hint not in edges and node.hint in actions:
                action = node.hint
            else:
                untried = [a for a in actions if a not in edges]
                action = untried[rng.randrange(len(untried))]
            edge = edges[action] = Edge(players)
            path.append(edge)
            game.step(state, action)
            break
        mover = to_move(state)
        assert mover is not None
        best_value = -1.0
        best_action = tried[0]
        chosen = edges[best_action]
        for action in tried:
            edge = edges[action]
            value = edge.rewards[mover] / edge.visits + exploration * sqrt(
                log(edge.avails) / edge.visits
            )
            edge.avails += 1
            if value > best_value:
                best_value, chosen, best_action = value, edge, action
        path.append(chosen)
        then = seen(apply(state, best_action), seat)
        node = chosen.then.get(then) or chosen.then.setdefault(then, Node())
    if not play_out(game, state, random.Random(luck), stop):
        raise OutOfTime
    result = game.outcome(state)
    payoffs = [result.payoff(s, players) if result else 0.0 for s in range(players)]
    for edge in path:
        edge.visits += 1
        rewards = edge.rewards
        for s in range(players):
            rewards[s] += payoffs[s]
    return payoffs[seat]


SURE_WORLDS = 3
"""Sampled worlds in which an action must win on the spot to be played without a search."""


def sure_win(
    game: Game[Any, Any], world: Any, seat: int, actions: list[Any], rng: random.Random
) -> Any:
    """The first action that wins the match outright for ``seat`` in each of ``SURE_WORLDS``
    worlds sampled from its view (each with its own dice), or None. (A search would rate an
    immediate win no higher than a win a few moves later; this one cannot slip away.)"""
    candidates = actions
    for _ in range(SURE_WORLDS):
        sample = game.sample_world(world, seat, rng)
        candidates = [a for a in candidates if _wins(game, sample, a, seat)]
        if not candidates:
            return None
    return candidates[0]


def _wins(game: Game[Any, Any], world: Any, action: Any, seat: int) -> bool:
    trial = world.clone()
    game.step(trial, action)
    outcome = game.outcome(trial)
    return outcome is not None and outcome.winners == (seat,)


class IsmctsBot:
    """Plays the choice of an SO-ISMCTS search (``search``) within its budget.

    A position with one legal action is answered at once, a sure win (``sure_win``) without a
    search. ``seconds`` (None: no clock) is wall time from the call of ``choose``; the caller's
    sampling of the world comes on top. ``last`` keeps the latest search (None when there was
    none), for benchmarks.
    """

    def __init__(self, options: Options, name: str = "hard") -> None:
        self.options = options
        self.name = name
        self.last: Search | None = None

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any:
        clock = self.options.clock
        start = clock()
        self.last = None
        actions = game.legal_actions(world)
        if len(actions) == 1:
            return actions[0]
        win = sure_win(game, world, seat, actions, rng)
        if win is not None:
            return win
        options = self.options
        if options.seconds is None:
            self.last = search(game, world, seat, rng, options)
            return self.last.choice
        options = replace(options, seconds=options.seconds - (clock() - start))
        collecting = gc.isenabled()
        gc.disable()  # a full collection can hold the search for 100-200 ms right at its end
        try:
            self.last = search(game, world, seat, rng, options)
        finally:
            if collecting:
                gc.enable()
        return self.last.choice
