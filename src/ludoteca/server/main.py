"""``ludoteca serve``: the table server on uvicorn."""

from __future__ import annotations

import gc
import sys

import uvicorn

from .app import create_app
from .config import Settings
from .logs import configure
from .storage.migrate import DatabaseError, prepare_url


def uvicorn_options(settings: Settings) -> dict[str, object]:
    """uvicorn's limits for this server: frame size, keep-alive pings, concurrent connections."""
    return {
        "ws_max_size": settings.ws_max_frame_bytes,  # a larger frame closes the socket (1009)
        "ws_ping_interval": settings.ws_ping_interval,
        "ws_ping_timeout": settings.ws_ping_timeout,
        "ws_per_message_deflate": False,  # measured: compressing each state cost a tenth of the CPU
        "limit_concurrency": settings.limit_concurrency,  # beyond it: 503 (HTTP) or refused (ws)
        "timeout_graceful_shutdown": 10,
        "access_log": False,
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


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    redis: str | None = None,
    upgrade: bool = False,
) -> int:
    """Run the server until interrupted (SIGINT/SIGTERM shut it down gracefully).

    A database at an older schema revision is refused (exit status 1) unless ``upgrade``.
    """
    configure()
    settings = Settings.from_env(db, redis)
    try:
        check_database(settings.db_url, upgrade)
    except DatabaseError as exc:
        print(f"ludoteca: {exc}", file=sys.stderr)
        return 1
    app = create_app(settings)
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
    database = "PostgreSQL" if settings.db_url.startswith("postgres") else settings.db_url
    print(f"ludoteca: the table is at http://{shown}:{port}/  (database: {database})", flush=True)
    sys.stdout.flush()
    tune_gc()
    uvicorn.run(app, host=host, port=port, log_config=None, **uvicorn_options(settings))  # type: ignore[arg-type]
    return 0


def check_database(url: str, upgrade: bool) -> None:
    """Before serving: create an empty database, upgrade an old one if told, else refuse it."""
    if url.startswith("memory://"):
        return
    before, after = prepare_url(url, upgrade=upgrade)
    if not before.empty and before.current != after.current:
        print(f"ludoteca: upgraded the database from {before.describe()} to {after.current}")
