"""Accessibility: axe-core (as shipped in axe-playwright-python) over every page state of the
audit in English, and in Portuguese and German over all but three whose controls the state beside
them shows too: no serious or critical violation anywhere."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from kit.browser import PHONE, Pages, bots_only_match, decision, start_from_home
from kit.servers import ServerProcess

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
LOCALES = {"en": "en-US", "pt": "pt-BR", "de": "de-DE"}
SERIOUS = {"serious", "critical"}
# states with the same controls as the state beside them (the same page, a hero lifted, the
# proof unfolded, the other verdict): audited in English only, every other one in each language
SAME_CONTROLS = {"verify-ok", "end-proof", "table-heroes-lifted"}


@pytest.fixture(scope="module")
def finished(web_server: ServerProcess) -> str:
    return bots_only_match(web_server)


def serious(page: Page) -> list[str]:
    # the default rules, and WCAG 2.5.3 (visible text inside the accessible name), which axe
    # ships as experimental
    options = {
        "resultTypes": ["violations"],
        "rules": {"label-content-name-mismatch": {"enabled": True}},
    }
    results = Axe().run(page, options=options)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in SERIOUS
    ]


def lift_a_hero(page: Page) -> None:
    s = decision(page, -1)
    roles = page.eval_on_selector_all(".hr-hero", "els => els.map(e => e.dataset.role)")
    for index, role in enumerate(roles):
        if any(a.startswith(f"place {role} ") for a in s["legal"]):
            page.click(f".hr-hero[data-index='{index}']")
            page.wait_for_selector(".hr-room.lit")
            return


def states(pages: Pages, finished: str, lang: str) -> Iterator[tuple[str, Page]]:
    """Every page state of the audit, one at a time, in the language of ``lang``."""
    locale = LOCALES[lang]

    def at(path: str, wait: str | None = None, viewport: Any = None) -> Page:
        page = pages.open(path, viewport=viewport, locale=locale)
        if wait:
            page.wait_for_selector(wait)
        return page

    yield "home", at("/", "article[data-game]")
    page = at("/", "article[data-game]")
    page.click("[data-key=find-heroes]")
    yield "find-people", page
    page.click("[data-key=find-go-heroes]")
    page.wait_for_selector("[data-finder=heroes] .searching")
    yield "searching", page
    page.click("[data-key=find-cancel-heroes]")
    yield "rules", at("/games/heroes", "h1")
    yield "verify-ok", at(f"/verify?table={finished}", ".verdict[data-verdict='ok']")
    page = at("/verify")
    page.fill("#record-text", json.dumps({"format": 1, "game": "heroes"}))
    page.click("#verify-button")
    page.wait_for_selector(".verdict[data-verdict='failed']")
    yield "verify-failed", page
    yield "replay", at(f"/replay/{finished}?seat=0", ".replay-where")
    page = at(f"/table/{finished}", ".end-panel")
    yield "end", page
    page.click(".end-panel .proof-fold > summary")
    yield "end-proof", page
    page = at("/", "article[data-game]")
    page.fill("#player-name", "Ana")  # the table stays open: a name in no language's words
    page.select_option("#seat-kind-1", "person")
    page.click(".create-form button[type=submit]")
    page.wait_for_selector(".waiting")
    yield "waiting", page
    for game in ("heroes", "dice-heroes", "dwarves"):
        page = at("/", "article[data-game]")
        start_from_home(page, game)
        yield f"table-{game}", page
        if game == "heroes":
            lift_a_hero(page)
            yield "table-heroes-lifted", page
            page.set_viewport_size(PHONE)
            yield "table-heroes-phone", page


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_no_serious_or_critical_violation(
    pages: Pages, finished: str, lang: str, record_property: Callable[[str, object], None]
) -> None:
    problems: dict[str, list[str]] = {}
    for name, page in states(pages, finished, lang):
        if lang != "en" and name in SAME_CONTROLS:
            continue
        page.wait_for_timeout(100)
        found = serious(page)
        if found:
            problems[name] = found
    assert problems == {}, json.dumps(problems, indent=1)
