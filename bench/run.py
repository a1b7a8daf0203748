"""All benchmarks in one run: engine speed, the OpenSpiel reference, the hard bot on its clock
(decision times, iterations per second) and the strength table.

    .venv/bin/python bench/run.py            # the full run (about three hours on 2 free cores)
    .venv/bin/python bench/run.py --quick    # a smoke run of a few minutes

The strength table plays ``hard`` on a fixed iteration budget per game (``STRENGTH_ITERATIONS``,
reproducible on any machine at any load; a game without one plays on the median ``hard`` reached
on its clock in this run); the run checks each budget against what ``hard`` does on its clock at
the table and says so.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import engine
import search
import strength
from ludoteca.bots.levels import HARD_ITERATIONS, HARD_SECONDS
from ludoteca.games import all_games, get

STRENGTH_ITERATIONS = {"dice-heroes": 480, "dwarves": 480, "heroes": 100}
"""The hard bot's fixed budget in the strength table, per game: at most the median it reaches in
its table budget on this machine (checked below)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--games", type=int, help="matches per pairing (default 200; quick 8)")
    parser.add_argument("--decisions", type=int, help="hard decisions per game (default 100)")
    parser.add_argument("--seed", default="bench", help="master seed of the tournaments")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args(argv)
    games = args.games or (8 if args.quick else 200)
    count = args.decisions or (8 if args.quick else 100)
    seconds = 0.5 if args.quick else 3.0
    game_ids = args.game or list(all_games())
    began = time.perf_counter()

    out(f"ludoteca benchmarks: jobs={args.jobs}, {'quick' if args.quick else 'full'} run")
    out("\n== Random playouts (new + legal_actions + apply_unchecked, uniform choice)")
    for game_id in game_ids:
        game = get(game_id)
        for players in sorted({game.spec.min_players, game.spec.max_players}):
            out(engine.playouts(game, players, seconds).line())
    spiel = engine.liars_dice(seconds)
    out(spiel.line() if spiel else "  openspiel liars_dice: pyspiel is not installed")

    out(f"\n== hard on its clock ({HARD_SECONDS}s of search, at most {HARD_ITERATIONS:,}")
    out("   iterations), from positions of heuristic self-play; seconds include sampling")
    timings = {game_id: search.timing(game_id, count, args.jobs) for game_id in game_ids}
    for timing in timings.values():
        out(timing.line())

    out("\n== Strength: two-player matches, seats rotated; win rates with 95% Wilson intervals;")
    out("   margin = first minus second with its 95% interval; 'beats' = margin > interval")
    budgets = {}  # a game without a fixed budget plays on what hard reached at its table here
    for game_id in game_ids:
        table = timings[game_id].median_iterations
        budget = budgets[game_id] = STRENGTH_ITERATIONS.get(game_id, table)
        check = "ok" if budget <= table else "LARGER than at the table"
        out(f"  {game_id}: hard on {budget} iterations (median at the table: {table}) {check}")
    out(strength.HEADER)
    for game_id in game_ids:
        for levels in strength.PAIRINGS:
            found = strength.pairing(
                game_id,
                levels,
                games=games,
                seed=args.seed,
                jobs=args.jobs,
                iterations=budgets[game_id],
            )
            out(found.line())
            if game_id == "heroes" and levels == ("hard", "medium"):
                rate = found.tournament.win_rate(0)[0]
                out(f"    heroes: hard wins {rate:.1%} against medium (goal: 65% or more)")
    out(f"\ntotal {time.perf_counter() - began:,.0f}s")
    return 0


def out(line: str) -> None:
    print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
