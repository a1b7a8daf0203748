"""The fixtures of every test folder (tests/conftest.py registers them): the machine's PostgreSQL
(a fresh schema per test) and Redis, servers on SQLite files, and Chromium driven by Playwright.
A test that uses one of the services is marked for it by tests/conftest.py; where the service is
missing the test skips with the reason, except under CI=true, where it fails."""

from __future__ import annotations

import secrets
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis

from kit import processes
from kit.browser import CHROMIUM, CHROMIUM_ARGS, Pages
from kit.env import POSTGRES_URL, REDIS_URL, milliseconds, missing, seconds
from kit.servers import ServerProcess, ThreadServer, free_port, server_settings


def _marked(request: pytest.FixtureRequest, mark: str) -> None:
    """A test reaching a service through ``request.getfixturevalue`` is not marked by the
    fixtures it names: it must say so itself, or the fast lane would run it."""
    if request.node.get_closest_marker(mark) is None:
        pytest.fail(
            f"{request.node.nodeid} uses {mark} without the `{mark}` mark "
            f"(pytest.param(..., marks=pytest.mark.{mark}) where it is fetched by name)"
        )


# ------------------------------------------------------------------------ every process
@pytest.fixture(autouse=True)
def no_process_left() -> Iterator[None]:
    """After each test, stop whatever process group the test (or a function-scoped fixture)
    started and left running: a test that fails half-way leaves nothing behind. Groups of
    module- and session-scoped fixtures are set up before this and are not touched."""
    since = processes.mark()
    yield
    processes.stop_started_since(since)


# ------------------------------------------------------------------------ PostgreSQL, Redis
@pytest.fixture(scope="session")
def postgres_base() -> str:
    """The local PostgreSQL server."""
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        missing(f"no PostgreSQL at {POSTGRES_URL} ({exc}); set LUDOTECA_TEST_POSTGRES")
    return POSTGRES_URL


@pytest.fixture
def postgres_url(postgres_base: str, request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh schema in the test database for one test; dropped afterwards."""
    _marked(request, "postgres")
    schema = f"ludoteca_test_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in postgres_base else "?"
    yield f"{postgres_base}{sep}options=-csearch_path%3D{schema}"
    with psycopg.connect(postgres_base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh store of each kind in turn: in memory, a SQLite file, a PostgreSQL schema (the
    storage contract's tests run against all three)."""
    if request.param == "memory":
        return "memory://"
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    found: str = request.getfixturevalue("postgres_url")
    return found


@pytest.fixture
def redis_url(request: pytest.FixtureRequest) -> str:
    """The local Redis (tests keep to key prefixes of their own)."""
    _marked(request, "redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:
        missing(f"no Redis at {REDIS_URL} ({exc}); set LUDOTECA_TEST_REDIS")
    return REDIS_URL


@pytest.fixture(scope="session")
def redis_server_binary() -> str:
    """``redis-server``, for a test that starts and stops a Redis of its own."""
    binary = shutil.which("redis-server")
    if binary is None:
        missing("no redis-server binary to start a Redis of the test's own with")
    return binary


@pytest.fixture
def private_redis(redis_server_binary: str) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis of this test's own (to pause it without pausing anyone else's)."""
    port = free_port()
    flags = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    server = processes.spawn(
        [redis_server_binary, *flags], f"redis-server on {port}", stdout=subprocess.DEVNULL
    )
    url = f"redis://127.0.0.1:{port}"
    processes.wait_ready(server, lambda: _answers(url), "the test's own Redis answering", 10)
    yield url, server
    server.send_signal(signal.SIGCONT)  # a paused Redis ends on SIGKILL, but would not on SIGTERM
    processes.stop(server)


def _answers(url: str) -> bool:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
    except redis.RedisError:
        return False
    return True


# ------------------------------------------------------------------------------ servers
@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    """A server in a thread of the test process, on a fresh SQLite file."""
    srv = ThreadServer(server_settings(sqlite_url)).start()
    yield srv
    srv.stop()


@pytest.fixture
def process_servers() -> Iterator[list[ServerProcess]]:
    """The ``ludoteca serve`` processes a test starts (append them): killed afterwards."""
    started: list[ServerProcess] = []
    yield started
    for srv in started:
        srv.stop()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One ``ludoteca serve`` for the browser tests: bots act after 50 ms; the page sends each
    person's seed at once, and a table nobody seeds deals after 3 s (stretched by the test
    slowdown: on a busy machine a page that joins the last seat must still commit in time)."""
    wait = f"{seconds(3):.1f}"
    env = {"LUDOTECA_BOT_DELAY": "0.05", "LUDOTECA_CONTRIBUTION_SECONDS": wait}
    process = ServerProcess(tmp_path_factory.mktemp("web-server"), env=env).start()
    yield process
    process.stop()


# ------------------------------------------------------------------------------ the browser
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (``make browser``) driven by Playwright, for one test module: Playwright's
    synchronous API holds an event loop while it runs, so one left open for the session would
    break every ``asyncio.run`` of the modules after it (the deployment tests run before the
    server's)."""
    if not CHROMIUM.exists():
        missing(f"Chromium is not installed at {CHROMIUM}: run `make browser`")
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415 (optional: a clear skip without it)
    except ImportError:
        missing("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=milliseconds(30_000)
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def pages(browser: Any, web_server: ServerProcess) -> Iterator[Pages]:
    """Pages of the web server, each in a context of its own; any JavaScript error or console
    error fails the test."""
    opened = Pages(browser, web_server.base)
    yield opened
    for context in opened.contexts:
        context.close()
    assert opened.errors == [], "JavaScript errors in the browser:\n" + "\n".join(opened.errors)


__all__ = [
    "browser",
    "no_process_left",
    "pages",
    "postgres_base",
    "postgres_url",
    "private_redis",
    "process_servers",
    "redis_server_binary",
    "redis_url",
    "server",
    "sqlite_url",
    "store_url",
    "web_server",
]
