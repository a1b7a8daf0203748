"""The ``ludoteca`` command: serve the table, play in a terminal, simulate, verify, analyse,
list moves.

One module per command, each with ``add_parser`` (its arguments, added to the commands) and the
``run`` it sets as the parser's default; ``arguments`` holds what several share, ``terminal`` the
terminal table of ``play``. The defaults the server also knows (host, port, database, Redis, key
folder) come from ``ludoteca.server.config``, which alone reads their ``LUDOTECA_*`` variables.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ludoteca.cli import admin, analyse, db, keys, moves, play, serve, simulate, verify
from ludoteca.cli.arguments import UsageError
from ludoteca.core import InvalidParamsError, UnknownGameError

COMMANDS = (serve, db, admin, simulate, verify, analyse, keys, moves, play)
"""In the order ``ludoteca --help`` lists them."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        code: int = args.run(args)
    except (UsageError, UnknownGameError, InvalidParamsError, ValueError) as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ludoteca", description="An online table for board games, with verifiable shuffles."
    )
    commands = parser.add_subparsers(metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return parser
