"""Dice Heroes in the browser: a three-player table made with the lobby form, played to the end by
clicking dice, Roll and Stop; only the dice "reroll" accepts can be marked; the keys work."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import Pages, decision, phone_screenshot, screenshot, set_name, state

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


def markable(legal: list[str]) -> set[int]:
    return {int(a.split()[1]) for a in legal if re.fullmatch(r"reroll \d+", a)}


def enabled_dice(page: Page) -> set[int]:
    found = page.eval_on_selector_all(
        ".dh-die-button:not([disabled])", "els => els.map(e => Number(e.dataset.die))"
    )
    return set(found)


def dice_turn(page: Page, s: dict[str, Any], rng: random.Random) -> str:
    legal = s["legal"]
    enabled = enabled_dice(page)
    assert enabled == markable(legal)
    assert page.locator(".dh-reroll").is_disabled()  # nothing marked yet
    if not enabled or rng.random() < 0.45:
        page.click(".dh-stop")
        return "stop"
    chosen = rng.sample(sorted(enabled), rng.randint(1, len(enabled)))
    for die in chosen:
        page.click(f".dh-die-button[data-die='{die}']")
    text = "reroll " + " ".join(str(d) for d in sorted(chosen))
    assert text in legal
    assert page.locator(".dh-die-button.marked").count() == len(chosen)
    page.click(".dh-reroll")
    return text


def test_three_players_from_the_lobby_form_to_the_end(pages: Pages) -> None:
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
    rows = s["table"]["seats"]
    assert [r["kind"] for r in rows] == ["human", "bot", "bot"]
    assert [r["level"] for r in rows[1:]] == ["easy", "random"]
    assert s["table"]["turn_seconds"] == 600
    assert page.locator(".dh-seat").count() == 3

    # the keys: a digit marks a die, again unmarks it; S stops
    first = min(markable(s["legal"]))
    page.keyboard.press(str(first))
    assert (
        page.locator(f".dh-die-button[data-die='{first}']").get_attribute("aria-pressed") == "true"
    )
    screenshot(page, "dice-heroes-desktop", readme=True)
    phone_screenshot(page, "dice-heroes-phone")
    page.keyboard.press(str(first))
    assert page.locator(".dh-die-button.marked").count() == 0
    page.keyboard.press("s")
    page.wait_for_function("() => window.__ludoteca.sent.at(-1) === 'stop'")

    rng = random.Random(3)
    version = s["version"]
    for _ in range(400):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        sent = dice_turn(page, s, rng)
        page.wait_for_function("(a) => window.__ludoteca.sent.at(-1) === a", arg=sent)
        version = s["version"]
    else:
        raise AssertionError("the match did not end")
    final = state(page)
    assert len(final["view"]["outcome"]["scores"]) == 3
    assert page.locator(".end-panel .scores tr").count() == 3
