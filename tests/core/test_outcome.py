"""``Outcome.payoff``: what OpenSpiel, PettingZoo and the bots' searches are paid, so what a game
declares of its utility (``GameSpec.constant_sum``) rests on it."""

from __future__ import annotations

import itertools

import pytest

from ludoteca.core import Outcome


def shapes(players: int) -> list[Outcome]:
    """Every outcome a game can give at ``players`` seats: a sole or shared win (``draw`` set
    as ``canonical`` sets it, and as older games left it), everybody level without naming the
    seats (format-1 records), nobody winning."""
    found = [Outcome((), "level", True), Outcome((), "dragon")]
    for k in range(1, players + 1):
        for winners in itertools.combinations(range(players), k):
            found.append(Outcome(winners, "score", k > 1))
            found.append(Outcome(winners, "score", False))
    return found


@pytest.mark.parametrize("players", range(1, 7))
def test_payoffs_sum_to_one_unless_nobody_won(players: int) -> None:
    """A win shared by 2 of 4 used to pay the two others 1/4 each as well (the sum 1.5, which
    OpenSpiel's simulation test refused for Dice Heroes at 3 and 4 players)."""
    for outcome in shapes(players):
        payoffs = [outcome.payoff(seat, players) for seat in range(players)]
        assert all(0.0 <= p <= 1.0 for p in payoffs), outcome
        nobody = not outcome.winners and not outcome.draw
        assert sum(payoffs) == pytest.approx(0.0 if nobody else 1.0), outcome
        # the canonical shape pays the same
        canonical = outcome.canonical(players)
        assert [canonical.payoff(seat, players) for seat in range(players)] == payoffs


def test_a_shared_win_pays_its_winners_only() -> None:
    shared = Outcome((1, 3), "score", True)
    assert [shared.payoff(seat, 4) for seat in range(4)] == [0.0, 0.5, 0.0, 0.5]
    level = Outcome((), "level", True)
    assert [level.payoff(seat, 4) for seat in range(4)] == [0.25] * 4
