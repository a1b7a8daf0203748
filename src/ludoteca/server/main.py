"""``ludoteca serve``: the table server on uvicorn."""

from __future__ import annotations

import sys

import uvicorn

from .app import create_app
from .config import Settings
from .logs import configure


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


def serve(
    host: str = "127.0.0.1", port: int = 8000, db: str | None = None, redis: str | None = None
) -> None:
    """Run the server until interrupted (SIGINT/SIGTERM shut it down gracefully)."""
    configure()
    settings = Settings.from_env(db, redis)
    app = create_app(settings)
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
    database = "PostgreSQL" if settings.db_url.startswith("postgres") else settings.db_url
    print(f"ludoteca: the table is at http://{shown}:{port}/  (database: {database})", flush=True)
    sys.stdout.flush()
    uvicorn.run(app, host=host, port=port, log_config=None, **uvicorn_options(settings))  # type: ignore[arg-type]
