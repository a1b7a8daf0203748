"""A turn-based table in two browsers: the lobby's pace choice, the pace in the open list and at
the table, and the deadline shown as a date and time in the viewer's time zone."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from kit.browser import Pages, set_name, state
from kit.env import milliseconds

pytestmark = pytest.mark.browser


def test_a_table_made_turn_based_shows_its_pace_and_deadline(pages: Pages) -> None:
    ana = pages.open("/")
    set_name(ana, "Ana")
    ana.select_option("#create-game", "heroes")
    ana.select_option("#seat-kind-1", "person")
    assert ana.locator("#create-turn").count() == 1  # real-time: a time per turn
    ana.select_option("#create-pace", str(24 * 3600))
    assert ana.locator("#create-turn").count() == 0
    assert "bot takes your seat" in ana.inner_text("[data-key='pace-hint']")
    ana.click(".create-form button[type=submit]")
    ana.wait_for_url("**/table/*")
    ana.wait_for_selector(".waiting")
    assert ana.inner_text(".pace-chip") == "1 day per move"
    invite = ana.input_value("#invite-link")
    table = invite.rsplit("/", 1)[1]

    bia = pages.open("/")
    set_name(bia, "Bia")
    row = bia.wait_for_selector(f".open-table[data-table='{table}'] [data-pace='turn-based']")
    assert row is not None and row.inner_text() == "1 day per move"
    bia.goto(invite)
    bia.click(".join-seat")
    for page in (ana, bia):
        page.wait_for_function(
            "() => window.__ludoteca.state.view !== null", timeout=milliseconds(20_000)
        )
    s = state(ana)
    assert s["table"]["pace"] == "turn-based" and s["table"]["turn_seconds"] == 24 * 3600
    deadline = s["clock"]["deadline"]
    assert abs(deadline - (time.time() + 24 * 3600)) < 60
    # the date and time in the page's own time zone, not the server's
    offset = ana.evaluate("() => new Date().getTimezoneOffset()")
    local = datetime.fromtimestamp(deadline, UTC) - timedelta(minutes=offset)
    for page in (ana, bia):
        shown = " ".join(page.inner_text(".turn-clock .deadline").split())  # any space: one
        # the page speaks English, whose clock has twelve hours: "Thu, Dec 4, 06:30 PM"; "Move
        # by" for the person to move, the others see until when the mover has
        moving = state(page)["clock"]["seat"] == page.evaluate("() => window.__ludoteca.seat")
        assert shown.startswith("Move by " if moving else "has until "), shown
        assert local.strftime("%I:%M %p") in shown
        assert str(local.day) in shown
        assert page.locator(".turn-clock .clock").count() == 0  # no countdown of seconds
