"""The end of a match in the browser: a rated match against a bot says it was rated and shows the
person's new rating with its change ("+12") as soon as the rater got to it."""

from __future__ import annotations

import random

import pytest

from kit.browser import Pages, play_heroes_by_clicks

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
