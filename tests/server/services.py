"""The machine's PostgreSQL (a fresh schema per test) and Redis, as fixtures for every test
folder that needs them (imported by tests/server/conftest.py and tests/deploy/conftest.py). Where
one does not answer the test skips with the reason, except under CI=true, where it fails."""

from __future__ import annotations

import secrets
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator

import psycopg
import pytest
import redis
from serverkit import IN_CI, POSTGRES_URL, REDIS_URL, free_port


@pytest.fixture(scope="session")
def postgres_base() -> str:
    """The local PostgreSQL server; skip visibly if none answers (never under CI=true)."""
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:
        if IN_CI:
            pytest.fail(f"PostgreSQL must run under CI=true ({POSTGRES_URL}): {exc}")
        pytest.skip(f"no PostgreSQL at {POSTGRES_URL} ({exc}); set LUDOTECA_TEST_POSTGRES")
    return POSTGRES_URL


@pytest.fixture
def postgres_url(postgres_base: str) -> Iterator[str]:
    """A fresh schema in the test database for one test; dropped afterwards."""
    schema = f"ludoteca_test_{secrets.token_hex(4)}"
    with psycopg.connect(postgres_base, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in postgres_base else "?"
    yield f"{postgres_base}{sep}options=-csearch_path%3D{schema}"
    with psycopg.connect(postgres_base, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def redis_url() -> str:
    """The local Redis; skip visibly if none answers (never under CI=true)."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:
        if IN_CI:
            pytest.fail(f"Redis must run under CI=true ({REDIS_URL}): {exc}")
        pytest.skip(f"no Redis at {REDIS_URL} ({exc}); set LUDOTECA_TEST_REDIS")
    return REDIS_URL


@pytest.fixture
def private_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis of this test's own (to pause it without pausing anyone else's)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if IN_CI:
            pytest.fail("redis-server must be installed under CI=true")
        pytest.skip("no redis-server binary to stage an outage with")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}"
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url, socket_connect_timeout=0.5).ping()
            break
        except redis.RedisError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    yield url, server
    server.send_signal(signal.SIGCONT)
    server.kill()
    server.wait()
