"""``ludoteca db upgrade|current``: the server's database schema, at the server's database by
default (``ludoteca.server.config``)."""

from __future__ import annotations

import argparse
import sys

from ludoteca.cli.arguments import Commands
from ludoteca.server import config


def add_parser(commands: Commands) -> None:
    db = commands.add_parser("db", help="the server's database: upgrade its schema, show it")

    def without_action(_args: argparse.Namespace) -> int:
        db.print_help()
        return 2

    db.set_defaults(run=without_action)
    actions = db.add_subparsers(metavar="ACTION")
    for name, handler, about in (
        ("upgrade", upgrade, "bring the database to the newest schema revision"),
        ("current", current, "print the database's schema revision"),
    ):
        action = actions.add_parser(name, help=about)
        action.add_argument(
            "--db",
            default=config.database_url(),
            help="database URL (default: LUDOTECA_DB, else the SQLite file under ./var)",
        )
        action.set_defaults(run=handler)


def upgrade(args: argparse.Namespace) -> int:
    # SQLAlchemy and Alembic load only for the db commands
    from ludoteca.server.storage import migrate  # noqa: PLC0415

    try:
        before, after, seconds = migrate.upgrade_url(args.db)
    except migrate.DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    if before.empty:
        print(f"{migrate.shown(args.db)}: created at {after.current} in {seconds:.2f} s")
    elif before.current == after.current:
        print(f"{migrate.shown(args.db)}: already at {after.describe()}")
    else:
        print(
            f"{migrate.shown(args.db)}: upgraded from {before.describe()} "
            f"to {after.current} in {seconds:.2f} s"
        )
    return 0


def current(args: argparse.Namespace) -> int:
    from ludoteca.server.storage import migrate  # noqa: PLC0415

    try:
        print(migrate.current_url(args.db).describe())
    except migrate.DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    return 0
