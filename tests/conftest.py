"""What every test folder shares: the kit's fixtures (tests/kit/fixtures.py; ``tests/`` is on the
path, so ``kit`` and ``toygame`` import from anywhere), and the markers that follow from them.

A test is marked ``postgres``, ``redis`` or ``browser`` from the fixtures it uses, so that the
fast lane (``-m "not browser and not postgres and not redis and not slow"``, ``make fast``)
leaves out every test that needs a service, and a new test cannot forget its mark. ``slow`` is
written by hand on a test that takes about half a second or more on an idle machine (pyproject.toml
says what makes one slow), which keeps the fast lane under a minute."""

from __future__ import annotations

import pytest

from kit.fixtures import *  # noqa: F403 - the fixtures

MARK_OF_FIXTURE = {
    "postgres_base": "postgres",
    "redis_url": "redis",
    "redis_server_binary": "redis",
    "browser": "browser",
    "web_server": "slow",  # a `ludoteca serve` process
}


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects anything
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        for fixture, mark in MARK_OF_FIXTURE.items():
            if fixture in used and item.get_closest_marker(mark) is None:
                item.add_marker(mark)
