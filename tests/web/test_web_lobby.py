"""Two people in two browsers: one creates a table with a seat for a person, shares the invite
link, the other joins through it, the table starts by itself with every seat taken, and they play
Heroes & Relics to the end."""

from __future__ import annotations

import random

import pytest

from kit.browser import Pages, check_heroes_lit, heroes_turn_by_clicks, set_name, state
from kit.env import milliseconds

pytestmark = pytest.mark.browser


def test_create_invite_join_and_play_each_other_without_pressing_start(pages: Pages) -> None:
    ana = pages.open("/")
    set_name(ana, "Ana")
    ana.select_option("#create-game", "heroes")
    ana.select_option("#seat-kind-1", "person")
    ana.select_option("#create-turn", "600")
    ana.click(".create-form button[type=submit]")
    ana.wait_for_url("**/table/*")
    ana.wait_for_selector(".waiting")
    invite = ana.input_value("#invite-link")
    table = invite.rsplit("/", 1)[1]
    assert invite.endswith(f"/table/{table}")
    assert ana.locator(".waiting .seat-row.free").count() == 1
    # a server on 127.0.0.1 only: no QR code, but how to open it to other devices
    assert ana.locator(".invite-qr").count() == 0
    assert "--host 0.0.0.0" in ana.inner_text(".invite-local")
    assert ana.locator(".start-table").is_visible()
    ana.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ana.click(".copy-invite")
    ana.wait_for_function("() => document.getElementById('toast').textContent !== ''")
    assert ana.locator("#toast").inner_text() == "Invite link copied."
    assert ana.evaluate("() => navigator.clipboard.readText()") == invite

    # the open table is listed in the lobby for everyone
    bia = pages.open("/")
    set_name(bia, "Bia")
    bia.wait_for_selector(f".open-table[data-table='{table}']")

    bia.goto(invite)
    bia.click(".join-seat")
    bia.wait_for_function("() => window.__ludoteca.seat === 1")
    # the last seat is taken by a person: the match starts with nobody pressing Start
    for page in (ana, bia):
        page.wait_for_function(
            "() => window.__ludoteca.state.view !== null", timeout=milliseconds(15_000)
        )
        assert page.locator(".start-table").count() == 0

    players = {0: ana, 1: bia}
    rng = random.Random(23)
    seen = {0: -1, 1: -1}
    for turn in range(400):
        ana.wait_for_function("() => window.__ludoteca.state.view !== null")
        s = state(ana)
        if s["view"]["over"]:
            break
        mover = s["view"]["to_move"]
        page = players[mover]
        page.wait_for_function(
            "(v) => { const s = window.__ludoteca.state; return s.version > v && s.legal.length; }",
            arg=seen[mover],
        )
        mine = state(page)
        assert mine["seat"] == mover
        if turn < 6:  # each hand's lit rooms on its first turns (a whole match: test_web_heroes)
            check_heroes_lit(page, mine)
        heroes_turn_by_clicks(page, mine, rng)
        seen[mover] = mine["version"]
        ana.wait_for_function("(v) => window.__ludoteca.state.version > v", arg=mine["version"])
    else:
        raise AssertionError("the match did not end")
    for page in players.values():
        page.wait_for_selector(".end-panel")
    seeds = {page.locator("[data-seed]").text_content() for page in players.values()}
    assert len(seeds) == 1
    table_over = state(bia)["table"]
    assert [seat["kind"] for seat in table_over["seats"]] == ["human", "human"]
    assert [seat["name"] for seat in table_over["seats"]] == ["Ana", "Bia"]


def test_the_open_lobby_follows_tables_added_changed_and_removed(pages: Pages) -> None:
    """The lobby stays open in one browser while another creates a table, a third takes a seat
    and the creator starts it: the list follows each change within 2 s, without a reload."""
    watcher = pages.open("/")
    watcher.wait_for_selector(".open-tables h3")

    ana = pages.open("/")
    set_name(ana, "Ana")
    ana.select_option("#create-game", "dice-heroes")
    ana.select_option("#create-players", "3")
    ana.select_option("#seat-kind-1", "person")
    ana.select_option("#seat-kind-2", "person")
    ana.click(".create-form button[type=submit]")
    ana.wait_for_url("**/table/*")
    table = ana.url.rsplit("/", 1)[1]
    row = f".open-table[data-table='{table}']"
    watcher.wait_for_selector(row, timeout=2000)
    assert "2 of 3 seats free" in watcher.inner_text(row)
    assert "Ana" in watcher.inner_text(f"{row} .who")

    bia = pages.open(f"/table/{table}")
    bia.fill("#guest-name", "Bia")  # a guest types the name the others see before joining
    bia.click(".join-seat")
    bia.wait_for_function("() => window.__ludoteca.seat !== null")
    watcher.wait_for_function(
        "(row) => document.querySelector(row).textContent.includes('1 of 3 seats free')",
        arg=row,
        timeout=2000,
    )

    ana.click(".start-table")
    watcher.wait_for_selector(row, state="detached", timeout=2000)
    assert watcher.url.endswith("/")
