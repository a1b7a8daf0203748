"""The table shell around every board: sound only after a gesture and muted with M (remembered),
the live region, the clock, a dropped connection that comes back to the same seat, the table
playing for a seat whose time ran out, and tap targets on a phone."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from kit.browser import (
    PHONE,
    Pages,
    decision,
    heroes_turn_by_clicks,
    set_name,
    start_from_home,
    state,
)
from kit.env import milliseconds
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

COUNT_AUDIO = """() => {
  window.__audio = { contexts: 0, sounds: 0 };
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts += 1; }
    createOscillator() { window.__audio.sounds += 1; return super.createOscillator(); }
    createBufferSource() { window.__audio.sounds += 1; return super.createBufferSource(); }
  };
}"""


def audio(page: Page) -> dict[str, int]:
    found: dict[str, int] = page.evaluate("() => window.__audio")
    return found


def one_turn(page: Page, rng: random.Random) -> None:
    s = decision(page, state(page)["version"] - 1)
    heroes_turn_by_clicks(page, s, rng)
    decision(page, s["version"])


def test_sound_waits_for_a_gesture_and_m_mutes_it(pages: Pages) -> None:
    page = pages.open("/")
    page.context.add_init_script(script=f"({COUNT_AUDIO})()")
    page.reload()
    page.wait_for_selector(".game-card")
    assert audio(page) == {"contexts": 0, "sounds": 0}  # nothing before a gesture

    start_from_home(page, "heroes")  # a click: the gesture
    rng = random.Random(1)
    one_turn(page, rng)
    heard = audio(page)
    assert heard["contexts"] == 1
    assert heard["sounds"] > 0

    page.keyboard.press("m")
    button = page.locator("#mute-button")
    assert button.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('ludoteca.muted')") == "1"
    before = audio(page)["sounds"]
    one_turn(page, rng)
    assert audio(page)["sounds"] == before  # muted: the turn made no sound

    page.reload()
    decision(page, -1)
    assert page.locator("#mute-button").get_attribute("aria-pressed") == "true"
    page.click("#mute-button")
    assert page.evaluate("() => localStorage.getItem('ludoteca.muted')") == "0"


def test_live_region_clock_and_a_dropped_connection(pages: Pages) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    start_from_home(page, "heroes")
    rng = random.Random(9)
    page.click(".keys-panel summary")
    one_turn(page, rng)
    while "by-bot" not in (page.locator(".log-entry").first.get_attribute("class") or ""):
        one_turn(page, rng)  # a Ranger's extra hero is still our turn
    assert page.locator(".keys-panel").get_attribute("open") is not None  # kept open
    # the rival's move (as the log tells it) and the turn coming back are announced together
    bot_line = page.locator(".log-entry .log-lines li").first.inner_text()
    page.wait_for_function(
        """(line) => { const live = document.getElementById('live').textContent;
                       return live.includes(line) && live.includes('Your turn.'); }""",
        arg=bot_line,
    )

    clock = page.locator("[data-clock]")
    first = clock.inner_text()
    page.wait_for_timeout(1300)
    assert clock.inner_text() != first  # counting down

    before = state(page)
    page.evaluate("() => window.__ludoteca.drop()")
    page.wait_for_function("() => window.__ludoteca.status === 'reconnecting'")
    assert page.locator(".banner.warn").is_visible()
    page.wait_for_function("() => window.__ludoteca.status === 'open'")
    page.wait_for_function(
        "(v) => window.__ludoteca.state.log_from === 0 && window.__ludoteca.state.version >= v",
        arg=before["version"],
    )
    assert page.evaluate("() => window.__ludoteca.seat") == before["seat"]
    one_turn(page, rng)  # and the seat still plays


def test_the_table_plays_for_a_seat_whose_time_ran_out(
    pages: Pages, web_server: ServerProcess
) -> None:
    made = web_server.post(
        "/api/tables", {"game": "heroes", "name": "Ana", "turn_seconds": 5, "start": True}
    )
    table, token = made["table"]["id"], made["token"]
    page = pages.open("/")
    page.evaluate(
        """([t, s, tok]) => localStorage.setItem(
             'ludoteca.seats', JSON.stringify({[t]: {seat: s, token: tok, at: Date.now()}}))""",
        [table, made["seat"], token],
    )
    page.goto(f"{web_server.base}/table/{table}")
    decision(page, -1)
    page.wait_for_selector("[data-clock].low")  # under ten seconds: shown as running low
    page.wait_for_selector(".played-by-table", timeout=milliseconds(15_000))
    assert page.locator(".played-by-table").first.inner_text().strip() == "(played by the table)"
    back = page.locator(".banner button")
    back.wait_for()
    back.click()
    page.wait_for_function(
        "() => window.__ludoteca.state.table.seats[window.__ludoteca.seat].away === false"
    )


def test_phone_tap_targets_are_at_least_40px(pages: Pages) -> None:
    for game in ("heroes", "dice-heroes", "dwarves"):
        page = pages.open("/", viewport=PHONE)
        start_from_home(page, game)
        targets = page.evaluate(
            """() => [...document.querySelectorAll(
                 "main button, main select, main input, main summary, main a.button,"
                 + " .site-header a, .site-header button, .site-header select")]
              .filter((el) => el.getClientRects().length)
              .map((el) => [el.className || el.tagName, el.getBoundingClientRect()])
              .map(([name, r]) => [`${name} ${Math.round(r.width)}x${Math.round(r.height)}`,
                                   r.width >= 40 && r.height >= 40])"""
        )
        assert len(targets) > 10, game
        assert [name for name, big in targets if not big] == [], game
        assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_spectator_sees_the_public_view_only(pages: Pages) -> None:
    player = pages.open("/")
    start_from_home(player, "heroes")
    table = state(player)["table"]["id"]
    watcher = pages.open(f"/table/{table}")
    decision_free = "() => { const s = window.__ludoteca.state; return s && s.view; }"
    watcher.wait_for_function(decision_free)
    watched = state(watcher)
    assert watched["seat"] is None
    assert watched["legal"] == []
    assert watched["view"]["position"]["hand"] is None
    assert watcher.locator(".banner").inner_text() == "You are watching this table."
    assert watcher.locator(".hr-hand").count() == 0
    assert watcher.locator(".you-badge").count() == 0


def test_a_game_without_a_board_is_played_with_the_generic_one(pages: Pages) -> None:
    """Any plain-JSON position is drawn readably; every legal text is a button; digits pick."""
    page = pages.open("/verify")
    found = page.evaluate(
        """async () => {
          // the page's own instance of it (the modules are joined: server/site/joined.py)
          const { createBoard } = await window.ludotecaModules.load("/static/js/boards/generic.js");
          const root = document.createElement("div");
          const dock = document.createElement("div");
          document.body.append(root, dock);
          const sent = [];
          const board = createBoard({
            root, dock, act: (text) => sent.push(text) > 0, seatName: (s) => `Seat ${s + 1}`,
          });
          const position = {
            pile: [1, 2], nothing: null, open: true, empty: [], none: {}, deep: [[[["x"]]]],
            "some_key": {"nested": [{"a": 1}, {"b": "two"}]}, text: "<b>not html</b>",
          };
          board.render({
            version: 3, legal: ["north", "south"],
            view: { over: false, to_move: 0, position },
          });
          dock.querySelector("[data-action='south']").click();
          board.onKey({ key: "1" });
          const nine = board.onKey({ key: "9" });
          const described = board.describe(
            { kind: "card_drawn", seat: 1, cards: [3] },
            { seat: 1, action: "draw", events: [] },
          );
          return { sent, nine, text: root.innerText, bold: root.querySelectorAll("b").length,
                   buttons: dock.querySelectorAll("button").length, described };
        }"""
    )
    assert found["sent"] == ["south", "north"]
    assert found["nine"] is False
    assert found["buttons"] == 2
    assert found["bold"] == 0  # text stays text
    for shown in ("pile", "1, 2", "some key", "two", "<b>not html</b>", "x", "Seat 1"):
        assert shown in found["text"], shown
    assert "Seat 2" in found["described"]
    assert "card drawn" in found["described"]
