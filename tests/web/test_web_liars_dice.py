"""Liar's Dice in the browser: a three-player table (you and two bots) made with the lobby form,
played to the end by taps on a phone (390×844) and by keys on a desktop (1280×800). At every
decision each legal control is on screen and uncovered, at least 44 px (``test_web_fit``'s check),
the picker offers exactly the legal bids, and the lifted cups of a challenge mark the matching
dice."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pytest
from test_web_fit import check

from kit.browser import (
    DESKTOP,
    PHONE,
    Pages,
    decision,
    phone_screenshot,
    screenshot,
    set_name,
    state,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = pytest.mark.browser


def bids(s: dict[str, Any]) -> list[tuple[int, int]]:
    return [
        (a["args"]["quantity"], a["args"]["face"]) for a in s["legal_actions"] if a["kind"] == "bid"
    ]


def smallest_raises(s: dict[str, Any]) -> dict[int, int]:
    """Per face, the smallest legal quantity: what the board suggests."""
    found: dict[int, int] = {}
    for q, f in bids(s):
        found[f] = min(q, found.get(f, q))
    return found


def open_table(pages: Pages, viewport: ViewportSize, touch: bool) -> Page:
    page = pages.open("/", viewport=viewport, touch=touch)
    set_name(page, "Ana")
    page.select_option("#create-game", "liars-dice")
    page.select_option("#create-players", "3")
    page.select_option("#seat-kind-1", "bot:medium")
    page.select_option("#seat-kind-2", "bot:random")
    page.select_option("#create-turn", "600")
    page.click(".create-form button[type=submit]")
    page.wait_for_url("**/table/*")
    s = decision(page, -1)
    assert [r["kind"] for r in s["table"]["seats"]] == ["human", "bot", "bot"]
    assert page.locator(".ld-cup").count() == 3
    return page


def check_turn(page: Page, s: dict[str, Any]) -> None:
    """Every legal control on screen and uncovered; the suggestions are the smallest raise on
    each face; the showdown's marked dice are those that count for the bid."""
    assert check(page, s["legal"], "on the player's turn") >= 1
    raises = smallest_raises(s)
    shown = page.eval_on_selector_all(".ld-raise", "els => els.map(e => e.dataset.action)")
    assert shown == [f"bid {raises[f]} {f}" for f in sorted(raises)]
    assert (page.locator(".ld-liar").count() == 1) == ("liar" in s["legal"])
    position = s["view"]["position"]
    assert page.locator(".ld-cup.mine .ld-die").count() == len(position["hand"])
    shown_down = position["showdown"]
    if shown_down:
        face = shown_down["face"]
        wanted = sum(
            1 for hand in shown_down["hands"] for d in hand if d == face or (face != 6 and d == 6)
        )
        assert page.locator(".ld-lifted .ld-die.match").count() == wanted == shown_down["count"]
        assert page.locator(".ld-lifted-cup.loser").count() == 1


def sent(page: Page, text: str) -> None:
    page.wait_for_function("(a) => window.__ludoteca.sent.at(-1) === a", arg=text)


def turn_by_taps(page: Page, s: dict[str, Any], rng: random.Random) -> str:
    legal = s["legal"]
    roll = rng.random()
    if "liar" in legal and (roll < 0.4 or not bids(s)):
        page.tap(".ld-liar")
        return "liar"
    if roll < 0.7:  # a suggested raise
        q, f = rng.choice(sorted((q, f) for f, q in smallest_raises(s).items()))
        page.tap(f".ld-raise[data-action='bid {q} {f}']")
        return f"bid {q} {f}"
    q, f = rng.choice(bids(s)[:12])  # the picker: a face, the quantity by − and +, then Bid
    page.tap(f".ld-face[data-face='{f}']")
    assert page.locator(f".ld-face[data-face='{f}']").get_attribute("aria-pressed") == "true"
    for _ in range(40):
        now = int(page.locator(".ld-quantity").inner_text())
        if now == q:
            break
        page.tap(".ld-more" if now < q else ".ld-less")
    action = f"bid {q} {f}"
    assert page.locator(".ld-bid-button").get_attribute("data-action") == action
    page.tap(".ld-bid-button")
    return action


def turn_by_keys(page: Page, s: dict[str, Any], rng: random.Random) -> str:
    legal = s["legal"]
    if "liar" in legal and (rng.random() < 0.4 or not bids(s)):
        page.keyboard.press("l")
        return "liar"
    q, f = rng.choice(bids(s)[:12])
    page.keyboard.press(str(f))
    for _ in range(40):
        now = int(page.locator(".ld-quantity").inner_text())
        if now == q:
            break
        page.keyboard.press("ArrowUp" if now < q else "ArrowDown")
    action = f"bid {q} {f}"
    assert page.locator(".ld-bid-button").get_attribute("data-action") == action
    page.keyboard.press("Enter")
    return action


def play_to_the_end(page: Page, turn: Any, rng: random.Random) -> dict[str, Any]:
    version, challenged = -1, False
    for _ in range(400):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        check_turn(page, s)
        challenged = challenged or s["view"]["position"]["showdown"] is not None
        action = turn(page, s, rng)
        assert action in s["legal"]
        sent(page, action)
        version = s["version"]
    else:
        raise AssertionError("the match did not end")
    assert challenged
    final = state(page)
    assert final["view"]["outcome"] is not None
    assert page.locator(".end-panel").count() == 1
    return final


def test_a_three_player_table_by_taps_on_a_phone(pages: Pages) -> None:
    page = open_table(pages, PHONE, touch=True)
    phone_screenshot(page, "liars-dice-phone", readme=False)
    play_to_the_end(page, turn_by_taps, random.Random(4))


def test_a_three_player_table_by_keys_on_a_desktop(pages: Pages) -> None:
    page = open_table(pages, DESKTOP, touch=False)
    screenshot(page, "liars-dice-desktop")
    final = play_to_the_end(page, turn_by_keys, random.Random(5))
    assert final["view"]["position"]["showdown"] is not None
