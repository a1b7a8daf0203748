"""The end of a match in the browser: a rated match against a bot says it was rated and shows the
person's new rating with its change ("+12") as soon as the rater got to it; a person who resigns
a three-player match hands the seat to a bot, marked, which plays it to the end. The final
position stays in sight: beside the result on a desktop (the result read without scrolling, the
whole board reachable), under it on a phone; and the signed record downloads from the end panel
for a guest, a file ``ludoteca verify`` accepts."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import (
    DESKTOP,
    PHONE,
    Pages,
    bots_only_match,
    decision,
    play_heroes_by_clicks,
    rect,
    screenshot,
    set_name,
    state,
)
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

pytestmark = pytest.mark.browser
SMALL: ViewportSize = {"width": 360, "height": 640}
SIZES = {"desktop": DESKTOP, "phone": PHONE, "small": SMALL}

# where the result and the final board are, and how far the page scrolls
PLACES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right}; };
  const title = document.querySelector('#end-title');
  return {title: box(title), panel: box(document.querySelector('.end-panel')),
    board: box(document.querySelector('.board-root')), view: innerHeight, width: innerWidth,
    scroll: scrollY, height: document.documentElement.scrollHeight};
}"""


def test_a_rated_match_ends_with_the_rating_change_shown(pages: Pages) -> None:
    page = pages.open("/account")
    page.wait_for_selector(".account-form.signup")
    page.fill(".account-form.signup input[name=name]", "Rated Rui")
    page.fill(".account-form.signup input[name=password]", "a long passphrase here")
    page.click(".account-form.signup button[type=submit]")
    page.wait_for_selector(".signed-in")
    page.click("a.brand")
    page.click("[data-game=heroes] button.play-rated")
    page.wait_for_url("**/table/*")
    table = page.url.rsplit("/", 1)[1]
    final = play_heroes_by_clicks(page, random.Random(7), check_lit=False)
    assert final["view"]["over"]
    # the result takes the focus, in view: the page is not left past its heading
    page.wait_for_function("() => (document.activeElement || {}).id === 'end-title'")
    title = rect(page, "#end-title")  # the panel is drawn again when the rating arrives
    assert title["height"] > 0 and title["y"] >= 0 and title["y"] + title["height"] <= 800, title

    note = page.locator(".end-panel [data-key=rated][data-state=rated]")
    note.wait_for()
    answer = page.evaluate(f"() => fetch('/api/tables/{table}/rating').then((r) => r.json())")
    [moved] = answer["changes"]
    assert moved["before"] == 1500 and moved["name"] == "Rated Rui"
    line = page.locator(".end-panel .rating-changes li[data-seat='0']")
    assert line.get_attribute("aria-current") == "true"
    text = line.inner_text()
    sign = "+" if moved["change"] > 0 else "−" if moved["change"] < 0 else "±"
    assert text == f"Rated Rui: {moved['after']} ({sign}{abs(moved['change'])})", text
    won = final["table"]["outcome"]["winners"] == [0]
    assert (moved["change"] > 0) == won, "a win raises the rating, a loss lowers it"
    # the profile shows the same number and change
    page.goto(f"{pages.base}/players/rated%20rui")
    page.wait_for_selector(".player-page .rating-card")
    assert page.inner_text(".rating-card .rating strong") == str(moved["after"])
    change = page.inner_text(f".matches tr[data-table='{table}'] td.change")
    assert change == f"{sign}{abs(moved['change'])}"


def test_a_person_resigns_a_three_player_match_and_a_bot_takes_the_seat(pages: Pages) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    page.select_option("#create-game", "dice-heroes")
    page.select_option("#create-players", "3")
    page.select_option("#seat-kind-1", "bot:easy")
    page.select_option("#seat-kind-2", "bot:random")
    page.select_option("#create-turn", "600")
    page.click(".create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    s = decision(page, -1)
    assert [r["kind"] for r in s["table"]["seats"]] == ["human", "bot", "bot"]
    button = page.locator("button[data-key=resign]")
    # keyboard reachable: focused and pressed with Enter; dismissing the question changes nothing
    page.once("dialog", lambda dialog: dialog.dismiss())
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert state(page)["table"]["seats"][0]["kind"] == "human"
    asked: list[str] = []

    def accept(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", accept)
    button.click()
    page.wait_for_function(
        "() => window.__ludoteca.state.table.seats[0].bot_from !== null"
        " && window.__ludoteca.state.table.seats[0].kind === 'bot'"
    )
    assert asked and "bot" in asked[0]
    mine = state(page)["table"]["seats"][0]
    assert mine["level"] == "medium" and mine["name"] == "Ana"
    assert page.locator("button[data-key=resign]").count() == 0, "nothing left to resign"
    name = page.inner_text(".seats-panel .seat-row[data-seat='0'] .seat-name")
    assert name == "Bot 1 · medium (for Ana)", name
    assert page.locator(".seats-panel .seat-row[data-seat='0'] .bot-badge").count() == 1
    # the bots play the match to its end; the seat's steps after the takeover are a bot's
    page.wait_for_selector(".end-panel", timeout=120_000)
    final = state(page)
    log = page.evaluate("() => window.__ludoteca.log")
    ours = [e for e in log if e.get("seat") == 0 and e["v"] > mine["bot_from"]]
    assert ours and {e["by"] for e in ours} == {"bot"}
    assert final["view"]["over"]


_FINISHED: dict[tuple[str, str], str] = {}


def finished(server: ServerProcess, game: str) -> str:
    """One finished bots' match of ``game`` at ``server``, shared by the sizes that look at it
    (a finished table's page changes nothing)."""
    key = (server.base, game)
    if key not in _FINISHED:
        _FINISHED[key] = bots_only_match(server, game)
    return _FINISHED[key]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", ["heroes", "dice-heroes", "dwarves"])
def test_the_end_shows_the_final_position(
    pages: Pages, web_server: ServerProcess, game: str, size: str
) -> None:
    table = finished(web_server, game)
    page = pages.open(f"/table/{table}", viewport=SIZES[size], touch=size != "desktop")
    page.wait_for_selector(".end-panel #end-title")
    page.wait_for_selector(".board-root > *")
    at = page.evaluate(PLACES)
    title, panel, board = at["title"], at["panel"], at["board"]
    assert title["top"] >= 0 and title["bottom"] <= at["view"], f"result out of sight: {at}"
    # every part of the final board can be scrolled to: the page is as long as the board
    assert board["bottom"] <= at["height"] + 0.5, at
    assert board["right"] <= at["width"] + 0.5, at
    if size == "desktop":
        # beside the board: the board starts in view, next to the result, not pushed below it
        assert panel["left"] >= board["right"], f"the result is not beside the board: {at}"
        assert board["top"] < at["view"] / 3, f"the board starts {board['top']} px down"
    else:
        assert panel["bottom"] <= board["top"], f"the result is not above the board: {at}"
        page.click(".end-panel [data-key=to-board]")
        page.wait_for_function(
            "() => Math.abs(document.querySelector('.board-root').getBoundingClientRect().top)"
            " < 2 || innerHeight + scrollY >= document.documentElement.scrollHeight - 1"
        )
    # nothing fixed or stuck covers the final board: no dock is left at the end
    assert page.locator(".table-dock").is_hidden()
    assert page.locator(".board-controls").is_hidden()
    if game == "heroes" and size != "small":
        screenshot(page, f"end-of-match-{size}")


def test_a_guest_downloads_the_signed_record_and_it_verifies(
    pages: Pages, web_server: ServerProcess, tmp_path: Path
) -> None:
    table = bots_only_match(web_server, "heroes")
    page = pages.open(f"/table/{table}")  # a guest: no account, no seat
    button = page.locator(".end-panel [data-key=download-record]")
    assert button.inner_text().strip() == "Download the signed record"
    with page.expect_download() as info:
        button.click()
    saved = tmp_path / info.value.suggested_filename
    info.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record == web_server.get(f"/api/tables/{table}/record")
    assert record.get("signature"), "the record is signed"
    checked = subprocess.run(
        [sys.executable, "-m", "ludoteca.cli", "verify", str(saved)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ},
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # the replay offers the same record
    page.goto(f"{web_server.base}/replay/{table}")
    link = page.locator(".replay-tools [data-key=download-record]")
    assert link.get_attribute("href") == f"/api/tables/{table}/record"
