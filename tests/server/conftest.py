"""Fixtures for the server tests: real servers on SQLite files or on the local PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serverkit import ProcessServer, ThreadServer, close_api, fast_settings
from services import (  # noqa: F401 - fixtures
    postgres_base,
    postgres_url,
    private_redis,
    redis_url,
)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.sqlite3'}"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    srv = ThreadServer(fast_settings(sqlite_url)).start()
    yield srv
    srv.stop()


@pytest.fixture
def process_servers(tmp_path: Path) -> Iterator[list[ProcessServer]]:
    started: list[ProcessServer] = []
    yield started
    for srv in started:
        close_api(srv.base)
        if srv.process is not None and srv.process.poll() is None:
            srv.process.kill()
            srv.process.wait(timeout=10)
