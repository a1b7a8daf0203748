"""Fixtures for the deployment tests: the local PostgreSQL (a fresh schema per test) and Redis,
as tests/server has them, and the server kit of tests/server (real ``ludoteca serve`` processes,
the websocket client)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
# the browser kit of tests/web (Chromium's path and flags, the page helpers)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "web"))


from services import postgres_base, postgres_url, redis_url  # noqa: F401 - fixtures
