"""A rematch with a bot for whoever declined, in the browser: Ana and Bruno play High Card to the
end, Ana offers a rematch and Bruno declines; Ana's panel says so and offers "Rematch with a bot
for Bruno", which takes her to a new table at once, a bot in Bruno's seat."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_rematch import play_to_the_end, seated_at

from kit.browser import Pages, state, two_people_at_a_table
from kit.env import TESTS, seconds
from kit.servers import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    env = {
        "PYTHONPATH": path,
        "LUDOTECA_GAMES": "toygame",
        "LUDOTECA_BOT_DELAY": "0.05",
        "LUDOTECA_CONTRIBUTION_SECONDS": f"{seconds(3):.1f}",
    }
    process = ServerProcess(tmp_path_factory.mktemp("rematch-bots"), env=env).start()
    yield process
    process.stop()


def test_a_bot_takes_the_seat_of_who_declined(browser: Any, toy_server: ServerProcess) -> None:
    pages = Pages(browser, toy_server.base)
    ana, bruno, table = two_people_at_a_table(pages, "high-card")
    play_to_the_end([ana, bruno])

    ana.click(".end-panel [data-key=rematch]")
    bruno.locator(".rematch-box[data-state=offered]").wait_for()
    bruno.click(".end-panel [data-key=rematch-decline]")
    with_bot = ana.locator(".end-panel [data-key=rematch-bots]")
    with_bot.wait_for()
    assert with_bot.inner_text().strip() == "Rematch with a bot for Bruno"
    assert bruno.locator(".end-panel [data-key=rematch-bots]").count() == 0
    with_bot.click()
    ana.wait_for_url(lambda url: "/table/" in url and not url.endswith(f"/table/{table}"))
    new = ana.url.rsplit("/", 1)[1]
    assert seated_at(ana, new) == 1
    seats = state(ana)["table"]["seats"]
    assert seats[0]["kind"] == "bot" and seats[1]["name"] == "Ana"
    assert not pages.errors, pages.errors
