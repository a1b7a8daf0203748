"""A new game is one package plus, optionally, one board folder: the toy game of tests/toygame,
registered from outside the package, is played in the browser to the end on the board its package
brings (served from its folder), and, under another id without a board, on the generic board."""

from __future__ import annotations

import json
import os
import random
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from kit.browser import Pages, decision, rect
from kit.env import TESTS, seconds
from kit.servers import ServerProcess


@pytest.fixture(scope="module")
def toy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    path = os.pathsep.join(p for p in (str(TESTS), os.environ.get("PYTHONPATH", "")) if p)
    env = {"PYTHONPATH": path, "LUDOTECA_GAMES": "toygame,toygame.plain"}
    process = ServerProcess(tmp_path_factory.mktemp("toy-server"), env=env).start()
    yield process
    process.stop()


def status(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=seconds(10)) as answer:
            return answer.status, answer.headers.get("Content-Type", "")
    except urllib.error.HTTPError as error:
        return error.code, ""


@pytest.mark.slow
def test_a_board_folder_serves_its_files_and_nothing_else(toy_server: ServerProcess) -> None:
    base = toy_server.base
    with urllib.request.urlopen(f"{base}/api/games", timeout=seconds(10)) as answer:
        boards = {game["id"]: game["board"] for game in json.load(answer)}
    toy = boards["high-card"]
    root = toy["module"].rsplit("/", 1)[0] + "/"
    assert root.startswith("/boards/high-card/") and len(root.split("/")) == 5  # its version
    assert toy == {
        "picture": None,
        "module": root + "board.js",
        "parts": [],
        "styles": [root + "board.css"],
        "namespace": "high-card",
        "words": {lang: f"{root}words.{lang}.json" for lang in ("en", "pt", "de")},
    }
    assert boards["high-card-plain"] is None
    for game in ("heroes", "dice-heroes", "dwarves"):  # every board is served the same way
        assert boards[game]["module"].startswith(f"/boards/{game}/")
    for board in filter(None, boards.values()):
        for url in (board["module"], *board["parts"], *board["styles"], *board["words"].values()):
            assert status(f"{base}{url}")[0] == 200, url
        if board["picture"]:  # the catalogue's picture of the board, from the same folder
            answer = status(f"{base}{board['picture']}")
            assert answer[0] == 200 and answer[1].startswith("image/"), board["picture"]
    assert status(f"{base}{root}board.js") == (200, "text/javascript; charset=utf-8")
    assert status(f"{base}{root}words.pt.json") == (200, "application/json")
    with urllib.request.urlopen(f"{base}{root}board.css", timeout=10) as answer:
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    other = f"{base}/boards/high-card/0123456789ab/board.css"
    with urllib.request.urlopen(other, timeout=10) as answer:
        assert answer.headers["Cache-Control"] == "no-cache"  # another version: revalidated
        tag = answer.headers["ETag"]
    again = urllib.request.Request(other, headers={"If-None-Match": tag})
    with pytest.raises(urllib.error.HTTPError) as unchanged:
        urllib.request.urlopen(again, timeout=10)
    unchanged.value.close()
    assert unchanged.value.code == 304
    for path in ("board/../game.py", "..%2Fgame.py", "game.py", "nothing.js", "/etc/passwd.css"):
        assert status(f"{base}{root}{path}")[0] == 404, path
    assert status(f"{base}/boards/high-card/board.js")[0] == 404  # no version: no file
    assert status(f"{base}/boards/high-card-plain/v/board.js")[0] == 404  # no board of its own


def test_the_toy_game_is_played_to_the_end_on_its_own_board(
    browser: Any, toy_server: ServerProcess
) -> None:
    pages = Pages(browser, toy_server.base)
    page = pages.open("/")
    page.locator("article[data-game='high-card'] .play-now").click()
    page.wait_for_url("**/table/*")
    pick = random.Random(4)
    version = -1
    for _ in range(20):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        assert page.locator(".hc-board").count() == 1, "the board of the game's package"
        assert page.locator(".hc-action").count() == len(s["legal"])
        text = pick.choice(s["legal"])
        page.click(f".hc-action[data-action='{text}']")
        version = s["version"]
    assert s["view"]["over"], "the match ends"
    page.locator(".end-panel").wait_for()
    styled = page.evaluate("getComputedStyle(document.querySelector('.hc-card')).borderTopStyle")
    assert styled == "solid", "the board's own style sheet is loaded with it"
    assert page.locator("link[href$='/board.css'][href^='/boards/high-card/']").count() == 1
    assert page.locator(".hc-board h2").first.inner_text() == "Discards", "the board's own words"
    for context in pages.contexts:
        context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)


def test_the_toy_game_is_played_to_the_end_on_the_generic_board(
    browser: Any, toy_server: ServerProcess
) -> None:
    pages = Pages(browser, toy_server.base)
    page = pages.open("/")
    card = page.locator("article[data-game='high-card-plain']")
    assert card.count() == 1, "the catalogue lists a game registered from outside the package"
    card.locator(".play-now").click()
    page.wait_for_url("**/table/*")
    pick = random.Random(3)
    version = -1
    for _ in range(20):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        assert page.locator(".gb-action").count() == len(s["legal"])
        text = pick.choice(s["legal"])
        page.click(f".gb-action[data-action='{text}']")
        version = s["version"]
    assert s["view"]["over"], "the match ends"
    page.locator(".end-panel").wait_for()
    assert page.locator(
        ".end-panel [data-proof-verdict], .end-panel [data-key='proof-check']"
    ).count()
    for context in pages.contexts:
        context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)


def test_the_end_shows_the_result_first_and_play_again_deals_a_new_match(
    browser: Any, toy_server: ServerProcess
) -> None:
    """At the end: the result has the focus and is on screen, Play again, Replay and Verify come
    before the folded proof, the dock holds nothing; Play again opens a new table of the same
    game with the same bots, started with a new deal."""
    pages = Pages(browser, toy_server.base)
    page = pages.open("/", viewport={"width": 390, "height": 844}, touch=True)
    page.locator("article[data-game='high-card-plain'] .play-now").click()  # the generic board
    page.wait_for_url("**/table/*")
    first = page.url.rsplit("/", 1)[1]
    pick = random.Random(5)
    version = -1
    for _ in range(20):
        s = decision(page, version)
        if s["view"]["over"]:
            break
        page.click(f".gb-action[data-action='{pick.choice(s['legal'])}']")
        version = s["version"]
    assert s["view"]["over"], "the match ends"
    page.wait_for_function(
        "() => document.activeElement && document.activeElement.id === 'end-title'"
    )
    order = page.eval_on_selector_all(
        ".end-panel h2, .end-panel [data-key='again'], .end-panel [data-key='replay-link'],"
        " .end-panel [data-key='verify-link'], .end-panel .proof-fold",
        "els => els.map(e => e.dataset.key || e.className || e.tagName)",
    )
    assert order == ["H2", "again", "replay-link", "verify-link", "proof-fold"]
    assert page.locator(".end-panel .proof-fold").get_attribute("open") is None
    box = rect(page, "#end-title")
    assert box["height"] > 0 and box["y"] >= 0 and box["y"] + box["height"] <= 844
    assert page.locator(".table-dock").is_hidden()
    old = toy_server.get(f"/api/tables/{first}")["table"]

    page.click(".end-panel [data-key='again']")
    page.wait_for_function("(first) => !location.pathname.endsWith(first)", arg=first)
    page.wait_for_function(  # the new table's first state, not the last one of the old
        "(first) => window.__ludoteca.state && window.__ludoteca.state.table.id !== first",
        arg=first,
    )
    again = decision(page, -1)
    new = again["table"]
    assert new["id"] != first and new["game"] == old["game"]
    assert [(x["bot"], x["level"]) for x in new["seats"]] == [
        (x["bot"], x["level"]) for x in old["seats"]
    ]
    assert new["status"] in {"playing", "over"}
    assert new["commitment"] != old["commitment"]
    assert again["seat"] == 0
    for context in pages.contexts:
        context.close()
    assert pages.errors == [], "JavaScript errors in the browser:\n" + "\n".join(pages.errors)
