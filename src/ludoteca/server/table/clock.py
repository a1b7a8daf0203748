"""Turn clocks as pure arithmetic: every function takes ``now``, nothing sleeps or reads the time.

A turn starts when the seat to move changes (a pending choice — a Fighter's strike, a re-roll, a
trade — stays within the same turn and the same clock). When the clock runs out the table plays for
the seat. A seat the table had to play for is *away*: from then on the table plays for it after a
short grace instead of the whole turn, until the person acts again, so a table never waits a full
clock on someone who left.
"""

from __future__ import annotations

from dataclasses import dataclass

AWAY_GRACE_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class TurnClock:
    """A table's clock setting: ``seconds`` per turn, ``grace`` for a seat that is away."""

    seconds: float
    grace: float = AWAY_GRACE_SECONDS

    def allowance(self, away: bool) -> float:
        return min(self.grace, self.seconds) if away else self.seconds

    def deadline(self, turn_started_at: float, away: bool = False) -> float:
        return turn_started_at + self.allowance(away)

    def remaining(self, turn_started_at: float, now: float, away: bool = False) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.deadline(turn_started_at, away) - now)

    def expired(self, turn_started_at: float, now: float, away: bool = False) -> bool:
        return now >= self.deadline(turn_started_at, away)


def next_turn_start(
    previous_start: float, seat_before: int | None, seat_after: int | None, now: float
) -> float:
    """When the clock of the turn after an action started: now if the seat to move changed."""
    return previous_start if seat_after == seat_before else now
