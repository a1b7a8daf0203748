"""The bots' fixed ratings (the anchors of docs/accounts.md), measured by ``ludoteca simulate``.

For each game, two-player tournaments between neighbouring levels (and ``medium`` against
``random``, so each gap is measured twice), each one a plain ``ludoteca simulate`` run whose
command is printed. Then one rating per level is fitted to the scores by least squares under the
model the server rates with (OpenSkill's Plackett–Luce, two players: the chance that A beats B
is ``1 / (1 + exp((mu_B - mu_A) / c))`` with ``c = sqrt(2 beta^2 + 2 sigma_anchor^2)``), with
``random`` pinned at ``RANDOM_MU``. A win scores 1; a shared win, a draw or a match nobody won
1/2 each; a half point is added on each side of every pairing, so a 100% result gives a finite
gap.

    .venv/bin/python bench/anchors.py [--games 200] [--hard-games 100] [--jobs 1] [--write]

``hard`` costs a search per decision: ``--hard-games 0`` takes hard against medium from the
strength table of docs/bots.md instead (200 matches of ``bench/run.py`` on the same budgets).

It prints the table for docs/accounts.md and each game's anchors next to the ones it declares
(``anchors.json`` in the game's package, ``Game.anchors``); ``--write`` writes the new ones there.
Every game of the catalogue by default, a game registered with ``LUDOTECA_GAMES`` included (one
not in ``ITERATIONS`` needs ``--iterations``).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ludoteca.core import Game, NoAnchorsError
from ludoteca.core.spec import LEVELS
from ludoteca.games import all_games, get
from ludoteca.server.accounts.ratings import ANCHOR_SIGMA, BETA, RANDOM_MU

ITERATIONS = {"dice-heroes": 200, "dwarves": 240, "heroes": 100}  # as bench/run.py's strength
PAIRINGS = [("easy", "random"), ("medium", "easy"), ("medium", "random"), ("hard", "medium")]
STRENGTH_TABLE = {  # hard vs medium in docs/bots.md (bench/run.py, 200 matches, same budgets)
    "dice-heroes": (117, 85, 0),  # first's wins, second's wins, matches nobody won
    "dwarves": (75, 47, 78),
    "heroes": (149, 47, 4),
}


def simulate(
    game: str, first: str, second: str, games: int, jobs: int, *, iterations: int
) -> tuple[float, int]:
    """``first``'s score over ``games`` matches against ``second`` (wins + half the rest)."""
    command = [
        *("ludoteca", "simulate", game, "--bots", f"{first},{second}"),
        *("--games", str(games), "--seed", "anchors", "--jobs", str(jobs)),
        *("--iterations", str(iterations), "--json"),
    ]
    print("  $ " + " ".join(command), flush=True)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", *command[1:]],
        capture_output=True,
        text=True,
        check=True,
    )
    result = json.loads(done.stdout)
    wins, nobody = result["wins"], result["draws"]
    shared = wins[0] + wins[1] + nobody - games  # a win both bots share counts for each
    print(
        f"    {first} {wins[0] - shared}, {second} {wins[1] - shared}, shared {shared}, "
        f"nobody {nobody} ({time.perf_counter() - started:.0f} s)",
        flush=True,
    )
    return wins[0] - shared / 2 + nobody / 2, games


def fit(scores: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Least-squares ratings from the pairings' logit gaps, ``random`` at ``RANDOM_MU``."""
    c = math.sqrt(2 * BETA**2 + 2 * ANCHOR_SIGMA**2)
    gaps = {}
    for pair, (score, games) in scores.items():
        p = (score + 0.5) / (games + 1)
        gaps[pair] = c * math.log(p / (1 - p))
    free = LEVELS[1:]
    # normal equations of sum over pairs (mu_a - mu_b - gap)^2, mu_random fixed
    size = len(free)
    a = [[0.0] * size for _ in range(size)]
    b = [0.0] * size
    for (first, second), gap in gaps.items():
        row = [0.0] * size
        constant = -gap
        for level, sign in ((first, 1.0), (second, -1.0)):
            if level == "random":
                constant += sign * RANDOM_MU
            else:
                row[free.index(level)] = sign
        for i in range(size):
            for j in range(size):
                a[i][j] += row[i] * row[j]
            b[i] -= row[i] * constant
    solved = _solve(a, b)
    return {"random": RANDOM_MU, **{level: round(solved[i], 1) for i, level in enumerate(free)}}


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, value] for row, value in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                factor = m[r][col] / m[col][col]
                m[r] = [x - factor * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def declared(game: Game[Any, Any]) -> dict[str, float] | None:
    """The anchors the game declares now (None: none yet)."""
    try:
        return game.anchors()
    except NoAnchorsError:
        return None


def write(game: Game[Any, Any], anchors: dict[str, float]) -> Path:
    """Write the game's declaration: ``anchors.json`` in its package."""
    path = Path(str(game.resource("anchors.json")))
    path.write_text(json.dumps(anchors, indent=1) + "\n", encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="matches per pairing")
    parser.add_argument(
        "--hard-games",
        type=int,
        default=100,
        help="matches of hard vs medium (0: take them from the strength table of docs/bots.md)",
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    parser.add_argument(
        "--iterations", type=int, help="hard's budget a decision (default: ITERATIONS)"
    )
    parser.add_argument("--write", action="store_true", help="write each game's anchors.json")
    args = parser.parse_args()
    anchors = {}
    for game in args.game or sorted(all_games()):
        iterations = args.iterations or ITERATIONS.get(game)
        if iterations is None:
            parser.error(f"{game} has no budget in ITERATIONS: give --iterations")
        print(f"{game} (hard on {iterations} iterations a decision)", flush=True)
        scores = {}
        for first, second in PAIRINGS:
            games = args.hard_games if "hard" in (first, second) else args.games
            if games == 0:
                if game not in STRENGTH_TABLE:
                    parser.error(f"{game} has no row in STRENGTH_TABLE: give --hard-games")
                won, lost, nobody = STRENGTH_TABLE[game]
                shared = won + lost + nobody - 200
                print(f"  {first} vs {second}: the strength table of docs/bots.md ({won}-{lost})")
                scores[(first, second)] = (won - shared / 2 + nobody / 2, 200)
                continue
            scores[(first, second)] = simulate(
                game, first, second, games, args.jobs, iterations=iterations
            )
        anchors[game] = fit(scores)
        print(f"  anchors: {anchors[game]} (declared: {declared(get(game))})", flush=True)
    print("\n| game | " + " | ".join(LEVELS) + " |")
    print("|---|" + "---|" * len(LEVELS))
    for game, found in anchors.items():
        print(f"| {game} | " + " | ".join(f"{found[level]:.1f}" for level in LEVELS) + " |")
    if args.write:
        for game, found in anchors.items():
            print(f"wrote {write(get(game), found)}")


if __name__ == "__main__":
    main()
