"""The rating people read: 1500 at the start, about 29.5 points per unit of mu, never below 100,
a win against anyone never shown as a loss of points; the leaderboard lists settled ratings
first (docs/accounts.md, "The scale people read")."""

from __future__ import annotations

import asyncio
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ludoteca.games import all_games, get
from ludoteca.server.accounts.ratings import (
    FLOOR,
    POINTS_PER_MU,
    START_SHOWN,
    Rating,
    anchor,
    change,
    displayed,
    update,
)
from ludoteca.server.accounts.rows import memory_engine
from ludoteca.server.accounts.service import Accounts
from ludoteca.server.accounts.store import AccountStore
from ludoteca.server.config import Settings
from ludoteca.server.guards.limits import RateLimits
from ludoteca.server.storage import MemoryStorage
from ludoteca.server.storage.schema import ratings

PASSWORD = "correct horse battery"


def test_the_scale_starts_at_1500_and_a_400_point_gap_is_ten_to_one() -> None:
    assert Rating().displayed == START_SHOWN == 1500
    assert pytest.approx(400 / math.log(10) / (math.sqrt(2) * 25 / 6)) == POINTS_PER_MU
    assert round(POINTS_PER_MU, 1) == 29.5
    # two settled ratings 400 points apart: the model gives the higher one 10:1 odds
    gap = 400 / POINTS_PER_MU
    c = math.sqrt(2 * (25 / 6) ** 2)  # sigma negligible beside beta
    assert abs(math.exp(gap / c) - 10) < 1e-9
    assert displayed(-1000) == FLOOR == 100
    assert displayed(25 + 1 / POINTS_PER_MU) == 1501


def test_the_bots_anchors_on_the_new_scale() -> None:
    """The table of docs/accounts.md: each level's anchor as people read it."""
    shown = {g: {lvl: displayed(mu) for lvl, mu in get(g).anchors().items()} for g in all_games()}
    assert shown["heroes"] == {"random": 1058, "easy": 1804, "medium": 2101, "hard": 2302}
    assert shown["dice-heroes"] == {"random": 1058, "easy": 1471, "medium": 1671, "hard": 1730}
    assert shown["dwarves"] == {"random": 1058, "easy": 1105, "medium": 1170, "hard": 1220}


LEVELS = st.sampled_from(["random", "easy", "medium", "hard"])
GAMES = st.sampled_from(sorted(all_games()))
# one match: the game, the bots' levels (1 to 3 of them), the person's place among them
MATCH = st.tuples(GAMES, st.lists(LEVELS, min_size=1, max_size=3), st.integers(0, 3))


@settings(max_examples=150, deadline=None)
@given(st.lists(MATCH, min_size=1, max_size=60))
def test_no_shown_rating_is_ever_negative_nor_a_win_shown_as_a_loss(
    matches: list[tuple[str, list[str], int]],
) -> None:
    person = Rating()
    for game, levels, place in matches:
        bots = [anchor(get(game), level) for level in levels]
        seats = len(bots) + 1
        ranks = [2] * seats
        ranks[min(place, seats - 1)] = 1  # one winner: the person or one of the bots
        won = ranks[0] == 1
        after = update([person, *bots], ranks, [False] + [True] * len(bots))[0]
        moved = change(person, after)
        assert after.displayed >= FLOOR > 0
        if won:
            assert moved >= 0, (person, after, ranks)
        elif seats == 2:  # with more, sharing last place with a weaker bot can still gain
            assert moved <= 0, (person, after, ranks)
        person = after


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(0.01, 30))
def test_any_mu_is_shown_as_a_whole_number_of_at_least_100(mu: float, sigma: float) -> None:
    shown = Rating(mu, sigma).to_json()
    assert isinstance(shown["rating"], int) and shown["rating"] >= FLOOR


def test_the_leaderboard_lists_settled_ratings_first() -> None:
    async def run() -> None:
        store = AccountStore(memory_engine(), own_engine=True)
        people = Accounts(
            store,
            MemoryStorage(),
            RateLimits(Settings()),
            idle_seconds=3600,
            max_seconds=36000,
            now=lambda: 1.0,
        )
        try:
            for name, mu, sigma in [
                ("Ana", 40, 6),
                ("Bea", 30, 3),
                ("Cai", 33, 3.5),
                ("Dov", 20, 8),
            ]:
                made = (await people.sign_up(name, PASSWORD, "c", None)).account
                with store.engine.begin() as conn:
                    conn.execute(
                        ratings.insert().values(
                            account_id=made.id,
                            game="heroes",
                            mu=mu,
                            sigma=sigma,
                            shown=mu - 3 * sigma,
                            matches=3,
                            updated_at=1.0,
                        )
                    )
            board = await people.leaderboard("heroes", 10)
            assert [(p["name"], p["provisional"]) for p in board] == [
                ("Cai", False),
                ("Bea", False),
                ("Ana", True),
                ("Dov", True),
            ]
            assert [p["rating"] for p in board] == [displayed(m) for m in (33, 30, 40, 20)]
        finally:
            people.close()

    asyncio.run(run())
