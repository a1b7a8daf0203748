"""The home page as a newcomer meets it: every game with a picture of its board (served from the
game's own board folder, with words for those who do not see it), and the lobby starting on the
first screen, at desktop size (its first control, beside the games) and on a phone (its start,
below the games, which scroll sideways)."""

from __future__ import annotations

import pytest

from kit.browser import Pages
from kit.servers import ServerProcess

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_each_game_shows_its_board_and_the_lobby_starts_on_the_first_screen(
    pages: Pages, web_server: ServerProcess, width: int, height: int
) -> None:
    games = web_server.get("/api/games")
    pictured = [game for game in games if game["board"] and game["board"]["picture"]]
    assert len(pictured) >= 3  # the packaged games all bring one
    page = pages.open("/", viewport={"width": width, "height": height})
    page.wait_for_selector(".game-card")
    for game in games:
        card = page.locator(f".game-card[data-game='{game['id']}']")
        picture = card.locator("img.game-picture")
        if game not in pictured:
            assert picture.count() == 0  # a game without a picture shows none, not a broken one
            continue
        assert picture.get_attribute("src") == game["board"]["picture"]
        assert picture.get_attribute("src").startswith(f"/boards/{game['id']}/")
        assert picture.get_attribute("alt") == f"A {game['names']['en']} table in play"
        picture.scroll_into_view_if_needed()
        loaded = picture.evaluate("img => img.decode().then(() => img.naturalWidth, () => 0)")
        assert loaded > 0, game["id"]  # the file is there and is a picture
    page.evaluate("window.scrollTo(0, 0)")
    # at a desktop's size the lobby's first control is on the first screen, beside the games;
    # on a phone the lobby starts on it, below the strip of games
    lobby = page.locator("#lobby")
    first = lobby.locator("input, select, button").first if width > 1100 else lobby
    box = first.bounding_box()
    assert box is not None
    bottom = box["y"] + box["height"] if width > 1100 else box["y"] + 24
    assert box["y"] >= 0 and bottom <= height, (box, height)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    # the first game's picture, its "play now" and "find people" are on the first screen too
    card = page.locator(".game-card").first
    parts = (
        card.locator("img.game-picture"),
        card.locator(".play-now"),
        card.locator(".find-people"),
    )
    for part in parts:
        shown = part.bounding_box()
        assert shown is not None and shown["y"] + shown["height"] <= height
    # nothing scrolls sideways but the strip of games on a phone
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not pages.errors


def test_the_picture_is_described_in_the_readers_language(pages: Pages) -> None:
    page = pages.open("/", locale="de-DE")
    picture = page.locator(".game-card[data-game='heroes'] img.game-picture")
    assert picture.get_attribute("alt") == "Ein Tisch von Helden & Reliquien mitten im Spiel"
