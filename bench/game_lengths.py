"""How long matches get: the most player decisions in N random matches of each game at each
player count, next to the bound the game declares (``Game.max_length``, OpenSpiel's
``max_game_length``). Random play is the long tail: bots finish sooner.

    .venv/bin/python bench/game_lengths.py [--matches 1000] [--game dice-heroes]
"""

from __future__ import annotations

import argparse
import random
import statistics

from ludoteca.games import all_games, get


def lengths(game_id: str, players: int, matches: int) -> list[int]:
    game = get(game_id)
    found = []
    for n in range(matches):
        rng = random.Random(n)
        state = game.new({"players": players}, f"lengths-{n}")
        decisions = 0
        while not game.is_over(state):
            game.apply_unchecked(state, rng.choice(game.legal_actions(state)))
            decisions += 1
        found.append(decisions)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--game", action="append", help="a game id (default: every game)")
    args = parser.parse_args()
    print(f"{'game':12} {'players':>7} {'mean':>7} {'p99':>5} {'longest':>7} {'declared':>8}")
    for game_id in args.game or list(all_games()):
        spec = get(game_id).spec
        for players in range(spec.min_players, spec.max_players + 1):
            found = sorted(lengths(game_id, players, args.matches))
            p99 = found[int(0.99 * (len(found) - 1))]
            declared = get(game_id).max_length(players)
            mean = statistics.fmean(found)
            print(f"{game_id:12} {players:>7} {mean:>7.1f} {p99:>5} {found[-1]:>7} {declared!s:>8}")


if __name__ == "__main__":
    main()
