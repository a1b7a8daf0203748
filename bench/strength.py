"""Bot strength: two-player tournaments between levels, seats rotated, with 95% intervals."""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass

from ludoteca.bots.arena import MatchResult, Tournament, run

PAIRINGS = (
    ("hard", "medium"),
    ("medium", "easy"),
    ("hard", "random"),
    ("medium", "random"),
    ("easy", "random"),
)
"""Every pairing is a two-player match (every game seats two); the first level should win."""

Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Pairing:
    """One tournament between two levels and what it shows."""

    tournament: Tournament

    @property
    def margin(self) -> tuple[float, float, float]:
        """The first level's win rate minus the second's, with a 95% interval (low, high).

        Per match the margin scores +1, -1 or 0; the interval is the normal one after adding a
        match of each kind (Agresti-Caffo), so that 200 wins out of 200 still get a width.
        Counting a shared win for both makes it conservative."""
        t = self.tournament
        n = t.games + 3
        first, second = (t.wins[0] + 1) / n, (t.wins[1] + 1) / n
        centre = first - second
        half = Z95 * math.sqrt(max(first + second - centre * centre, 0.0) / n)
        gap = (t.wins[0] - t.wins[1]) / t.games
        return gap, max(-1.0, centre - half), min(1.0, centre + half)

    @property
    def shown(self) -> bool:
        """Whether the first level beats the second: the margin's interval lies above 0."""
        return self.margin[1] > 0

    def line(self) -> str:
        t = self.tournament
        a, b = t.bots
        rate_a, low_a, high_a = t.win_rate(0)
        rate_b, low_b, high_b = t.win_rate(1)
        gap, low, high = self.margin
        verdict = "yes" if self.shown else "NO"
        return (
            f"  {t.game:<12} {a:>6} vs {b:<6} {t.games:>4}  "
            f"{rate_a:6.1%} [{low_a:5.1%}-{high_a:5.1%}]  "
            f"{rate_b:6.1%} [{low_b:5.1%}-{high_b:5.1%}]  "
            f"{(t.draws + t.nobody) / t.games:5.1%}  "
            f"{gap:+6.1%} [{low:+6.1%} {high:+6.1%}]  {verdict:>5}"
        )


HEADER = (
    f"  {'game':<12} {'first':>6} vs {'second':<6} {'n':>4}  {'first wins':<21} "
    f"{'second wins':<21}  {'none':>5}  {'margin and 95% interval':<24} {'beats':>5}"
)


def pairing(
    game_id: str,
    levels: tuple[str, str],
    *,
    games: int,
    seed: str,
    jobs: int,
    iterations: int,
    progress: bool = False,
) -> Pairing:
    """``games`` two-player matches of ``levels`` (seats rotate), ``hard`` on ``iterations``;
    ``progress`` prints each match's winners (bot indices) to stderr as it ends."""

    def show(result: MatchResult) -> None:
        print(f"match {result.index}: winners {list(result.winners)}", file=sys.stderr, flush=True)

    return Pairing(
        run(
            game_id,
            2,
            levels,
            games,
            seed,
            jobs=jobs,
            iterations=iterations,
            on_result=show if progress else None,
        )
    )


def main(argv: list[str] | None = None) -> int:
    """One pairing from the command line, e.g. Dwarves ``hard`` against ``random``:

    .venv/bin/python bench/strength.py dwarves hard random --games 100 --iterations 480
    """
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=100, help="matches (seats rotate)")
    parser.add_argument("--iterations", type=int, default=240, help="hard's fixed budget")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument("--seed", default="bench", help="master seed of the tournament")
    parser.add_argument("--progress", action="store_true", help="each match's result to stderr")
    args = parser.parse_args(argv)
    found = pairing(
        args.game,
        (args.first, args.second),
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        iterations=args.iterations,
        progress=args.progress,
    )
    print(HEADER)
    print(found.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
