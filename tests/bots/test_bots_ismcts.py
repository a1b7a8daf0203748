"""ISMCTS: takes a sure win, keeps to its iteration and time budgets, plays legal actions, and
answers a forced move without searching."""

from __future__ import annotations

import gc
import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from itertools import groupby
from typing import Any

import pytest
from bots_positions import find, positions, sure_wins

from kit import processes
from ludoteca.bots import make_bot
from ludoteca.bots.ismcts import (
    ARMS,
    MAX_SLACK,
    Deadline,
    IsmctsBot,
    Options,
    search,
    sure_win,
)
from ludoteca.bots.rollout import PolicyRollout, RandomRollout
from ludoteca.core import Game, decide
from ludoteca.games import all_games, get
from ludoteca.games.heroes.rules import CAMP, CAMP_ROW, connection

HEROES = get("heroes")


def camp_entry(state: Any) -> bool:
    """Gold (the heuristic's seat) may enter Blue's camp, among several other actions."""
    actions = HEROES.legal_actions(state)
    return len(actions) > 5 and any(a[0] == "place" and a[2] == CAMP for a in actions)


def test_hard_enters_the_rival_camp_at_once() -> None:
    state = find(HEROES, 2, camp_entry)
    wins = sure_wins(HEROES, state)
    assert wins and len(wins) < len(HEROES.legal_actions(state))
    seat = HEROES.to_move(state)
    for k in range(3):
        bot = make_bot("hard", HEROES, iterations=400)
        assert isinstance(bot, IsmctsBot)
        assert decide(bot, HEROES, state, seat, random.Random(k)) in wins
        assert bot.last is None, "a sure win needs no search"


def test_hard_takes_a_relic_win() -> None:
    def relic_win(state: Any) -> bool:
        wins = sure_wins(HEROES, state)
        return bool(wins) and not camp_entry(state) and len(wins) < 5

    state = find(HEROES, 2, relic_win)
    seat = HEROES.to_move(state)
    bot = make_bot("hard", HEROES, iterations=300)
    assert decide(bot, HEROES, state, seat, random.Random(1)) in sure_wins(HEROES, state)


def test_a_sure_win_must_win_in_every_sampled_world() -> None:
    state = find(HEROES, 2, camp_entry)
    seat = HEROES.to_move(state)
    actions = HEROES.legal_actions(state)
    win = sure_win(HEROES, state, seat, actions, random.Random(0))
    assert win is not None and win[2] == CAMP
    others = [a for a in actions if a[0] != "place" or a[2] != CAMP]
    assert sure_win(HEROES, state, seat, others, random.Random(0)) is None


def rival_threatens_camp(state: Any) -> bool:
    """Gold to move while Blue, with heroes in hand, has a chain touching Gold's camp, and only
    some of Gold's actions cut it."""
    if HEROES.to_move(state) != 0 or not sum(state.hands[1]):
        return False
    if not connection(state, 1) & CAMP_ROW[0]:
        return False
    cutting = [a for a in HEROES.legal_actions(state) if cuts(state, a)]
    return 0 < len(cutting) < len(HEROES.legal_actions(state)) - 3


def cuts(state: Any, action: Any) -> bool:
    trial = state.clone()
    HEROES.apply(trial, action)
    return HEROES.outcome(trial) is None and not connection(trial, 1) & CAMP_ROW[0]


@pytest.mark.slow
def test_search_sees_the_threat_from_the_rivals_side() -> None:
    """Blue's replies are chosen for Blue's payoff, so leaving Blue's entry open scores badly
    (plain search: random rollouts, no heuristic prior)."""
    state = find(HEROES, 2, rival_threatens_camp)
    for k in range(3):
        found = search(HEROES, state, 0, random.Random(k), Options(1_500))
        assert cuts(state, found.choice)


class BadPrior:
    """Names ``blunder`` where it is legal, elsewhere plays like the heuristic."""

    def __init__(self, blunder: Any) -> None:
        self.blunder = blunder
        self.heuristic = HEROES.heuristic_bot()

    def choose(self, game: Game[Any, Any], world: Any, seat: int, rng: random.Random) -> Any:
        if self.blunder in game.legal_actions(world):
            return self.blunder
        return self.heuristic.choose(game, world, seat, rng)


@pytest.mark.slow
def test_the_search_overrules_a_prior_that_loses() -> None:
    state = find(HEROES, 2, rival_threatens_camp)
    prior = BadPrior(next(a for a in HEROES.legal_actions(state) if not cuts(state, a)))
    options = Options(600, rollout=PolicyRollout(HEROES.heuristic_bot()), prior=prior)
    for k in range(3):
        found = search(HEROES, state, 0, random.Random(k), options)
        assert not cuts(state, found.hint)
        assert cuts(state, found.choice)


class Recorder:
    """A random rollout that notes the world (its dice stream) and the randomness it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, float]] = []

    def play_out(
        self,
        game: Game[Any, Any],
        state: Any,
        rng: random.Random,
        stop: Callable[[], bool] | None = None,
    ) -> bool:
        self.seen.append((state.rng.seed, rng.random()))
        return RandomRollout().play_out(game, state, rng, stop)


def test_every_action_of_a_batch_plays_in_the_same_world() -> None:
    """Common random numbers: the root actions of a batch share the determinization (its dice
    stream) and the rollout randomness; the next batch has new ones."""
    game = get("dice-heroes")
    state = next(positions(game, 2, "batches", every=2))
    seat = game.to_move(state)
    recorder = Recorder()
    found = search(game, state, seat, random.Random(0), Options(400, rollout=recorder))
    assert len(recorder.seen) == found.iterations
    runs = [len(list(group)) for _, group in groupby(recorder.seen)]
    arms = min(len(game.legal_actions(state)), ARMS)
    assert runs[0] == arms, "the first batch tries every action it compares in one world"
    assert len(runs) > 4 and all(1 < run <= arms for run in runs)
    assert len(set(recorder.seen)) == len(runs)


@pytest.mark.parametrize("game_id", list(all_games()))
def test_search_keeps_to_its_iteration_budget(game_id: str) -> None:
    game = get(game_id)
    state = next(positions(game, 2, "budget", every=3))
    seat = game.to_move(state)
    arms = min(len(game.legal_actions(state)), ARMS)
    for budget in (4 * arms, 10 * arms):
        found = search(game, state, seat, random.Random(budget), Options(budget))
        assert budget - arms <= found.iterations <= budget
        assert sum(e.visits for e in found.root.edges.values()) == found.iterations
    # a budget too small for one batch per round still runs one batch per round
    found = search(game, state, seat, random.Random(1), Options(1))
    assert found.iterations >= arms


class TickingClock:
    """A clock that moves ``step`` seconds each time it is read: time passes with the work."""

    def __init__(self, step: float) -> None:
        self.t, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.t += self.step
        self.reads += 1
        return self.t


def test_search_keeps_to_its_time_budget() -> None:
    state = next(positions(HEROES, 2, "clock"))
    seat = HEROES.to_move(state)
    runs = {}
    for seconds in (0.05, 0.2):
        clock = TickingClock(0.001)
        options = Options(10**9, seconds=seconds, clock=clock)
        found = search(HEROES, state, seat, random.Random(0), options)
        assert found.iterations > 0
        assert seconds <= found.seconds <= seconds + 0.01  # stops at the first read past it
        runs[seconds] = found.iterations
    assert runs[0.2] > runs[0.05], "more time, more iterations"


class BusyGame:
    """A game on a machine so busy that every action applied costs ``cost`` seconds of ``clock``
    (a clock moved by hand): a playout takes a while, a batch of them much longer."""

    def __init__(self, game: Game[Any, Any], clock: TickingClock, cost: float) -> None:
        self.game, self.clock, self.cost = game, clock, cost

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def step(self, state: Any, action: Any) -> None:
        self.clock.t += self.cost
        self.game.step(state, action)

    def apply_unchecked(self, state: Any, action: Any) -> Any:
        self.clock.t += self.cost
        return self.game.apply_unchecked(state, action)


@pytest.mark.parametrize("game_id", list(all_games()))
def test_hard_keeps_its_clock_when_the_machine_is_busy(game_id: str) -> None:
    """Each action costs 1 ms: a playout tens of ms, a batch of up to 16 of them most of the
    budget (searching every halving round once took well over a second); ``hard`` still answers
    within 50 ms of its clock."""
    game = get(game_id)
    bot = make_bot("hard", game)
    assert isinstance(bot, IsmctsBot) and bot.options.seconds is not None
    clock = TickingClock(0.0)
    bot.options = replace(bot.options, clock=clock)
    busy = BusyGame(game, clock, 0.001)
    searched = 0
    for state in positions(game, 2, "busy", every=2):
        seat = game.to_move(state)
        before = clock.t
        action = bot.choose(busy, state, seat, random.Random(0))  # type: ignore[arg-type]
        assert action in game.legal_actions(state)
        assert clock.t - before <= bot.options.seconds + 0.05
        searched += bot.last is not None
        if searched == 3:
            return
    raise AssertionError("three positions that need a search")


def test_the_deadline_stops_early_by_the_longest_pause_seen() -> None:
    times = iter([0.0, 0.01, 0.02, 0.07, 0.08])
    deadline = Deadline(lambda: next(times), 0.1)  # reads 0.0
    assert not deadline()  # 0.01: gaps of 10 ms so far
    assert not deadline()  # 0.02
    assert deadline()  # 0.07: a pause of 50 ms, and the end is nearer than that
    assert deadline.slack == 0.05
    reads = iter([0.0, 10.0, 10.01])
    deadline = Deadline(lambda: next(reads), 100.0)
    assert not deadline()  # a pause of 10 s counts as MAX_SLACK only
    assert deadline.slack == MAX_SLACK
    deadline.end = 10.01 + MAX_SLACK
    assert deadline()


class CollectorWatch(RandomRollout):
    """Random playouts that note whether the cyclic garbage collector was on."""

    def __init__(self) -> None:
        self.seen: set[bool] = set()

    def play_out(self, game: Any, state: Any, rng: random.Random, stop: Any = None) -> bool:
        self.seen.add(gc.isenabled())
        return super().play_out(game, state, rng, stop)


def test_hard_on_its_clock_searches_with_the_collector_off_and_turns_it_back_on() -> None:
    """A full collection holds the process for up to 200 ms (measured in Dwarves searches);
    near the end of a search that is an overrun no clock read can prevent."""
    state = next(positions(HEROES, 2, "collector"))
    seat = HEROES.to_move(state)
    watch = CollectorWatch()
    bot = IsmctsBot(Options(10**9, seconds=0.05, rollout=watch))
    assert gc.isenabled()
    decide(bot, HEROES, state, seat, random.Random(0))
    assert watch.seen == {False}
    assert gc.isenabled()
    watch.seen.clear()
    decide(IsmctsBot(Options(8, rollout=watch)), HEROES, state, seat, random.Random(0))
    assert watch.seen == {True}, "a search on a fixed budget leaves the collector alone"


BUSY = "while True: pass"
"""A process that only burns CPU."""


@pytest.mark.slow
def test_hard_keeps_its_real_clock_beside_busy_processes() -> None:
    """The machine's clock, not a model of it: with three processes spinning beside it (more
    than the cores the test machine has), ``hard`` on its table settings answers every decision
    that needs a search within 50 ms of its budget, in every game."""
    spinners = [processes.spawn([sys.executable, "-c", BUSY], "a busy loop") for _ in range(3)]
    try:
        for game_id in all_games():
            game = get(game_id)
            bot = make_bot("hard", game)
            assert isinstance(bot, IsmctsBot) and bot.options.seconds is not None
            searched = 0
            for state in positions(game, 2, "spinning", every=3):
                seat = game.to_move(state)
                before = time.perf_counter()
                action = decide(bot, game, state, seat, random.Random(searched))
                took = time.perf_counter() - before
                assert action in game.legal_actions(state)
                assert took <= bot.options.seconds + 0.05, f"{game_id}: {took:.3f} s"
                searched += bot.last is not None
                if searched == 2:
                    break
            assert searched == 2, f"{game_id}: two positions that need a search"
    finally:
        for spinner in spinners:
            processes.stop(spinner)


@pytest.mark.parametrize("game_id", list(all_games()))
def test_hard_answers_within_the_table_budget(game_id: str) -> None:
    game = get(game_id)
    state = next(positions(game, 2, "table"))
    seat = game.to_move(state)
    bot = make_bot("hard", game)
    assert isinstance(bot, IsmctsBot) and bot.options.seconds is not None
    assert bot.options.seconds < 1.0, "the table allows one second a decision"
    clock = TickingClock(0.02)  # a round of playouts takes 20 ms: some forty rounds in the budget
    bot.options = replace(bot.options, clock=clock)
    action = decide(bot, game, state, seat, random.Random(0))
    assert action in game.legal_actions(state)
    assert clock.t <= 1.0


def check_legal(game: Game[Any, Any], players: int, bot: IsmctsBot) -> None:
    for state in positions(game, players, f"legal-{players}", every=4):
        seat = game.to_move(state)
        action = decide(bot, game, state, seat, random.Random(seat))
        assert action in game.legal_actions(state)


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        pytest.param(g, n, marks=[pytest.mark.slow] if n > 4 else [])  # six players search long
        for g, game in all_games().items()
        for n in sorted({2, game.spec.max_players})
    ],
)
def test_search_returns_legal_actions(game_id: str, players: int) -> None:
    game = get(game_id)
    check_legal(game, players, IsmctsBot(Options(12)))
    check_legal(game, players, make_bot("hard", game, iterations=12))  # type: ignore[arg-type]


def forced(game: Game[Any, Any]) -> Any:
    """A position of ``game`` with exactly one legal action."""
    for k in range(50):
        state = game.new({"players": 2}, f"forced-{k}")
        rng = random.Random(k)
        while actions := game.legal_actions(state):
            if len(actions) == 1:
                return state
            game.apply(state, rng.choice(actions))
    return None


@pytest.mark.parametrize("game_id", list(all_games()))
def test_a_forced_move_is_answered_without_searching(game_id: str) -> None:
    game = get(game_id)
    state = forced(game)
    if state is None:
        pytest.skip(f"{game_id} never leaves a single legal action")
    bot = make_bot("hard", game)
    assert isinstance(bot, IsmctsBot)
    rng = random.Random(3)
    before = rng.getstate()
    start = time.perf_counter()
    action = bot.choose(game, state, game.to_move(state), rng)
    assert time.perf_counter() - start < 0.05
    assert [action] == game.legal_actions(state)
    assert rng.getstate() == before, "no world was sampled, nothing was searched"
    assert bot.last is None
