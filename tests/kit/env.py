"""Where the tests run: the repository's paths, whether this is CI, the services' addresses, and
the one rule for a missing service: skip with the reason, except under CI=true, where it fails."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
WEB = ROOT / "src" / "ludoteca" / "web"

IN_CI = os.environ.get("CI", "").lower() == "true"
POSTGRES_URL = os.environ.get("LUDOTECA_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("LUDOTECA_TEST_REDIS", "redis://127.0.0.1:6379")


def missing(reason: str) -> NoReturn:
    """A service or tool the test needs is not here: skip saying why, or fail under CI=true,
    where everything must run."""
    if IN_CI:
        pytest.fail(f"{reason} (required under CI=true)")
    pytest.skip(reason)
