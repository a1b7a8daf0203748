"""Everything a turn needs fits the screen: in each game at 1280×800, 390×844 and 360×640, on
the player's turn, every element that sends a legal action (it carries ``data-action``) is inside
the viewport, not covered, and at least 44 px each way, without the page scrolling; and no page
(table, replay, verify) scrolls sideways. The board's controls never cover the board: beside it on
a desktop, and on a phone the page keeps the dock's height free below the board, so every part of
the board scrolls into view above the dock; and what the prompt and the decision refer to (the
parts a board marks ``data-refers`` on the player's turn) shows above the dock, or clear of the
controls, as the table first shows, without a scroll."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import DESKTOP, PHONE, Pages, bots_only_match, decision
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize

pytestmark = pytest.mark.browser
SMALL: ViewportSize = {"width": 360, "height": 640}
SIZES = {"desktop": DESKTOP, "phone": PHONE, "small": SMALL}
GAMES = ["heroes", "dice-heroes", "dwarves", "liars-dice"]
TAP = 44

# every element whose data-action is legal now: where it is and what is on top of its centre
ON_SCREEN = """([legal, tap]) => {
  const problems = [];
  let seen = 0;
  for (const el of document.querySelectorAll("[data-action]")) {
    if (!legal.includes(el.dataset.action)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not rendered
    seen += 1;
    const what = `${el.className} [${el.dataset.action}]`;
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      problems.push(`${what}: at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`
        + ` outside ${innerWidth}x${innerHeight}`);
    else {
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !el.contains(hit))
        problems.push(`${what}: covered by ${hit ? hit.outerHTML.slice(0, 80) : "nothing"}`);
    }
    if (r.width < tap - 0.5 || r.height < tap - 0.5)
      problems.push(`${what}: ${Math.round(r.width)}x${Math.round(r.height)} px`);
  }
  if (scrollX !== 0 || scrollY !== 0) problems.push(`the page scrolled to ${scrollX},${scrollY}`);
  return {seen, problems};
}"""

SIDEWAYS = "() => document.documentElement.scrollWidth - innerWidth"

# every control on the table page a finger may need: its height (and a button's width) in px
SMALL_TARGETS = """(tap) => [...document.querySelectorAll(
    '.table-page button, .table-page summary, .table-page select, .table-page a.button,'
    + ' .table-page .rules-link')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => [el, el.getBoundingClientRect()])
  .filter(([el, r]) => r.height < tap - 0.5 || (el.tagName === 'BUTTON' && r.width < tap - 0.5))
  .map(([el, r]) => `${el.tagName}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`)
"""


def frames(page: Page) -> None:
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def check(page: Page, legal: list[str], when: str) -> int:
    frames(page)
    found: dict[str, Any] = page.evaluate(ON_SCREEN, [legal, TAP])
    assert found["problems"] == [], f"{page.viewport_size} {when}: {found['problems']}"
    seen: int = found["seen"]
    return seen


# the board's parts (its sections, panels, rows) against whatever holds the controls: on a wide
# screen they overlap nowhere; on a phone each part, scrolled to, ends above the fixed dock
UNCOVERED = """() => {
  const dock = document.querySelector('.table-dock');
  const fixed = getComputedStyle(dock).position === 'fixed';
  const cover = (fixed ? dock : document.querySelector('.board-controls')).getBoundingClientRect();
  const parts = [...document.querySelectorAll(
    '.board-root section, .board-root [aria-label], .board-root h2, .board-root h3,'
    + ' .board-root tr')]
    .filter(el => el.getClientRects().length);
  const problems = [];
  for (const el of parts) {
    const what = `${el.tagName}.${el.className}`;
    if (fixed) {
      // scrolled as far as the page goes so that the part's bottom sits above the dock
      const r0 = el.getBoundingClientRect();
      window.scrollTo(0, Math.max(0, r0.bottom + scrollY - cover.top));
      const r = el.getBoundingClientRect();
      const under = r.bottom - dock.getBoundingClientRect().top;
      if (under > 0.5) problems.push(`${what} ends ${Math.round(under)} px under the dock`);
    } else {
      const r = el.getBoundingClientRect();
      const overlap = r.left < cover.right && cover.left < r.right
        && r.top < cover.bottom && cover.top < r.bottom;
      if (overlap) problems.push(`${what} under the controls`);
    }
  }
  window.scrollTo(0, 0);
  return {parts: parts.length, problems};
}"""


# the parts the player's decision refers to (a board marks them data-refers on the player's turn),
# as the table first shows: inside the window and above the fixed dock (or clear of the controls)
REFERRED = """() => {
  const dock = document.querySelector('.table-dock');
  const fixed = getComputedStyle(dock).position === 'fixed';
  const cover = (fixed ? dock : document.querySelector('.board-controls')).getBoundingClientRect();
  const parts = [...document.querySelectorAll('.board-root [data-refers]')]
    .filter(el => el.getClientRects().length);
  const problems = [];
  for (const el of parts) {
    const r = el.getBoundingClientRect();
    const what = `${el.tagName}.${el.className}`;
    if (r.top < -0.5 || r.bottom > innerHeight + 0.5)
      problems.push(`${what} at ${Math.round(r.top)}-${Math.round(r.bottom)}, outside the window`);
    if (fixed && r.bottom > cover.top + 0.5)
      problems.push(`${what} ends ${Math.round(r.bottom - cover.top)} px under the dock`);
    const overlap = r.left < cover.right && cover.left < r.right
      && r.top < cover.bottom && cover.top < r.bottom;
    if (!fixed && overlap) problems.push(`${what} under the controls`);
  }
  return {parts: parts.length, problems, scrolled: scrollY};
}"""


def no_sideways(page: Page, what: str) -> None:
    frames(page)
    extra: int = page.evaluate(SIDEWAYS)
    assert extra <= 0, f"{what} at {page.viewport_size} scrolls {extra} px sideways"


def my_turn(page: Page) -> dict[str, Any]:
    version = -1
    for _ in range(40):
        s = decision(page, version)
        assert not s["view"]["over"], "the match ended before the player's turn"
        if s["legal"]:
            return s
        version = s["version"]
    raise AssertionError("no turn for the player")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_legal_control_is_on_screen(pages: Pages, game: str, size: str) -> None:
    page = pages.open("/", viewport=SIZES[size], touch=size != "desktop")
    page.click(f"article[data-game='{game}'] .play-now")
    page.wait_for_url("**/table/*")
    s = my_turn(page)
    legal = s["legal"]
    seen = check(page, legal, "at the start of the turn")
    no_sideways(page, "the table")
    assert page.evaluate(SMALL_TARGETS, TAP) == [], "tap targets under 44 px"
    # what lights up once a choice is begun: a hero lifted, a die marked
    if game == "heroes" and not any(a.startswith("strike ") for a in legal):
        lift = page.locator(".hr-hero:not(.idle)").first
        if lift.count():
            lift.click()
            page.wait_for_selector(".hr-room.lit, .hr-camp.lit")
            seen = check(page, legal, "with a hero lifted")
            assert seen >= 2, "lifting a hero lit nothing"
    elif game == "dice-heroes" and page.locator(".dh-die-button.lit").count():
        page.locator(".dh-die-button.lit").first.click()
        seen = check(page, legal, "with a die marked")
        assert page.locator(".dh-reroll[data-action]").count() == 1
    assert seen >= 1, f"no control for {legal}"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_the_dock_covers_neither_the_board_nor_what_the_decision_refers_to(
    pages: Pages, game: str, size: str
) -> None:
    page = pages.open("/", viewport=SIZES[size], touch=size != "desktop")
    page.click(f"article[data-game='{game}'] .play-now")
    page.wait_for_url("**/table/*")
    my_turn(page)
    frames(page)
    # what the decision refers to, as the table first shows (before anything scrolls)
    referred: dict[str, Any] = page.evaluate(REFERRED)
    assert referred["parts"] >= 1, f"{game}: its board marks nothing its decision refers to"
    assert referred["scrolled"] == 0
    assert referred["problems"] == [], f"{game} at {page.viewport_size}: {referred['problems']}"
    # every part of the board, each scrolled to: above the dock on a phone, beside it elsewhere
    found: dict[str, Any] = page.evaluate(UNCOVERED)
    assert found["parts"] >= 2, "no board parts found"
    assert found["problems"] == [], f"{game} at {page.viewport_size}: {found['problems']}"


@pytest.mark.parametrize("size", SIZES)
def test_replay_and_verify_do_not_scroll_sideways(
    pages: Pages, web_server: ServerProcess, size: str
) -> None:
    table = bots_only_match(web_server, "heroes")
    page = pages.open(f"/replay/{table}", viewport=SIZES[size])
    page.wait_for_selector(".replay-where")
    no_sideways(page, "the replay page")
    page.goto(f"{web_server.base}/verify")
    page.wait_for_selector("input[type=file]")
    no_sideways(page, "the verify page")
