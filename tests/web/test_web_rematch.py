"""A rematch in the browser, two people in two browser contexts: Ana opens a High Card table
for two, Bruno takes the other seat from its link, they play it to the end; Ana offers a
rematch, Bruno sees "Ana wants a rematch" at once and accepts with the keyboard (R), and both
pages move by themselves to their seats of the new table, rotated (Bruno first), which deals
with both people's fresh commitments. At that new table's end Bruno offers again and Ana
declines: Bruno's panel says so, and offers a rematch again; Ana leaves the page, and the
offer lapses with "Ana left"."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from kit.browser import Pages, decision, state, two_people_at_a_table
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
        "LUDOTECA_CONTRIBUTION_SECONDS": f"{seconds(3):.1f}",  # stretched on a busy machine
    }
    process = ServerProcess(tmp_path_factory.mktemp("rematch-server"), env=env).start()
    yield process
    process.stop()


def play_to_the_end(people: list[Any]) -> None:
    """Whoever is to move stands, until both pages show the end."""
    versions = {id(p): -1 for p in people}
    for _ in range(20):
        for page in people:
            s = state(page)
            if s and s["view"] and s["view"]["over"]:
                continue
            if s and s["view"] and "stand" in s["legal"] and s["version"] > versions[id(page)]:
                s = decision(page, versions[id(page)])
                if not s["view"]["over"]:
                    page.click(".hc-action[data-action='stand']")
                versions[id(page)] = s["version"]
        if all(state(p)["view"] and state(p)["view"]["over"] for p in people):
            break
        people[0].wait_for_timeout(100)
    for page in people:
        page.locator(".end-panel").wait_for()


def seated_at(page: Any, table: str) -> int:
    """The seat this page holds at ``table`` once it is there and dealt."""
    page.wait_for_url(f"**/table/{table}")
    found = page.wait_for_function(
        """(table) => {
          const d = window.__ludoteca;
          const s = d && d.state;
          return s && s.table.id === table && s.view ? { seat: d.seat } : null;
        }""",
        arg=table,
    )
    seat: int = found.json_value()["seat"]
    return seat


def test_two_people_rematch_and_both_land_at_the_new_table(
    browser: Any, toy_server: ServerProcess
) -> None:
    pages = Pages(browser, toy_server.base)
    ana, bruno, table = two_people_at_a_table(pages, "high-card")
    play_to_the_end([ana, bruno])

    # Ana offers; Bruno's panel shows it at once, with the time left
    ana.click(".end-panel [data-key=rematch]")
    ana.locator(".rematch-box[data-state=offered]").wait_for()
    offer = bruno.locator(".end-panel .rematch-box[data-state=offered]")
    offer.wait_for()
    assert "Ana wants a rematch" in offer.inner_text()
    said = "() => document.getElementById('live').textContent === 'Ana wants a rematch'"
    bruno.wait_for_function(said)  # said aloud too
    assert "Waiting for Bruno" in offer.inner_text()
    clock = bruno.locator("[data-rematch-clock]")
    bruno.wait_for_function(
        "() => /lapses in \\d+ s/.test(document.querySelector('[data-rematch-clock]').textContent)"
    )
    seconds_left = int(clock.inner_text().split("lapses in ")[1].split(" ")[0])
    assert 100 < seconds_left <= 120, "about two minutes"
    new = state(bruno)["rematch"]["table"]
    assert state(ana)["rematch"]["table"] == new
    bruno.keyboard.press("r")  # accept, from the keyboard

    # both pages move to their seats of the new table: Bruno first now
    assert seated_at(bruno, new) == 0
    assert seated_at(ana, new) == 1
    # the old table opened again (Ana's seat there) shows the rematch's link, and stays there
    old = ana.context.new_page()
    old.goto(f"{toy_server.base}/table/{table}")
    old.locator(".rematch-box[data-state=accepted] [data-key=rematch-link]").wait_for()
    old.wait_for_timeout(300)
    assert old.url.endswith(f"/table/{table}")
    assert old.evaluate("() => window.__ludoteca.seat") == 0
    old.close()
    fresh = state(ana)["table"]
    assert [s["name"] for s in fresh["seats"]] == ["Bruno", "Ana"]
    assert all(s["commitment"] for s in fresh["seats"]), "each person committed anew"
    play_to_the_end([bruno, ana])

    # at its end Bruno offers again and Ana declines: Bruno's panel says so
    bruno.click(".end-panel [data-key=rematch]")
    ana.locator(".rematch-box[data-state=offered]").wait_for()
    ana.click(".end-panel [data-key=rematch-decline]")
    told = bruno.locator(".rematch-box[data-state=declined] .rematch-ended")
    told.wait_for()
    assert told.inner_text() == "Ana declined the rematch."
    bruno.wait_for_function(
        "() => document.getElementById('live').textContent === 'Ana declined the rematch.'"
    )
    assert bruno.locator(".end-panel [data-key=rematch]").count() == 1, "offered again at will"
    assert bruno.url.endswith(f"/table/{new}") and ana.url.endswith(f"/table/{new}")

    # Bruno offers once more and Ana leaves the page (to the lobby): it lapses, "Ana left"
    bruno.click(".end-panel [data-key=rematch]")
    ana.locator(".rematch-box[data-state=offered]").wait_for()
    ana.click("a.brand")
    ana.wait_for_url(f"{toy_server.base}/")
    told = bruno.locator(".rematch-box[data-state=declined] .rematch-ended")
    told.wait_for()
    assert told.inner_text() == "Ana left the table: no rematch."
    for context in pages.contexts:
        context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)
