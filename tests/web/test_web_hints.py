"""What a newcomer meets at the table besides the game: a Heroes hand tile says what its role's
trick does (a tooltip, and a description for a screen reader), Dice Heroes' "What the faces mean"
shows that it opens, the header's links stay reachable on a phone, and the Dwarves end panel adds
no second "Chests" landmark."""

from __future__ import annotations

import pytest

from kit.browser import Pages, bots_only_match, start_from_home
from kit.env import seconds
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
    # read in one go: the board is redrawn on every state
    tiles = page.eval_on_selector_all(
        ".hr-hand .hr-hero",
        "els => els.map(e => [e.dataset.role, e.title, e.getAttribute('aria-description')])",
    )
    assert tiles, "the hand shows its heroes"  # four or five, fewer once one was played
    for role, title, description in tiles:
        assert role in tricks
        assert title == description == tricks[role]
    # and in the reader's language
    german = web_server.get(board["words"]["de"])["trick"]
    page = pages.open("/", locale="de-DE")
    start_from_home(page, "heroes")
    role, title = page.eval_on_selector(".hr-hand .hr-hero", "e => [e.dataset.role, e.title]")
    assert title == german[role] != tricks[role]
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


def test_at_a_table_on_a_phone_every_link_of_the_header_stays_reachable(pages: Pages) -> None:
    """The header keeps one line at a table on a phone: the links that do not fit scroll sideways
    inside it instead of vanishing (the Leaderboards and the Account among them)."""
    page = pages.open("/", viewport={"width": 390, "height": 844}, touch=True)
    start_from_home(page, "heroes")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 60  # one line
    for href in ("/", "/verify", "/leaderboard", "/account"):
        link = page.locator(f".site-nav a[href='{href}']")
        assert link.is_visible(), href
        link.focus()  # Tab brings it into view within the header
        box = link.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (href, box)
        assert box["y"] + box["height"] <= header["y"] + header["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator(".site-nav a[href='/account']").click()
    page.wait_for_url("**/account")


def test_the_dwarves_end_panel_adds_no_second_chests_landmark(
    pages: Pages, web_server: ServerProcess
) -> None:
    """At the end the chests are shown in the result panel too, but as one landmark: the board's."""
    table = bots_only_match(web_server, "dwarves", seconds(120))
    page = pages.open(f"/table/{table}")
    page.wait_for_selector(".dw-chests >> nth=1")  # the board's, and the end panel's copy
    assert page.locator(".dw-chests").count() == 2
    assert page.get_by_role("region", name="Chests").count() == 1
    assert not pages.errors
