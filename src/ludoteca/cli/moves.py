"""``ludoteca moves GAME --position FILE``: the legal actions of a position, one a line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ludoteca.cli.arguments import Commands, game_help, read_json
from ludoteca.core import InvalidPositionError
from ludoteca.games import get


def add_parser(commands: Commands) -> None:
    moves = commands.add_parser("moves", help="print the legal actions of a position")
    moves.add_argument("game", help=game_help())
    moves.add_argument("--position", type=Path, required=True, help="position file (JSON) or -")
    moves.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = get(args.game)
    try:
        state = game.from_json(read_json(args.position))
    except InvalidPositionError as exc:
        print(f"ludoteca: not a {game.spec.id} position: {exc}", file=sys.stderr)
        return 2
    for text in game.legal_texts(state):
        print(text)
    return 0
