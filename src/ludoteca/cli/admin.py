"""``ludoteca admin``: the operator's desk from the command line, at the server's database by
default (``ludoteca.server.config``). ``grant`` and ``revoke`` make and unmake operators (the web
never can); the other actions are those of the ``/admin`` page: list reports, close one, hide a
chat message, mute or suspend an account (for a time, or for good) and lift it, end a table that
has not started, read the audit log. Every action is written to the audit log under
``cli:<user>``, with its ``--why`` (docs/moderation.md)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import re
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ludoteca.cli.arguments import Commands, UsageError
from ludoteca.server import config

if TYPE_CHECKING:
    from ludoteca.server.social.desk import Desk

UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def duration(text: str) -> float | None:
    """``30m``, ``12h``, ``7d``, ``2w`` in seconds; ``forever`` is None."""
    if text == "forever":
        return None
    found = re.fullmatch(r"(\d{1,6})([mhdw])", text.strip())
    if found is None:
        raise argparse.ArgumentTypeError(f"{text!r}: a number and m, h, d or w (7d), or forever")
    return float(int(found[1]) * UNITS[found[2]])


def add_parser(commands: Commands) -> None:
    admin = commands.add_parser("admin", help="the operator's desk: reports, sanctions, operators")

    def without_action(_args: argparse.Namespace) -> int:
        admin.print_help()
        return 2

    admin.set_defaults(run=without_action)
    actions = admin.add_subparsers(metavar="ACTION")

    def action(name: str, about: str, job: Callable[[Desk, argparse.Namespace, str], Any]) -> Any:
        parser = actions.add_parser(name, help=about)
        parser.add_argument(
            "--db",
            default=config.database_url(),
            help="database URL (default: LUDOTECA_DB, else the SQLite file under ./var)",
        )
        parser.set_defaults(run=lambda args: run(args, job))
        return parser

    def why(parser: argparse.ArgumentParser, default: str | None = None) -> None:
        parser.add_argument(
            "--why", required=default is None, default=default, help="for the audit log"
        )

    p = action("grant", "make an account an operator", _grant)
    p.add_argument("name")
    why(p, "granted from the command line")
    p = action("revoke", "an account is an operator no more", _revoke)
    p.add_argument("name")
    why(p, "revoked from the command line")
    p = action("reports", "list the open reports (--closed: the closed ones)", _reports)
    p.add_argument("--closed", action="store_true")
    p = action("close", "close a report", _close)
    p.add_argument("report", type=int)
    why(p)
    p = action("hide", "hide a chat message", _hide)
    p.add_argument("table")
    p.add_argument("message")
    why(p)
    for kind in ("mute", "suspend"):
        p = action(kind, f"{kind} an account for a time (--for 7d) or for good", _sanction)
        p.add_argument("name")
        p.add_argument("--for", dest="span", type=duration, default=None, metavar="DURATION")
        p.set_defaults(kind=kind)
        why(p)
    p = action("lift", "lift an account's mute or suspension", _lift)
    p.add_argument("name")
    p.add_argument("kind", choices=("mute", "suspend"))
    why(p)
    p = action("end", "end a table: an open one expires, a dealt one ends with no result", _end)
    p.add_argument("table")
    why(p)
    action("audit", "the audit log, newest first", _audit)


def run(args: argparse.Namespace, job: Callable[[Desk, argparse.Namespace, str], Any]) -> int:
    from ludoteca.server.messages import Rejected  # noqa: PLC0415
    from ludoteca.server.storage import migrate  # noqa: PLC0415

    try:
        return asyncio.run(_with_desk(args, job))
    except Rejected as exc:
        print(f"ludoteca: {exc.message}", file=sys.stderr)
        return 1
    except migrate.DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1


async def _with_desk(
    args: argparse.Namespace, job: Callable[[Desk, argparse.Namespace, str], Awaitable[int]]
) -> int:
    # the server's modules load only for this command
    from ludoteca.server.accounts.service import Accounts  # noqa: PLC0415
    from ludoteca.server.accounts.store import AccountStore  # noqa: PLC0415
    from ludoteca.server.guards.limits import RateLimits  # noqa: PLC0415
    from ludoteca.server.social.desk import Desk  # noqa: PLC0415
    from ludoteca.server.social.service import Social  # noqa: PLC0415
    from ludoteca.server.storage import SqlStorage, open_storage  # noqa: PLC0415

    if args.db.startswith("memory://"):
        raise UsageError("the desk needs the server's database, not memory://")
    storage = open_storage(args.db)
    assert isinstance(storage, SqlStorage)
    settings = config.Settings(db_url=args.db)
    store = AccountStore(storage.engine)
    people = Accounts(store, storage, RateLimits(settings), idle_seconds=1, max_seconds=1)
    social = Social(people, table_status=_status(storage))
    desk = Desk(social, end_table=_ender(storage))
    try:
        return await job(desk, args, f"cli:{getpass.getuser()}")
    finally:
        store.close()
        await storage.close()


def _status(storage: Any) -> Callable[[str], Awaitable[str | None]]:
    async def status(table_id: str) -> str | None:
        row = await storage.load_table(table_id[:64])
        return None if row is None else str(row.status)

    return status


def _ender(storage: Any) -> Callable[[str], Awaitable[str]]:
    """An open table expires, a dealt one ends, in the database (``table.ending.end_stored``);
    the server holding it sees that when it next reads its tables' versions (every process
    polls them)."""
    from ludoteca.server.table.ending import end_stored  # noqa: PLC0415

    async def end(table_id: str) -> str:
        return await end_stored(storage, table_id)

    return end


async def _grant(desk: Desk, args: argparse.Namespace, by: str) -> int:
    done = await desk.grant(args.name, by, args.why)
    print(f"{args.name}: {'now an operator' if done else 'already an operator'}")
    return 0


async def _revoke(desk: Desk, args: argparse.Namespace, by: str) -> int:
    done = await desk.revoke(args.name, by, args.why)
    print(f"{args.name}: {'no longer an operator' if done else 'was not an operator'}")
    return 0


def _when(at: float | None) -> str:
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(at))


async def _reports(desk: Desk, args: argparse.Namespace, _by: str) -> int:
    found = await desk.reports(closed=args.closed)
    for r in found:
        about = r["account"] or "-"
        where = f"table {r['table']}" if r["table"] else ""
        if r["message"]:
            where += f" message {r['message']}"
        closed = f" closed {_when(r['closed_at'])} by {r['closed_by']}" if r["closed_at"] else ""
        print(f"#{r['id']} {_when(r['at'])} {r['reason']}: {r['kind']} {about} {where}".rstrip())
        print(f"    by {r['reporter']}{closed}{': ' + r['note'] if r['note'] else ''}")
    print(f"{len(found)} {'closed' if args.closed else 'open'} report(s)")
    return 0


async def _close(desk: Desk, args: argparse.Namespace, by: str) -> int:
    await desk.close_report(by, args.report, args.why)
    print(f"report {args.report} closed")
    return 0


async def _hide(desk: Desk, args: argparse.Namespace, by: str) -> int:
    await desk.hide_message(by, args.table, args.message, args.why)
    print(f"message {args.message} hidden")
    return 0


async def _sanction(desk: Desk, args: argparse.Namespace, by: str) -> int:
    await desk.sanction(by, args.name, args.kind, args.span, args.why)
    span = "for good" if args.span is None else f"for {args.span:.0f} s"
    print(f"{args.name}: {'muted' if args.kind == 'mute' else 'suspended'} {span}")
    return 0


async def _lift(desk: Desk, args: argparse.Namespace, by: str) -> int:
    await desk.lift(by, args.name, args.kind, args.why)
    print(f"{args.name}: {args.kind} lifted")
    return 0


async def _end(desk: Desk, args: argparse.Namespace, by: str) -> int:
    print(f"table {args.table}: {await desk.end_table(by, args.table, args.why)}")
    return 0


async def _audit(desk: Desk, _args: argparse.Namespace, _by: str) -> int:
    for entry in await desk.audit():
        print(
            f"{_when(entry['at'])} {entry['operator']} {entry['action']} {entry['target']}: "
            f"{entry['reason']}"
        )
    return 0
