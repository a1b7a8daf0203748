"""Helpers for the browser tests: Chromium's path and flags, pages, reading the page's last
``state`` message, and playing the way a person does (clicking or pressing keys on what is lit)."""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.env import ROOT, WEB, milliseconds
from kit.servers import ServerProcess
from kit.wait import eventually
from ludoteca.games import all_games

if TYPE_CHECKING:
    from playwright.sync_api import Page, ViewportSize


SHOTS = ROOT / "artifacts" / "screenshots"
README_SHOTS = ROOT / "docs" / "screenshots"
# the README's picture is a tracked file: refreshed on request, so a test run leaves the tree clean
UPDATE_README_SHOTS = os.environ.get("LUDOTECA_UPDATE_SCREENSHOTS") == "1"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TURN_TIMEOUT_MS = 20_000
PLAYWRIGHT_TIMEOUT_MS = 30_000
MAX_DECISIONS = 400

State = dict[str, Any]


# --------------------------------------------------------------------- the message catalogues
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, Any]:
    """The page's messages in ``lang`` with every shipped game's board words, each under its
    namespace, as a table of that game has them."""
    data: dict[str, Any] = json.loads((WEB / "static" / "i18n" / f"{lang}.json").read_text())
    for game in all_games().values():
        data.update(game.board_words(lang))
    return data


def flatten(node: Any, prefix: str = "") -> dict[str, Any]:
    """Leaf messages by dotted key; a plural message ({one, other}) is one leaf."""
    if isinstance(node, dict) and not (set(node) <= {"zero", "one", "two", "few", "many", "other"}):
        out: dict[str, Any] = {}
        for key, value in node.items():
            out.update(flatten(value, f"{prefix}.{key}" if prefix else key))
        return out
    return {prefix: node}


# -------------------------------------------------------------------------------- the page
@dataclass
class Pages:
    """Opens pages in fresh browser contexts (each one a separate person) and records every
    JavaScript error and console error they report."""

    browser: Any
    base: str
    errors: list[str] = field(default_factory=list)
    contexts: list[Any] = field(default_factory=list)

    def open(
        self,
        path: str = "/",
        viewport: ViewportSize | None = None,
        locale: str = "en-US",
        touch: bool = False,
    ) -> Any:
        context = self.browser.new_context(
            viewport=viewport or DESKTOP, locale=locale, has_touch=touch, is_mobile=touch
        )
        # Playwright's own deadline (30 s) for every wait and click a test does not time itself
        context.set_default_timeout(milliseconds(PLAYWRIGHT_TIMEOUT_MS))
        # the page publishes window.__ludoteca only when asked to (the debug flag)
        context.add_init_script("localStorage.setItem('ludoteca.debug', '1')")
        self.contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                self.errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.goto(self.base + path)
        page.wait_for_selector("#main:not(:has(.loading:only-child))")
        return page


def state(page: Page) -> State:
    """The last ``state`` message the page received (kept on ``window.__ludoteca``)."""
    found: State = page.evaluate("() => window.__ludoteca && window.__ludoteca.state")
    return found


def decision(page: Page, after: int) -> State:
    """Wait until the page has a state newer than version ``after`` that asks this seat for an
    action (or ends the match), drawn on the page; return it."""
    # the state that passed the check is the one returned (read in the same evaluation: the page
    # may replace it meanwhile, e.g. while it joins the table Play again opened)
    found = page.wait_for_function(
        """(after) => {
          const d = window.__ludoteca;
          const s = d && d.state;
          const ready = s && s.view && s.version > after && (s.view.over || s.legal.length > 0)
            && document.querySelector(".board-root > *") !== null;
          return ready ? s : null;
        }""",
        arg=after,
        timeout=milliseconds(TURN_TIMEOUT_MS),
    )
    decided: State = found.json_value()
    return decided


def rect(page: Page, selector: str) -> dict[str, float]:
    """Where the first element ``selector`` matches is in the window, measured in one go in the
    page: a panel the page draws again (the end panel when the rating or the proof arrives)
    replaces its elements, and a handle taken a moment before can be the replaced one."""
    found: dict[str, float] | None = page.evaluate(
        """(selector) => {
            const el = document.querySelector(selector);
            if (!el) return null;
            const r = el.getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        }""",
        selector,
    )
    assert found is not None, f"nothing matches {selector}"
    return found


def lit_targets(page: Page) -> set[str]:
    """What the heroes board shows lit: room names, and "camp" for a lit camp."""
    rooms: list[str] = page.eval_on_selector_all(
        ".hr-room.lit", "els => els.map(e => e.dataset.room)"
    )
    camps = page.locator(".hr-camp.lit").count()
    return set(rooms) | ({"camp"} if camps else set())


def targets_for(legal: list[str], prefix: str) -> set[str]:
    return {a[len(prefix) :] for a in legal if a.startswith(prefix)}


def screenshot(page: Page, name: str, readme: bool = False) -> None:
    page.evaluate("() => window.scrollTo(0, 0)")  # as the page is seen, not where a click left it
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    if readme and UPDATE_README_SHOTS:
        README_SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(README_SHOTS / f"{name}.png"))


def phone_screenshot(page: Page, name: str, readme: bool = True) -> None:
    """The same page at phone size (390×844), then back to the desktop size."""
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(150)
    screenshot(page, name, readme)
    page.set_viewport_size(DESKTOP)


def start_from_home(page: Page, game: str) -> None:
    """Click "play now against bots" on a game's card and wait for the table."""
    page.click(f"article[data-game='{game}'] .play-now")
    page.wait_for_url("**/table/*")
    decision(page, -1)


def set_name(page: Page, name: str) -> None:
    page.fill("#player-name", name)


def two_people_at_a_table(pages: Pages, game: str) -> tuple[Page, Page, str]:
    """Ana creates a table of ``game`` for two people from the lobby's form; Bruno opens its
    address and takes the other seat, which starts the match (nobody presses Start). Ana's page,
    Bruno's page, and the table's id."""
    ana = pages.open("/")
    set_name(ana, "Ana")
    ana.select_option("#create-game", game)
    ana.select_option("#seat-kind-1", "person")
    ana.click(".create-form button[type=submit]")
    ana.wait_for_url("**/table/*")
    table = ana.url.rsplit("/", 1)[1]
    bruno = pages.open("/")
    set_name(bruno, "Bruno")
    bruno.goto(f"{pages.base}/table/{table}")
    bruno.click("[data-key=join-1]")
    return ana, bruno, table


# ----------------------------------------------------------------- heroes, as a person plays
def heroes_roles(page: Page) -> list[str]:
    roles: list[str] = page.eval_on_selector_all(".hr-hero", "els => els.map(e => e.dataset.role)")
    return roles


def check_heroes_lit(page: Page, s: State) -> None:
    """Lift every distinct hero in the hand: the lit places are exactly its legal targets."""
    legal = s["legal"]
    assert lit_targets(page) == targets_for(legal, "strike "), "lit without a hero lifted"
    if any(a.startswith("strike ") for a in legal):
        return
    seen: set[str] = set()
    for index, role in enumerate(heroes_roles(page)):
        if role in seen:
            continue
        seen.add(role)
        hero = page.locator(f".hr-hero[data-index='{index}']")
        hero.click()
        assert lit_targets(page) == targets_for(legal, f"place {role} "), role
        if hero.get_attribute("aria-pressed") == "true":
            hero.click()  # put it back
        assert not lit_targets(page)


def heroes_turn_by_clicks(page: Page, s: State, rng: random.Random) -> None:
    """One decision by clicking: strike or skip, draw, or lift a hero and tap a lit place."""
    legal = s["legal"]
    strikes = sorted(targets_for(legal, "strike "))
    if strikes:
        if rng.random() < 0.25:
            page.click(".hr-skip")
        else:
            page.click(f".hr-room[data-room='{rng.choice(strikes)}']")
        return
    placeable = [
        (i, role)
        for i, role in enumerate(heroes_roles(page))
        if any(a.startswith(f"place {role} ") for a in legal)
    ]
    if "skip" in legal and (not placeable or rng.random() < 0.3):
        page.click(".hr-skip")
        return
    if "draw" in legal and (not placeable or rng.random() < 0.2):
        page.click(".hr-draw")
        return
    index, role = rng.choice(placeable)
    page.click(f".hr-hero[data-index='{index}']")
    if page.locator(".hr-camp.lit").count():
        page.click(".hr-camp.lit")  # a person takes the win
        return
    rooms = sorted(targets_for(legal, f"place {role} ") - {"camp"})
    page.click(f".hr-room[data-room='{rng.choice(rooms)}']")


def play_heroes_by_clicks(page: Page, rng: random.Random, check_lit: bool = True) -> State:
    """Play the seat on this page to the end of the match; return the final state."""
    version = -1
    for _ in range(MAX_DECISIONS):
        s = decision(page, version)
        if s["view"]["over"]:
            return s
        if check_lit:
            check_heroes_lit(page, s)
        heroes_turn_by_clicks(page, s, rng)
        version = s["version"]
    raise AssertionError("the match did not end")


def bots_only_match(server: ServerProcess, game: str = "dice-heroes", seconds: float = 60) -> str:
    """A table where random bots play a whole match; its id once the match is over."""
    answer = server.post(
        "/api/tables",
        {
            "game": game,
            "players": 2,
            "seats": [{"bot": True, "level": "random"}, {"bot": True, "level": "random"}],
            "start": True,
        },
    )
    table_id: str = answer["table"]["id"]
    eventually(
        lambda: server.get(f"/api/tables/{table_id}")["table"]["status"] == "over",
        seconds,
        interval=0.1,
        what=f"the end of the bots' match at {table_id}",
    )
    return table_id
