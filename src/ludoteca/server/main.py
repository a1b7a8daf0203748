"""``ludoteca serve``: the table server on uvicorn, as one process or as N worker processes."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import uvicorn
from fastapi import FastAPI

from .app import create_app
from .config import Settings
from .keys import KeyRing
from .logs import configure
from .storage.migrate import DatabaseError, prepare_url
from .wire import uvicorn_protocols

# what each worker process imports and calls to build its app (uvicorn's ``factory=True``)
WORKER_FACTORY = "ludoteca.server.main:worker_app"


def uvicorn_options(settings: Settings, workers: int = 1) -> dict[str, object]:
    """uvicorn's limits for this server: frame size, keep-alive pings, concurrent connections,
    the protocols that time out slow requests and read floods a slice at a time (``wire``),
    and which proxies may name the client (X-Forwarded-For) and the scheme (X-Forwarded-Proto).

    ``workers`` > 1: uvicorn hands the options to new processes by pickling, so the HTTP protocol
    is named, and each worker reads its limits from the environment."""
    http, ws = uvicorn_protocols(settings)
    return {
        "http": http if workers == 1 else "ludoteca.server.wire:EnvHttp",
        "ws": ws if workers == 1 else "ludoteca.server.wire:GuardedWebSocket",
        "ws_max_size": settings.ws_max_frame_bytes,  # a larger frame closes the socket (1009)
        "ws_ping_interval": settings.ws_ping_interval,
        "ws_ping_timeout": settings.ws_ping_timeout,
        "ws_per_message_deflate": False,  # measured: compressing each state cost a tenth of the CPU
        "limit_concurrency": settings.limit_concurrency,  # beyond it: 503 (HTTP) or refused (ws)
        "timeout_graceful_shutdown": 10,
        "access_log": False,
        # the per-address limits count the forwarded address when a trusted proxy sends one
        "proxy_headers": bool(settings.forwarded_allow_ips.strip()),
        "forwarded_allow_ips": settings.forwarded_allow_ips or None,
    }


GC_THRESHOLDS = (5_000, 20, 20)
"""The collector's thresholds while serving (Python's default: 700, 10, 10). A busy server makes
and keeps many small objects (steps, log entries, finished tables until they are swept): with the
defaults, 25 s of ``bench/load.py`` ran ~1,600 young and 13 full collections, the full ones ~0.2 s
each, during which no table moves; with these and start-up frozen, 300-600 young and at most 3
full ones of ~0.04 s, and less CPU per action."""


def tune_gc() -> None:
    """Collect once and freeze what start-up made (modules, the app), so that later collections
    never walk it again, then collect the young generation less often (``GC_THRESHOLDS``)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def workers_problem(workers: int, settings: Settings) -> str | None:
    """Why ``workers`` processes cannot serve with ``settings``, or None when they can.

    Several processes share tables only through one PostgreSQL database and one Redis (which
    tells the others a table moved and decides which process drives each table's clock and bots);
    an SQLite file or the memory store would give each process its own, diverging lobby.
    """
    if workers < 1:
        return f"--workers must be 1 or more, not {workers}"
    if workers == 1:
        return None
    needs = []
    if not settings.db_url.startswith("postgres"):
        given = shown_db(settings.db_url)
        needs.append(f"a PostgreSQL database (--db postgresql://..., not {given})")
    if not settings.redis_url:
        needs.append("a Redis (--redis redis://host:port/0 or LUDOTECA_REDIS)")
    if not needs:
        return None
    needed = " and ".join(needs)
    return f"--workers {workers} needs {needed}: the processes share tables only there"


def shown_db(url: str) -> str:
    if url.startswith("postgres"):
        return "PostgreSQL"
    return url.split("://", 1)[0] if "://" in url else url


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    redis: str | None = None,
    *,
    upgrade: bool = False,
    workers: int = 1,
) -> int:
    """Run the server until interrupted (SIGINT/SIGTERM shut it down gracefully).

    A database at an older schema revision is refused (exit status 1) unless ``upgrade``.
    ``workers`` > 1 runs that many uvicorn worker processes on one address; they need PostgreSQL
    and Redis, else the command is refused (exit status 2).
    """
    configure()
    settings = Settings.from_env(db, redis)
    for wrong in settings.problems():
        print(f"ludoteca: {wrong}", file=sys.stderr)
    if settings.problems():
        return 2
    problem = workers_problem(workers, settings)
    if problem is not None:
        print(f"ludoteca: {problem}", file=sys.stderr)
        return 2
    try:
        check_database(settings.db_url, upgrade)
    except DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
    database = "PostgreSQL" if settings.db_url.startswith("postgres") else settings.db_url
    processes = f", {workers} processes" if workers > 1 else ""
    print(
        f"ludoteca: the table is at http://{shown}:{port}/  (database: {database}{processes})",
        flush=True,
    )
    options = {"host": host, "port": port, "log_config": None, **uvicorn_options(settings)}
    if workers == 1:
        app = create_app(settings)
        tune_gc()
        uvicorn.run(app, **options)  # type: ignore[arg-type]
        return 0
    # each worker builds its own app from the environment: hand it what the command line said
    os.environ["LUDOTECA_DB"] = settings.db_url
    os.environ["LUDOTECA_REDIS"] = settings.redis_url or ""
    if settings.keys_dir:
        # made here, once: workers starting together on an empty folder would each make a key
        KeyRing.load(Path(settings.keys_dir))
    options.update(uvicorn_options(settings, workers))
    uvicorn.run(WORKER_FACTORY, factory=True, workers=workers, **options)  # type: ignore[arg-type]
    return 0


def worker_app() -> FastAPI:
    """The app of one worker process (``--workers N``): settings from ``LUDOTECA_*``, and the
    JSON logs configured in this process too (workers are started afresh, not forked)."""
    configure()
    app = create_app(Settings.from_env())
    tune_gc()
    return app


def check_database(url: str, upgrade: bool) -> None:
    """Before serving: create an empty database, upgrade an old one if told, else refuse it."""
    if url.startswith("memory://"):
        return
    before, after = prepare_url(url, upgrade=upgrade)
    if not before.empty and before.current != after.current:
        print(f"ludoteca: upgraded the database from {before.describe()} to {after.current}")
