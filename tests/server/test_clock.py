"""Clock arithmetic, without sleeping: every function takes ``now``."""

from __future__ import annotations

from ludoteca.server.realtime.outbox import TokenBucket
from ludoteca.server.table.clock import TurnClock, next_turn_start


def test_a_turn_runs_for_its_seconds() -> None:
    clock = TurnClock(seconds=60)
    assert clock.deadline(1000.0) == 1060.0
    assert clock.remaining(1000.0, now=1015.5) == 44.5
    assert not clock.expired(1000.0, now=1059.999)
    assert clock.expired(1000.0, now=1060.0)
    assert clock.remaining(1000.0, now=2000.0) == 0.0


def test_a_seat_that_is_away_gets_only_the_grace() -> None:
    clock = TurnClock(seconds=60, grace=5)
    assert clock.deadline(1000.0, away=True) == 1005.0
    assert clock.expired(1000.0, now=1005.0, away=True)
    assert not clock.expired(1000.0, now=1005.0, away=False)
    # a grace never lengthens a turn shorter than itself
    assert TurnClock(seconds=3, grace=5).deadline(0.0, away=True) == 3.0


def test_a_pending_choice_keeps_the_turn_clock_and_a_new_seat_restarts_it() -> None:
    assert next_turn_start(1000.0, seat_before=0, seat_after=0, now=1030.0) == 1000.0
    assert next_turn_start(1000.0, seat_before=0, seat_after=1, now=1030.0) == 1030.0
    assert next_turn_start(1000.0, seat_before=1, seat_after=None, now=1030.0) == 1030.0


def test_the_token_bucket_allows_a_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=10, burst=5, now=0.0)
    assert [bucket.take(0.0) for _ in range(6)] == [True] * 5 + [False]
    assert not bucket.take(0.05)  # half a token refilled
    assert bucket.take(0.1)
    assert [bucket.take(10.0) for _ in range(6)] == [True] * 5 + [False]  # capped at the burst
