"""What every test folder shares: the kit's fixtures (tests/kit/fixtures.py; ``tests/`` is on the
path, so ``kit`` and ``toygame`` import from anywhere), and the markers that follow from them.

A test is marked ``postgres``, ``redis`` or ``browser`` from the fixtures it uses, so that the
fast lane (``-m "not browser and not postgres and not redis and not slow"``, ``make fast``)
leaves out every test that needs a service, and a new test cannot forget its mark. ``slow`` is
written by hand on a test that takes about half a second or more on an idle machine (pyproject.toml
says what makes one slow), which keeps the fast lane under a minute.

No process a test starts outlives the session: besides each fixture's teardown and the check
after each test (``no_process_left``), every process group still alive is killed when the
session finishes, and from ``atexit`` or on SIGTERM (``kit.processes``); under pytest-xdist each
worker does so for its own. ``LUDOTECA_TEST_SLOWDOWN`` stretches every deadline (``kit.env``)."""

from __future__ import annotations

import pytest

from kit import processes
from kit.env import SLOWDOWN_VARIABLE, slowdown
from kit.fixtures import *  # noqa: F403 - the fixtures

MARK_OF_FIXTURE = {
    "postgres_base": "postgres",
    "redis_url": "redis",
    "redis_server_binary": "redis",
    "browser": "browser",
    "web_server": "slow",  # a `ludoteca serve` process
}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects anything
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    per_test = stretched_timeout(config)
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for fixture, mark in MARK_OF_FIXTURE.items():
            if fixture in used and item.get_closest_marker(mark) is None:
                item.add_marker(mark)
        if per_test is not None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(per_test))


def stretched_timeout(config: pytest.Config) -> float | None:
    """pytest-timeout's limit per test (pyproject.toml's, or ``--timeout``) stretched like every
    other deadline; None when there is nothing to stretch."""
    if not config.pluginmanager.hasplugin("timeout"):
        return None
    given = config.getoption("timeout", None) or config.getini("timeout")
    factor = slowdown()
    if not given or float(given) <= 0 or factor == 1:
        return None
    return float(given) * factor


def pytest_configure(config: pytest.Config) -> None:
    try:
        slowdown()
    except ValueError as error:
        raise pytest.UsageError(str(error)) from None
    processes.install_last_resort()


def pytest_report_header() -> str:
    return f"deadlines stretched by {slowdown():.2f} ({SLOWDOWN_VARIABLE}, or the load per core)"


def pytest_sessionfinish(session: pytest.Session) -> None:
    left = processes.stop_all()
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"killed at the session's end, still running: {', '.join(left)}")
