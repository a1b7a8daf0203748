"""What a newcomer asks at the table without opening the rules: a Heroes hand tile says what its
role's trick does (a tooltip, and a description for a screen reader), and Dice Heroes' "What the
faces mean" shows that it opens."""

from __future__ import annotations

import pytest

from kit.browser import Pages, start_from_home
from kit.servers import ServerProcess

pytestmark = pytest.mark.browser


def test_each_hand_tile_says_what_its_roles_trick_does(
    pages: Pages, web_server: ServerProcess
) -> None:
    board = web_server.get("/api/games/heroes")["board"]
    tricks = web_server.get(board["words"]["en"])["trick"]
    assert len(tricks) == 8
    page = pages.open("/")
    start_from_home(page, "heroes")
    tiles = page.locator(".hr-hand .hr-hero")
    assert tiles.count() >= 4
    for index in range(tiles.count()):
        tile = tiles.nth(index)
        role = tile.get_attribute("data-role")
        assert role in tricks
        assert tile.get_attribute("title") == tricks[role]
        assert tile.get_attribute("aria-description") == tricks[role]
    # and in the reader's language
    german = web_server.get(board["words"]["de"])["trick"]
    page = pages.open("/", locale="de-DE")
    start_from_home(page, "heroes")
    tile = page.locator(".hr-hand .hr-hero").first
    assert tile.get_attribute("title") == german[tile.get_attribute("data-role")]
    assert not pages.errors


def test_what_the_faces_mean_shows_that_it_opens(pages: Pages) -> None:
    page = pages.open("/")
    start_from_home(page, "dice-heroes")
    summary = page.locator(".dh-legend summary")
    summary.scroll_into_view_if_needed()
    marker = "el => { const s = getComputedStyle(el, '::before'); return [s.content, s.width]; }"
    closed, width = summary.evaluate(marker)
    assert "▸" in closed
    assert float(width.removesuffix("px")) > 5  # a visible mark, not an empty box
    summary.click()
    assert page.locator(".dh-legend").evaluate("el => el.open")
    assert "▾" in summary.evaluate(marker)[0]
