"""Where the tests run: the repository's paths, whether this is CI, the services' addresses, the
one rule for a missing service (skip with the reason, except under CI=true, where it fails), and
the one factor every wait of the tests is stretched by on a slow or busy machine.

``LUDOTECA_TEST_SLOWDOWN`` (a number ≥ 1, e.g. ``3``) multiplies every deadline of the kit and
the tests (``seconds``; Playwright's waits through ``milliseconds``). Unset, the factor follows
the machine's load: the load average of the last minute per core, never below 1 and at most
``MAX_SLOWDOWN`` (on an idle machine it is 1, so the deadlines are the written ones). That is
safe because a deadline here only stops a broken test: a passing test ends as soon as what it
waits for happens, so a longer deadline costs nothing unless the test is broken, and then only
time. What a test asserts about time (a takeover within 5 s, a timeout never early) is measured
from the times the server stored, never by a deadline, and is not stretched."""

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

SLOWDOWN_VARIABLE = "LUDOTECA_TEST_SLOWDOWN"
MAX_SLOWDOWN = 10.0


def missing(reason: str) -> NoReturn:
    """A service or tool the test needs is not here: skip saying why, or fail under CI=true,
    where everything must run."""
    if IN_CI:
        pytest.fail(f"{reason} (required under CI=true)")
    pytest.skip(reason)


def parse_slowdown(text: str) -> float:
    """``LUDOTECA_TEST_SLOWDOWN``'s value: a finite number of at least 1, or a clear error."""
    try:
        factor = float(text)
    except ValueError:
        factor = float("nan")
    if not 1 <= factor < float("inf"):
        raise ValueError(f"{SLOWDOWN_VARIABLE} must be a number ≥ 1 (e.g. 3), not {text!r}")
    return factor


def load_slowdown(load: float, cores: int) -> float:
    """The factor a machine's load calls for: its load per core, between 1 and ``MAX_SLOWDOWN``."""
    return min(MAX_SLOWDOWN, max(1.0, load / max(1, cores)))


def slowdown() -> float:
    """The factor every deadline is multiplied by now: ``LUDOTECA_TEST_SLOWDOWN`` when set, else
    the machine's load per core (read again each time: the load moves while the suite runs)."""
    text = os.environ.get(SLOWDOWN_VARIABLE, "").strip()
    if text:
        return parse_slowdown(text)
    return load_slowdown(os.getloadavg()[0], os.cpu_count() or 1)


def seconds(base: float) -> float:
    """A deadline of ``base`` seconds on an idle machine, stretched by ``slowdown()``."""
    return base * slowdown()


def milliseconds(base: float) -> float:
    """``seconds`` in milliseconds, for Playwright: ``base`` is in milliseconds too."""
    return base * slowdown()
