"""``ludoteca serve``: the table server on uvicorn, as one process or as N worker processes.

The web stack (the app, uvicorn, the database's migrations: about 2 s of imports) loads only once
the settings are checked, so that a wrong one is said at once."""

from __future__ import annotations

import errno
import gc
import ipaddress
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ludoteca.native.background import describe as rules_in_use

from .config import DEFAULT_HOST, DEFAULT_PORT, Settings
from .logs import configure

if TYPE_CHECKING:
    from fastapi import FastAPI

# what each worker process imports and calls to build its app (uvicorn's ``factory=True``)
WORKER_FACTORY = "ludoteca.server.main:worker_app"


def uvicorn_options(settings: Settings, workers: int = 1) -> dict[str, object]:
    """uvicorn's limits for this server: frame size, keep-alive pings, concurrent connections,
    the protocols that time out slow requests and read floods a slice at a time (``wire``),
    and which proxies may name the client (X-Forwarded-For) and the scheme (X-Forwarded-Proto).

    ``workers`` > 1: uvicorn hands the options to new processes by pickling, so the HTTP protocol
    is named, and each worker reads its limits from the environment."""
    from .guards.transport import uvicorn_protocols  # noqa: PLC0415 (the web stack: see above)

    http, ws = uvicorn_protocols(settings)
    return {
        "http": http if workers == 1 else "ludoteca.server.guards.transport:EnvHttp",
        "ws": ws if workers == 1 else "ludoteca.server.guards.transport:GuardedWebSocket",
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


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def share_address(host: str) -> str | None:
    """The address other devices on the network can open, when the server listens beyond this
    machine: the one given, or for every interface (0.0.0.0, ::) the address of the interface
    that leads out (a UDP "connection" sends nothing); None on loopback or when none is found."""
    if is_loopback(host):
        return None
    if host not in {"0.0.0.0", "::", ""}:
        return host
    found: str | None = None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, it only picks a route
            found = probe.getsockname()[0]
        except OSError:
            pass
    if not found or is_loopback(found):
        try:
            found = socket.gethostbyname(socket.gethostname())
        except OSError:
            return None
    return None if is_loopback(found) else found


def url_of(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host``:``port`` (checked before anything is said or
    made, so that a port in use is one clear line), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as trial:
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            trial.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return (
                    f"port {port} is already in use on {host}: stop the program holding it, "
                    "or choose another port with --port N (or LUDOTECA_PORT=N)"
                )
            return (
                f"cannot listen on {host}:{port} ({exc.strerror or exc}): "
                "change --host (LUDOTECA_HOST) or --port (LUDOTECA_PORT)"
            )
    return None


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
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
    busy = port_problem(host, port)
    if busy is not None:
        print(f"ludoteca: {busy}", file=sys.stderr)
        return 1
    # the settings hold: now the web stack
    import uvicorn  # noqa: PLC0415

    from .app import create_app  # noqa: PLC0415
    from .signing import KeyRing  # noqa: PLC0415
    from .storage.migrate import DatabaseError  # noqa: PLC0415

    try:
        check_database(settings.db_url, upgrade)
    except DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    database = "PostgreSQL" if settings.db_url.startswith("postgres") else settings.db_url
    processes = f", {workers} processes" if workers > 1 else ""
    shared = share_address(host)
    if shared is not None:
        # invites made from this machine's own browser (localhost) name this address instead
        os.environ["LUDOTECA_SHARE_URL"] = url_of(shared, port).rstrip("/")
        settings = Settings.from_env(settings.db_url, settings.redis_url)
        where = f"{url_of(shared, port)}  (from this machine and other devices on your network"
    else:
        where = f"{url_of('localhost', port)}  (this machine only: --host 0.0.0.0 for others"
    print(f"ludoteca: the table is at {where}; database: {database}{processes})", flush=True)
    print(f"ludoteca: {rules_in_use()}", flush=True)  # kept until the next start
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
    from .app import create_app  # noqa: PLC0415 (the web stack: see the module's docstring)

    configure()
    app = create_app(Settings.from_env())
    tune_gc()
    return app


def check_database(url: str, upgrade: bool) -> None:
    """Before serving: create an empty database, upgrade an old one if told, else refuse it."""
    if url.startswith("memory://"):
        return
    from .storage.migrate import prepare_url  # noqa: PLC0415 (the web stack: see above)

    before, after = prepare_url(url, upgrade=upgrade)
    if not before.empty and before.current != after.current:
        print(f"ludoteca: upgraded the database from {before.describe()} to {after.current}")
