"""The end of a match in the browser: a rated match against a bot says it was rated and shows the
person's new rating with its change ("+12") as soon as the rater got to it; a person who resigns
a three-player match hands the seat to a bot, marked, which plays it to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kit.browser import Pages, decision, play_heroes_by_clicks, set_name, state

pytestmark = pytest.mark.browser


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
