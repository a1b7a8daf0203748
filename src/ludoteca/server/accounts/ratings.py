"""Ratings per game with OpenSkill's Plackett–Luce model (2 to 6 players, shared places).

A person starts at the model's default (mu 25, sigma 25/3). Bots are anchors: each level has a
fixed rating per game, which the game declares (``Game.anchors``: ``anchors.json`` in its package,
measured by ``bench/anchors.py`` from ``ludoteca simulate`` tournaments; docs/accounts.md); it
enters every update with it and never moves, so a person who only plays bots gets a rating on the
same scale on every server. Shown is ``displayed``: mu on a familiar scale, 1500 at the start,
``POINTS_PER_MU`` points per unit of mu (so that between two settled ratings a 400-point gap is
10:1 odds, as with Elo), never below ``FLOOR``; a rating is provisional while its sigma is above
``PROVISIONAL_SIGMA`` (docs/accounts.md says why mu and not the conservative ``mu - 3 sigma``).

Places come from the match's canonical outcome: the winners share first place, everyone else
shares second; a draw, or a match nobody at the table won, is one shared place for all.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from ludoteca.core import Game

MODEL = PlackettLuce()
BETA: float = MODEL.beta
START_MU: float = MODEL.mu
START_SIGMA: float = MODEL.sigma
ANCHOR_SIGMA = 1.0
"""The uncertainty a bot's fixed rating enters an update with (small: it is measured)."""
RANDOM_MU = 10.0
"""Where the scale is pinned: the ``random`` bot's rating in every game."""
PROVISIONAL_SIGMA = 4.0
"""A rating whose sigma is above this is marked provisional (about half the starting sigma)."""
START_SHOWN = 1500
"""The rating a person is shown before any rated match (mu = ``START_MU``)."""
POINTS_PER_MU: float = 400 / math.log(10) / (math.sqrt(2) * BETA)
"""Shown points per unit of mu: two settled ratings (sigma small beside beta) 400 points apart
give the higher one 10:1 odds under the model, as Elo's 400 points do (about 29.5)."""
FLOOR = 100
"""No rating is shown below this (mu would have to be about 22 below the start to reach it)."""


def displayed(mu: float) -> int:
    """The rating people read for a mean of ``mu``: 1500 at the start, never below ``FLOOR``."""
    return max(FLOOR, round(START_SHOWN + POINTS_PER_MU * (mu - START_MU)))


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def shown(self) -> float:
        """The conservative estimate: mu - 3 sigma (stored; no longer what people read)."""
        return self.mu - 3 * self.sigma

    @property
    def displayed(self) -> int:
        """The rating people read (``displayed``)."""
        return displayed(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "rating": self.displayed,
            "provisional": self.provisional,
            "conservative": round(self.shown, 1),
        }


def anchor(game: Game[Any, Any], level: str | None) -> Rating:
    """The fixed rating of a bot of ``level`` in ``game`` (``medium``'s for an unknown level),
    as the game declares it (``Game.anchors``: NoAnchorsError when it declares none)."""
    levels = game.anchors()
    return Rating(levels.get(level or "medium", levels["medium"]), ANCHOR_SIGMA)


def places(outcome: dict[str, Any], players: int) -> list[int]:
    """Each seat's place (1 = best, shared places allowed) from a stored canonical outcome."""
    winners = set(outcome.get("winners") or ())
    if outcome.get("draw") or not winners:
        return [1] * players
    return [1 if seat in winners else 2 for seat in range(players)]


def update(ratings: Sequence[Rating], ranks: Sequence[int], fixed: Sequence[bool]) -> list[Rating]:
    """The ratings after one match, seat by seat; a ``fixed`` seat (a bot) keeps its own."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    after = MODEL.rate(teams, ranks=list(ranks))
    return [
        before if keep else Rating(team[0].mu, team[0].sigma)
        for before, keep, team in zip(ratings, fixed, after, strict=True)
    ]


def change(before: Rating, after: Rating) -> int:
    """The change people read for one match ("+12"): the difference of the shown ratings."""
    return after.displayed - before.displayed
