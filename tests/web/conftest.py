"""Fixtures for the browser tests: one real ``ludoteca serve`` for the session, Chromium driven by
Playwright, and pages that fail the test on any JavaScript error or console error.

Without /usr/bin/chromium (or the playwright package) the tests skip with the reason, and fail
under CI=true, where the browser must be there (``make browser`` installs it)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import CHROMIUM, CHROMIUM_ARGS, IN_CI, Pages, ServerProcess


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason} (required under CI=true)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("web-server")).start()
    yield process
    process.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        _missing(f"Chromium is not installed at {CHROMIUM}: run `make browser`")
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415 (optional: a clear skip without it)
    except ImportError:
        _missing("the playwright package is not installed (pip install -e '.[dev]')")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def pages(browser: Any, server: ServerProcess) -> Iterator[Pages]:
    opened = Pages(browser, server.base)
    yield opened
    for context in opened.contexts:
        context.close()
    assert opened.errors == [], "JavaScript errors in the browser:\n" + "\n".join(opened.errors)
