"""Heroes & Relics in the browser: whole matches by clicks and by keyboard only, the lit rooms
against the legal actions the page received, a refresh that resumes the seat, and screenshots."""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import (
    Pages,
    decision,
    lit_targets,
    phone_screenshot,
    play_heroes_by_clicks,
    screenshot,
    set_name,
    start_from_home,
    state,
    targets_for,
)
from kit.env import milliseconds

pytestmark = pytest.mark.browser

if TYPE_CHECKING:
    from playwright.sync_api import Page


def test_whole_match_by_clicks_lights_exactly_the_legal_rooms(pages: Pages) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    start_from_home(page, "heroes")
    s = state(page)
    assert s["seat"] == 0
    seats = page.locator(".seat-row")
    assert seats.nth(1).locator(".bot-badge").count() == 1
    assert seats.nth(0).locator(".bot-badge").count() == 0
    assert page.locator("[data-fingerprint]").inner_text() == s["table"]["fingerprint"]

    # with no hero lifted, tapping a room shows its stack and its wards
    rooms = s["view"]["position"]["rooms"]
    room = max(rooms, key=lambda r: (len(r["stack"]), len(r["wards"])))
    page.click(f".hr-room[data-room='{room['room']}']")
    info = page.locator(".hr-info")
    assert info.locator(".hr-stack li").count() == len(room["stack"])
    assert info.locator("ul li").count() == len(room["wards"])
    assert not lit_targets(page)
    page.click(f".hr-room[data-room='{room['room']}']")  # tapped again: closed
    assert info.count() == 0

    final = play_heroes_by_clicks(page, random.Random(7))

    assert final["view"]["over"]
    end = page.locator(".end-panel")
    end.wait_for()
    page.click(".end-panel .proof-fold > summary")  # the proof, folded below the result
    # the revealed secret, whose SHA-256 is the commitment shown beside it
    secret = page.locator(".end-panel [data-secret]").inner_text()
    assert secret == final["view"]["secret"]
    commitment = page.locator(".end-panel [data-commitment]").inner_text()
    assert hashlib.sha256(secret.encode()).hexdigest() == commitment == final["view"]["commitment"]
    revealed = page.locator(".revealed li")
    assert revealed.count() == 2  # both groups' set-aside heroes
    link = end.locator("a[href^='/verify?table=']")
    assert link.get_attribute("href") == f"/verify?table={final['table']['id']}"


def press_until_focused(page: Page, key: str, wanted: str) -> None:
    for _ in range(20):
        if page.evaluate("() => document.activeElement.dataset.key") == wanted:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {wanted}")


def keyboard_turn(page: Page, s: dict[str, Any], rng: random.Random) -> None:
    legal = s["legal"]
    strikes = sorted(targets_for(legal, "strike "))
    if strikes:
        assert lit_targets(page) == set(strikes)
        page.keyboard.press("ArrowRight")  # into the keep
        press_until_focused(page, "ArrowRight", f"room-{rng.choice(strikes)}")
        page.keyboard.press("Enter")
        return
    hand = page.eval_on_selector_all(".hr-hero", "els => els.map(e => e.dataset.role)")
    choices = [
        (i, r) for i, r in enumerate(hand) if any(a.startswith(f"place {r} ") for a in legal)
    ]
    if not choices or ("draw" not in legal and "skip" in legal and rng.random() < 0.2):
        page.keyboard.press("r" if "draw" in legal else "s")
        return
    if "draw" in legal and rng.random() < 0.15:
        # Space draws only when no control has the focus (else it activates that control)
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("Space")
        return
    index, role = rng.choice(choices)
    page.keyboard.press(str(index + 1))
    targets = targets_for(legal, f"place {role} ")
    assert lit_targets(page) == targets
    if rng.random() < 0.1:  # change of mind: Esc puts the hero back
        page.keyboard.press("Escape")
        assert not lit_targets(page)
        page.keyboard.press(str(index + 1))
    # drawn like the rules' diagram: Gold's north camp on top, Blue's south camp at the bottom
    camp_key = "camp-bottom" if s["seat"] == 0 else "camp-top"
    target = camp_key if "camp" in targets else f"room-{rng.choice(sorted(targets - {'camp'}))}"
    page.keyboard.press("ArrowRight")
    press_until_focused(page, "ArrowRight", target)
    page.keyboard.press("Enter")


def test_whole_match_by_keyboard_only(pages: Pages) -> None:
    page = pages.open("/")
    for _ in range(80):  # Tab to the "play now" button of Heroes & Relics, as a person would
        page.keyboard.press("Tab")
        if page.evaluate(
            "() => document.activeElement.matches(\"article[data-game='heroes'] .play-now\")"
        ):
            break
    else:
        raise AssertionError("Tab never reached the Heroes & Relics 'play now' button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/table/*")
    decision(page, -1)
    page.keyboard.press("ArrowDown")  # into the keep: the room in focus shows it
    outline = page.evaluate(
        "() => { const el = document.activeElement;"
        " return [el.dataset.key, getComputedStyle(el).outlineStyle]; }"
    )
    assert outline[0].startswith(("room-", "camp-"))
    assert outline[1] == "solid"
    rng = random.Random(11)
    version = -1
    for _ in range(400):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        keyboard_turn(page, s, rng)
        version = s["version"]
    else:
        raise AssertionError("the match did not end")
    assert page.locator(".end-panel").is_visible()
    sent = page.evaluate("() => window.__ludoteca.sent")
    assert sent, "the keyboard sent no action"


def test_refresh_mid_match_resumes_the_seat_and_screenshots(pages: Pages) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    start_from_home(page, "heroes")
    s = decision(page, -1)
    table = s["table"]["id"]
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('ludoteca.seats'))['{table}']")
    assert token["seat"] == s["seat"] == 0
    page.click(".hr-draw")  # one action, then a refresh
    s = decision(page, s["version"])

    page.reload()
    again = decision(page, -1)
    assert again["seat"] == 0
    assert page.evaluate("() => window.__ludoteca.seat") == 0
    assert again["version"] >= s["version"]
    assert page.locator(".seat-row.mine .you-badge").count() == 1
    assert page.locator(".log-entry").count() >= 2  # the whole log came back

    # lift a hero so the lit rooms show, for the pictures
    roles = page.eval_on_selector_all(".hr-hero", "els => els.map(e => e.dataset.role)")
    index = next(
        i for i, r in enumerate(roles) if any(a.startswith(f"place {r} ") for a in again["legal"])
    )
    page.click(f".hr-hero[data-index='{index}']")
    assert lit_targets(page)
    screenshot(page, "heroes-desktop", readme=True)
    phone_screenshot(page, "heroes-phone")
    page.keyboard.press("Escape")
    assert not lit_targets(page)

    # the same seat acts after the refresh
    page.click(f".hr-hero[data-index='{index}']")
    room = sorted(lit_targets(page) - {"camp"})[0]
    page.click(f".hr-room[data-room='{room}']")
    page.wait_for_function(
        "(v) => window.__ludoteca.state.version > v",
        arg=again["version"],
        timeout=milliseconds(10_000),
    )
    entry = page.evaluate("(v) => window.__ludoteca.log.find(e => e.v === v + 1)", again["version"])
    assert entry["seat"] == 0
    assert entry["by"] == "player"
    assert entry["action"] == f"place {roles[index]} {room}"
