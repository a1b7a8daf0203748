"""Find people, in the browser: two people in two browser contexts open the home page, press
"Find people" on the Heroes card and look; the first sees that one person is looking and how long
they have waited, and both land at one table, seated, dealt, under their names. Cancel stops a
search, and leaving the page stops it too (the count of people looking goes back to none)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kit.browser import Pages, set_name
from kit.servers import ServerProcess
from kit.wait import eventually

pytestmark = pytest.mark.browser


@pytest.fixture
def looking(web_server: ServerProcess) -> Iterator[Any]:
    with httpx.Client(base_url=web_server.base, timeout=10) as http:
        yield lambda: http.get("/api/looking").json()["games"].get("heroes", 0)


def find_people(page: Any) -> None:
    page.click("[data-key=find-heroes]")
    page.click("[data-key=find-go-heroes]")


def dealt_seat(page: Any) -> tuple[str, int, list[str]]:
    page.wait_for_url("**/table/*")
    found = page.wait_for_function(
        """() => {
          const d = window.__ludoteca;
          const s = d && d.state;
          return s && s.view ? { table: s.table.id, seat: d.seat,
            names: s.table.seats.map((x) => x.name) } : null;
        }"""
    ).json_value()
    return found["table"], found["seat"], found["names"]


def test_two_people_find_each_other_and_land_on_one_table(
    browser: Any, web_server: ServerProcess, looking: Any
) -> None:
    pages = Pages(browser, web_server.base)
    ana = pages.open("/")
    set_name(ana, "Ana")
    find_people(ana)
    status = ana.locator("[data-finder=heroes] .searching")
    status.wait_for()
    ana.wait_for_function(
        "() => /1 person is looking for this game now/"
        ".test(document.querySelector('[data-finder=heroes] .looking').textContent)"
    )
    ana.wait_for_function(
        "() => /You have waited [1-9]\\d* seconds?/"
        ".test(document.querySelector('[data-finder=heroes] .waited').textContent)"
    )
    assert looking() == 1

    bruno = pages.open("/")
    set_name(bruno, "Bruno")
    bruno.locator("[data-looking=heroes]").filter(has_text="1 person looking now").wait_for()
    find_people(bruno)
    table_a, seat_a, names = dealt_seat(ana)
    table_b, seat_b, _ = dealt_seat(bruno)
    assert table_a == table_b and {seat_a, seat_b} == {0, 1}
    assert sorted(names) == ["Ana", "Bruno"]
    assert looking() == 0
    assert not pages.errors, pages.errors


def test_cancel_and_leaving_the_page_stop_the_search(
    browser: Any, web_server: ServerProcess, looking: Any
) -> None:
    pages = Pages(browser, web_server.base)
    carla = pages.open("/")
    find_people(carla)
    carla.locator("[data-finder=heroes] .searching").wait_for()
    assert looking() == 1
    carla.click("[data-key=find-cancel-heroes]")
    carla.locator("[data-key=find-heroes]").wait_for()
    eventually(lambda: looking() == 0, 5, what="the search cancelled")
    find_people(carla)
    carla.locator("[data-finder=heroes] .searching").wait_for()
    assert looking() == 1
    # another document (pagehide): the page sends DELETE with keepalive as it goes
    carla.goto(f"{web_server.base}/api/games")
    eventually(lambda: looking() == 0, 5, what="the search ended with the page")
    assert not pages.errors, pages.errors
