"""``ludoteca serve``: the table server (web table and API); its defaults are the server's own
(``ludoteca.server.config``)."""

from __future__ import annotations

import argparse

from ludoteca.cli.arguments import Commands
from ludoteca.server import config


def add_parser(commands: Commands) -> None:
    serve = commands.add_parser(
        "serve",
        help="start the table server (web table and API)",
        description="Start the table server (web table and API). Every option can also be set by "
        "its LUDOTECA_* environment variable (LUDOTECA_HOST, LUDOTECA_PORT, LUDOTECA_DB, "
        "LUDOTECA_REDIS, LUDOTECA_WORKERS); behind a proxy, LUDOTECA_FORWARDED_ALLOW_IPS names "
        "the proxies whose X-Forwarded-For is believed (none by default); "
        "LUDOTECA_LOG_FORMAT=json|text chooses the logs (default: text on a terminal, else JSON). "
        "See docs/deploy.md.",
    )
    serve.add_argument(
        "--host",
        default=config.listen_host(),
        help=f"where to listen (default {config.DEFAULT_HOST}: this machine only); 0.0.0.0 lets "
        "phones and laptops on your network in, and the start line names the address they open",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=config.listen_port(),
        help=f"the port (default {config.DEFAULT_PORT})",
    )
    serve.add_argument(
        "--db",
        default=config.database_url(),
        help="database URL (default: an SQLite file under ./var); postgresql://... for PostgreSQL",
    )
    serve.add_argument(
        "--redis",
        default=config.redis_address(),
        help="redis://host:port/0 that server processes share: rate limits and, with several "
        "processes, table changes (default: LUDOTECA_REDIS, else none: limits in memory)",
    )
    serve.add_argument(
        "--upgrade", action="store_true", help="upgrade a database at an older schema first"
    )
    serve.add_argument(
        "--workers",
        type=workers_count,
        default=config.worker_processes(),
        metavar="N",
        help=f"server processes on this address (default: LUDOTECA_WORKERS, else "
        f"{config.DEFAULT_WORKERS}); more than 1 needs --db postgresql://... and --redis, which "
        "the processes share (see docs/deploy.md)",
    )
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # the web stack (FastAPI, SQLAlchemy, uvicorn) loads only for this command
    from ludoteca.server.main import serve  # noqa: PLC0415

    return serve(
        host=args.host,
        port=args.port,
        db=args.db,
        redis=args.redis,
        upgrade=args.upgrade,
        workers=args.workers,
    )


def workers_count(text: str) -> int:
    """``--workers``: a whole number of processes, 1 or more."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of processes, not {text!r}") from None
    if count < 1:
        raise argparse.ArgumentTypeError(f"1 or more processes, not {count}")
    return count
