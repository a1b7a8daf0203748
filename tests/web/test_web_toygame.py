"""A new game is one package (plus, optionally, one board module): the toy game of tests/toygame,
registered from outside the package, is played in the browser to the end on the generic board."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from kit.browser import Pages, decision
from kit.env import TESTS
from kit.servers import ServerProcess


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    env = {"PYTHONPATH": path, "LUDOTECA_GAMES": "toygame"}
    process = ServerProcess(tmp_path_factory.mktemp("toy-server"), env=env).start()
    yield process
    process.stop()


def test_the_toy_game_is_played_to_the_end_on_the_generic_board(
    browser: Any, toy_server: ServerProcess
) -> None:
    pages = Pages(browser, toy_server.base)
    page = pages.open("/")
    card = page.locator("article[data-game='high-card']")
    assert card.count() == 1, "the catalogue lists a game registered from outside the package"
    card.locator(".play-now").click()
    page.wait_for_url("**/table/*")
    pick = random.Random(3)
    version = -1
    for _ in range(20):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        assert page.locator(".gb-action").count() == len(s["legal"])
        text = pick.choice(s["legal"])
        page.click(f".gb-action[data-action='{text}']")
        version = s["version"]
    assert s["view"]["over"], "the match ends"
    page.locator(".end-panel").wait_for()
    assert page.locator(
        ".end-panel [data-proof-verdict], .end-panel [data-key='proof-check']"
    ).count()
    for context in pages.contexts:
        context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)
