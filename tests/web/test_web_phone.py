"""The table on a phone, played by taps: in each game a whole match against bots, switching
between 390×844 and 360×640 from one decision to the next, where every control a move needs and
the clock are on screen and not covered, without the page ever scrolling. Then the replay of the
Heroes match: the view at every version equals what the server sent this seat, and the replay
page steps through it with buttons, keys and the slider."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import pytest
from test_web_dice_heroes import dice_turn
from test_web_dwarves import meet

from kit.browser import PHONE, Pages, State, decision, heroes_turn_by_clicks, start_from_home, state
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = pytest.mark.browser
SMALL: ViewportSize = {"width": 360, "height": 640}
SIZES = [PHONE, SMALL]

REACHABLE = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return `${selector}: missing`;
  const r = el.getBoundingClientRect();
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    return `${selector}: at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`
      + ` outside ${innerWidth}x${innerHeight}`;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!hit || !(hit === el || el.contains(hit)))
    return `${selector}: covered by ${hit ? hit.outerHTML.slice(0, 80) : "nothing"}`;
  if (scrollX !== 0 || scrollY !== 0) return `${selector}: the page scrolled to ${scrollY}`;
  return "";
}"""


def reachable(page: Page, selector: str) -> None:
    problem: str = page.evaluate(REACHABLE, selector)
    assert problem == "", f"{page.viewport_size}: {problem}"


class Thumb:
    """The page as a thumb uses it: every click is a tap on something already on screen."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def click(self, selector: str) -> None:
        reachable(self.page, selector)
        self.page.tap(selector)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)


def settle(page: Page, turn: int) -> None:
    """The next size, and two frames so the layout (and the dock's measured height) follow."""
    page.set_viewport_size(SIZES[turn % 2])
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def play(page: Page, turn_by_taps: Any) -> State:
    version = -1
    for turn in range(400):
        s = decision(page, version)
        if s["view"]["over"]:
            return s
        settle(page, turn)
        reachable(page, "[data-turn-clock]")
        turn_by_taps(Thumb(page), s)
        version = s["version"]
    raise AssertionError("the match did not end")


def phone_table(pages: Pages, game: str) -> Page:
    page = pages.open("/", viewport=SMALL, touch=True)
    start_from_home(page, game)
    return page


def dwarves_by_taps(page: Any, s: State, rng: random.Random, done: set[str]) -> None:
    legal = s["legal"]
    moves = [a for a in legal if a.startswith("to ")]
    if moves:  # the ways to go are buttons in the dock; on doubles, a lit tile of the ring
        pick = rng.choice(sorted(moves))
        way = f".dw-way[data-action='{pick}']"
        page.click(way if page.locator(way).count() else f".dw-tile[data-action='{pick}']")
        return
    done.add(meet(page, legal, rng, done).split()[0])


def test_heroes_by_taps_then_its_replay(pages: Pages, web_server: ServerProcess) -> None:
    page = phone_table(pages, "heroes")
    rng = random.Random(4)
    final = play(page, lambda thumb, s: heroes_turn_by_clicks(thumb, s, rng))
    assert page.locator(".end-panel").count() == 1
    table = final["table"]["id"]

    # what the server sent this seat, version by version, is what the replay shows
    sent: dict[str, Any] = page.evaluate("() => window.__ludoteca.states")
    replay = web_server.get(f"/api/tables/{table}/replay?seat=0")
    steps = replay["steps"]
    assert len(steps) == final["version"] + 1
    assert [frame["version"] for frame in steps] == list(range(len(steps)))
    assert len(sent) > 10
    for version, got in sent.items():
        frame = steps[int(version)]
        assert frame["view"] == got["view"], version
        assert frame["legal"] == got["legal"], version
    assert steps[-1]["view"]["seed"] == final["view"]["seed"]
    assert all(frame["view"]["seed"] is None for frame in steps[:-1])

    # a record file gives the same replay through POST /api/replay
    record = web_server.get(f"/api/tables/{table}/record")
    assert web_server.post("/api/replay?seat=0", record)["steps"] == steps

    # the replay page: opened at the deal, then back, forward, the keys and the slider
    page.click(".end-panel a[href^='/replay/']")
    page.wait_for_url(f"**/replay/{table}")
    page.wait_for_selector(".replay-where")
    last = len(steps) - 1

    def at() -> int:
        return int(page.locator(".replay-where").get_attribute("data-step") or "-1")

    def logged() -> int:
        versions = page.eval_on_selector_all(".log-entry", "els => els.map(e => +e.dataset.v)")
        return max(versions)

    assert at() == 0, "a replay opens at the start"
    page.keyboard.press("End")
    assert at() == last
    page.select_option("#replay-seat", "0")
    page.wait_for_function("() => window.__ludoteca.replay.data.seat === 0")
    page.click(".replay-first")
    assert at() == 0
    assert page.locator(".replay-back").is_disabled()
    page.click(".replay-forward")
    page.keyboard.press("ArrowRight")
    assert at() == 2
    page.keyboard.press("ArrowLeft")
    assert at() == 1
    assert logged() == 1  # the log is in step with the board
    page.locator("#replay-slider").fill(str(last // 2))
    assert at() == last // 2
    assert logged() <= last // 2
    hand = page.eval_on_selector_all(".hr-hero", "els => els.map(e => e.dataset.role)")
    assert hand == steps[last // 2]["view"]["position"]["hand"]
    page.click(".replay-last")
    assert at() == last
    assert page.locator(".replay-forward").is_disabled()


def test_dice_heroes_by_taps(pages: Pages) -> None:
    page = phone_table(pages, "dice-heroes")
    rng = random.Random(6)
    final = play(page, lambda thumb, s: dice_turn(thumb, s, rng))
    assert final["view"]["outcome"] is not None
    assert state(page)["view"]["over"]


def test_dwarves_by_taps(pages: Pages) -> None:
    page = phone_table(pages, "dwarves")
    rng = random.Random(8)
    done: set[str] = set()
    final = play(page, lambda thumb, s: dwarves_by_taps(thumb, s, rng, done))
    assert final["view"]["outcome"] is not None
