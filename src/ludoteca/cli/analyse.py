"""``ludoteca analyse RECORD.json``: the analysis of a finished match (``docs/analysis.md``) as a
readable table, or as the JSON the server's API gives."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ludoteca.bots.analysis import GRADES, ITERATIONS, analyse
from ludoteca.cli.arguments import Commands, read_json
from ludoteca.core import MatchRecord
from ludoteca.core.spec import JSON
from ludoteca.games import get


def add_parser(commands: Commands) -> None:
    parser = commands.add_parser(
        "analyse",
        help="the win chance of each person's decisions in a finished match, and the mistakes",
        description="Search every decision a person took in a finished match with the hard bot, "
        "from that person's information set only (never the hidden cards), and show the win "
        "chance of the action taken and of the best action, marking inaccuracies (5 points of "
        "win chance or more), mistakes (10) and blunders (20). See docs/analysis.md.",
    )
    parser.add_argument("record", type=Path, help="record file (JSON), or - for standard input")
    parser.add_argument(
        "--iterations",
        type=int,
        default=ITERATIONS,
        help=f"search iterations per decision (default {ITERATIONS}; the result depends only "
        "on the record and this number)",
    )
    parser.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="S",
        help="analyse every decision of seat S (0-based; a bot's too), not the persons' "
        "(repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    record = MatchRecord.from_json(read_json(args.record))
    analysis = analyse(get(record.game), record, iterations=args.iterations, seats=args.seat)
    print(json.dumps(analysis, indent=1, ensure_ascii=False) if args.json else table(analysis))
    return 0


PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


def percent(chance: float | None) -> str:
    return "-" if chance is None else f"{round(chance * 100)}%"


def table(analysis: JSON) -> str:
    """The analysis in lines: one per decision, then each seat's totals."""
    names = [p["name"] for p in analysis["players"]]
    lines = [
        f"{analysis['game']} match, {analysis['steps']} steps; each decision searched by "
        f"{analysis['engine']} ({analysis['iterations']} iterations) from the player's view",
    ]
    if not analysis["decisions"]:
        lines.append("no decision to analyse: no person played (name a seat with --seat)")
        return "\n".join(lines)
    width = max(12, *(len(d["taken"]["action"]) for d in analysis["decisions"]))
    lines.append(
        f"{'step':>4}  {'seat':<12}  {'taken':<{width}}  {'win':>4}  "
        f"{'best':<{width}}  {'win':>4}  {'loss':>4}  grade"
    )
    for d in analysis["decisions"]:
        best = d["best"] or {"action": "(only move)", "chance": None}
        loss = "" if d["forced"] else str(round(d["loss"] * 100))
        lines.append(
            f"{d['version']:>4}  {names[d['seat']][:12]:<12}  {d['taken']['action']:<{width}}  "
            f"{percent(d['taken']['chance']):>4}  {best['action']:<{width}}  "
            f"{percent(best['chance']):>4}  {loss:>4}  {d['grade'] or ''}".rstrip()
        )
    for seat in analysis["seats"]:
        total = analysis["totals"][str(seat)]
        graded = ", ".join(
            f"{total[name]} {name if total[name] == 1 else PLURALS[name]}" for name, _ in GRADES
        )
        lines.append(
            f"{names[seat]} (seat {seat}): {total['decisions']} decisions "
            f"({total['forced']} forced), average loss {round(total['average_loss'] * 100, 1)} "
            f"points; {graded}"
        )
    return "\n".join(lines)
