"""``ludoteca simulate GAME``: bot matches and their results, with confidence intervals."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TextIO

from ludoteca.bots import LEVELS
from ludoteca.bots.arena import MatchResult, Tournament
from ludoteca.bots.arena import run as run_tournament
from ludoteca.cli.arguments import (
    Commands,
    UsageError,
    add_option_argument,
    bot_levels,
    game_help,
    table_params,
)
from ludoteca.core import MatchRecord, SigningKey
from ludoteca.games import get


def add_parser(commands: Commands) -> None:
    sim = commands.add_parser("simulate", help="play bot matches and print the results")
    sim.add_argument("game", help=game_help())
    sim.add_argument("--players", type=int, help="number of seats (default: the game's minimum)")
    add_option_argument(sim)
    sim.add_argument("--games", type=int, default=100, help="number of matches (default 100)")
    sim.add_argument("--seed", default="1", help="master seed; match seeds derive from it")
    sim.add_argument(
        "--bots",
        help=f"one level per seat, comma-separated ({', '.join(LEVELS)}; default: all random)",
    )
    sim.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    sim.add_argument(
        "--iterations",
        type=int,
        help="a fixed search budget per decision for hard instead of its clock (reproducible)",
    )
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.add_argument("--records", type=Path, metavar="DIR", help="write every match record here")
    sim.add_argument(
        "--commit",
        action="store_true",
        help="some seats play as people who commit to a contribution and reveal it (or never "
        "reveal), the others as bots that commit to nothing, so the records carry every format-4 "
        "field",
    )
    sim.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get(args.game)
    players = game.spec.params({"players": args.players or game.spec.min_players})["players"]
    params = table_params(game, players, args.option)
    levels = bot_levels(args.bots, players)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    key = SigningKey.generate()
    if args.records:
        args.records.mkdir(parents=True, exist_ok=True)
        (args.records / "signing-key.pub").write_text(key.public_key + "\n", encoding="utf-8")
    progress = Progress(args.games, sys.stderr)

    def on_result(result: MatchResult) -> None:
        if args.records and result.record is not None:
            record = MatchRecord.from_json(json.loads(result.record)).sign(key)
            path = args.records / f"{game.spec.id}-{result.index:05d}.json"
            path.write_text(record.dumps() + "\n", encoding="utf-8")
        progress.step()

    tournament = run_tournament(
        game.spec.id,
        players,
        levels,
        args.games,
        str(args.seed),
        jobs=max(1, args.jobs),
        keep_records=args.records is not None,
        iterations=args.iterations,
        on_result=on_result,
        commit=args.commit,
        options={k: v for k, v in params.items() if k != "players"},
    )
    progress.done()
    if args.records:
        print(
            f"records signed with key {key.key_id}, made for this run: its public key is "
            f"{args.records / 'signing-key.pub'} (ludoteca verify --key)",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(tournament.to_json()))
    else:
        print(format_table(tournament))
    return 0


def format_table(t: Tournament) -> str:
    lines = [
        f"{t.game}: {t.games} matches, {t.players} players"
        + "".join(f", {name} {value}" for name, value in t.options.items()),
        f"{'bot':<12} {'level':<8} {'wins':>6} {'rate':>7}   95% interval",
    ]
    for i, level in enumerate(t.bots):
        rate, low, high = t.win_rate(i)
        lines.append(
            f"{'bot ' + str(i + 1):<12} {level:<8} {t.wins[i]:>6} {rate:>7.1%}   "
            f"{low:.1%} - {high:.1%}"
        )
    lines.append(f"draws (shared results): {t.draws}, no winner: {t.nobody}")
    lines.append(f"mean actions per match: {t.mean_actions:.1f}")
    lines.append(f"matches per second: {t.games_per_second:.1f}")
    lines.append("(seats rotate between matches; bot N keeps its column)")
    return "\n".join(lines)


class Progress:
    """A one-line progress bar on a terminal; a few plain lines elsewhere."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total, self.out, self.count = total, out, 0
        self.tty = out.isatty()
        self.every = max(1, total // (100 if self.tty else 4))

    def step(self) -> None:
        self.count += 1
        if self.count % self.every and self.count != self.total:
            return
        if self.tty:
            filled = 30 * self.count // self.total
            bar = "#" * filled + "." * (30 - filled)
            self.out.write(f"\r[{bar}] {self.count}/{self.total}")
        else:
            self.out.write(f"{self.count}/{self.total} matches\n")
        self.out.flush()

    def done(self) -> None:
        if self.tty:
            self.out.write("\n")
            self.out.flush()
