"""Tournaments: seats rotate, results follow the bot order given, processes change nothing, and
``ludoteca simulate`` takes every level."""

from __future__ import annotations

import json

import pytest

from ludoteca.bots import LEVELS
from ludoteca.bots.arena import MatchResult, Tournament, play_match, run, seat_of, wilson
from ludoteca.cli import main
from ludoteca.cli.arguments import bot_levels
from ludoteca.games import get


def test_seats_rotate_between_matches() -> None:
    for players in (2, 3, 4):
        for match in range(players * 2):
            seats = [seat_of(bot, match, players) for bot in range(players)]
            assert sorted(seats) == list(range(players))
        assert {seat_of(0, m, players) for m in range(players)} == set(range(players))


def test_wins_follow_the_order_of_the_bots() -> None:
    ahead = run("heroes", 2, ["medium", "random"], 16, "order")
    behind = run("heroes", 2, ["random", "medium"], 16, "order")
    assert ahead.wins[0] >= 14 and behind.wins[1] >= 14
    assert ahead.wins[0] + ahead.wins[1] + ahead.draws == 16


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    alone = run("dice-heroes", 3, ["medium", "easy", "random"], 8, "jobs", jobs=1)
    shared = run("dice-heroes", 3, ["medium", "easy", "random"], 8, "jobs", jobs=2)
    assert alone.wins == shared.wins
    assert alone.total_actions == shared.total_actions


@pytest.mark.slow
def test_hard_plays_a_reproducible_match_on_an_iteration_budget() -> None:
    game = get("heroes")
    first = play_match(game, 2, "hard-seed", ["hard", "medium"], iterations=20)
    again = play_match(game, 2, "hard-seed", ["hard", "medium"], iterations=20)
    assert game.outcome(first.state) is not None
    assert [s.action for s in first.steps] == [s.action for s in again.steps]
    assert [p.level for p in first.players] == ["hard", "medium"]


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson(30, 100)
    assert 0.21 < low < 0.30 < high < 0.40
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_simulate_takes_every_level_and_keeps_the_bot_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "heroes", "--games", "6", "--bots", "medium,random", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bots"] == ["medium", "random"] and report["games"] == 6
    assert report["wins"][0] > report["wins"][1]
    rate = report["win_rates"][0]
    assert rate["low"] <= rate["rate"] == report["wins"][0] / 6 <= rate["high"]
    assert bot_levels(",".join(LEVELS), len(LEVELS)) == list(LEVELS)
    assert bot_levels("hard", 3) == ["hard"] * 3
    assert main(["simulate", "heroes", "--games", "1", "--bots", "expert,random"]) == 2
    assert "unknown bot level 'expert'" in capsys.readouterr().err


@pytest.mark.slow
def test_simulate_gives_hard_a_fixed_budget_on_request(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["simulate", "dwarves", "--games", "2", "--bots", "hard,medium", "--json"]
    reports = []
    for _ in range(2):
        assert main([*command, "--iterations", "24", "--jobs", "1"]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    assert reports[0]["wins"] == reports[1]["wins"]
    assert reports[0]["mean_actions"] == reports[1]["mean_actions"]
    assert main([*command, "--iterations", "0"]) == 2
    assert "--iterations must be at least 1" in capsys.readouterr().err


def test_shared_results_count_as_draws_and_nobody_winning_apart() -> None:
    """A Dice Heroes shared win or a Heroes tie is a draw, not a win for each; a dragon's end is
    nobody's win; so wins, draws and no-winner endings add up to the matches played."""
    t = Tournament("dice-heroes", 3, ["a", "b", "c"], wins=[0, 0, 0])
    for winners in ((0,), (0, 2), (), (1,)):
        t.add(MatchResult(0, winners, 10, None))
    assert (t.wins, t.draws, t.nobody) == ([1, 1, 0], 1, 1)
    assert t.to_json()["draws"] == 1 and t.to_json()["no_winner"] == 1
    game = get("dice-heroes")
    shared = next(
        outcome
        for n in range(400)
        if (outcome := game.outcome(play_match(game, 2, f"s{n}", ["random"] * 2).state))
        and len(outcome.winners) > 1
    )
    assert shared.draw, "the engine's own outcome: a shared win is a draw"
