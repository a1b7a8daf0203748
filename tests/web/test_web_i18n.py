"""The language switch: after choosing Portuguese or German, no English message of the client is
left anywhere on any page (catalogue, rules, lobby, waiting room, the three boards, the end of a
match, the verify page), and the choice is remembered.

A text counts as English when it matches a message of en.json that the other language words
differently. Text that comes from the games themselves (catalogue entries, rules pages, marked
``.game-content``), seeds and key names are not the client's messages and are left out."""

from __future__ import annotations

import json
import random
import re
from typing import TYPE_CHECKING, Any

import pytest

from kit.browser import (
    PLACEHOLDER,
    Pages,
    catalogue,
    decision,
    flatten,
    play_heroes_by_clicks,
    set_name,
    start_from_home,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser
SLOT = r"[^.!?…]+?"  # what a placeholder stands for: words within one sentence

COLLECT = """() => {
  const out = [document.title];
  const skip = "script, style, code, kbd, .game-content";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement.closest(skip) && node.textContent.trim()) out.push(node.textContent);
  }
  for (const el of document.querySelectorAll("[placeholder], [aria-label], [title]")) {
    if (el.closest(skip)) continue;
    for (const name of ["placeholder", "aria-label", "title"]) {
      if (el.hasAttribute(name)) out.push(el.getAttribute(name));
    }
  }
  return out.map((text) => text.trim()).filter(Boolean);
}"""


def forms(message: Any) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def english_patterns(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    """The English messages a reader of ``lang`` must never see, as patterns."""
    theirs = {form for message in flatten(catalogue(lang)).values() for form in forms(message)}
    patterns = []
    for message in flatten(catalogue("en")).values():
        for form in forms(message):
            literal = PLACEHOLDER.sub("", form)
            if form in theirs or sum(ch.isalpha() for ch in literal) < 3:
                continue
            parts = PLACEHOLDER.split(form)
            body = "".join(re.escape(p) if i % 2 == 0 else SLOT for i, p in enumerate(parts))
            patterns.append((form, re.compile(body)))
    return patterns


def pieces(text: str) -> set[str]:
    """A text and its sentences (log lines and announcements join several messages)."""
    return {text, *re.split(r"(?<=[.!?…])\s+", text)}


def english_left(page: Page, lang: str) -> list[str]:
    texts: list[str] = page.evaluate(COLLECT)
    patterns = english_patterns(lang)
    return sorted(
        f"{piece!r} ~ {form!r}"
        for text in texts
        for piece in pieces(text)
        for form, pattern in patterns
        if pattern.fullmatch(piece)
    )


def assert_translated(page: Page, lang: str, where: str) -> None:
    assert page.evaluate("() => document.documentElement.lang") == lang
    left = english_left(page, lang)
    assert left == [], f"{where}: English left in {lang}:\n" + "\n".join(left)


@pytest.mark.parametrize("lang", ["pt", "de"])
def test_switching_language_changes_every_word(pages: Pages, lang: str) -> None:
    page = pages.open("/")
    set_name(page, "Ana")
    assert len(english_left(page, lang)) > 20  # the check does see English when it is there

    page.select_option("#lang-select", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    page.locator(".game-card .more summary").first.click()
    assert_translated(page, lang, "catalogue and lobby")
    page.reload()
    page.wait_for_selector(".game-card")
    assert page.evaluate("() => localStorage.getItem('ludoteca.lang')") == lang
    assert_translated(page, lang, "catalogue after a reload")

    page.click("article[data-game='heroes'] h2 a")
    page.wait_for_selector(".rules-text h3")
    assert_translated(page, lang, "rules page")

    page.click(".site-nav a[href='/']")
    page.select_option("#create-game", "heroes")
    page.select_option("#seat-kind-1", "person")
    page.click(".create-form button[type=submit]")
    page.wait_for_selector(".waiting")
    assert_translated(page, lang, "waiting room")

    page.click(".site-nav a[href='/']")
    start_from_home(page, "heroes")
    s = decision(page, -1)
    page.click(".hr-room[data-room='b3']")  # its stack and wards
    page.click(".keys-panel summary")
    assert_translated(page, lang, "heroes table, room shown")
    hand = page.eval_on_selector_all(".hr-hero", "els => els.map(e => e.dataset.role)")
    index = next(
        i for i, r in enumerate(hand) if any(a.startswith(f"place {r} ") for a in s["legal"])
    )
    page.click(f".hr-hero[data-index='{index}']")
    assert_translated(page, lang, "heroes table, hero lifted")
    page.keyboard.press("Escape")
    play_heroes_by_clicks(page, random.Random(4), check_lit=False)
    page.wait_for_selector(".end-panel")
    assert_translated(page, lang, "end of a heroes match")

    page.click(".end-panel a[href^='/verify?table=']")
    page.wait_for_selector(".verdict[data-verdict='ok']")
    assert_translated(page, lang, "verify page, checked")
    record = json.loads(page.input_value("#record-text"))
    record["actions"][0]["action"] = "draw draw"
    page.fill("#record-text", json.dumps(record))
    page.click("#verify-button")
    page.wait_for_selector(".verdict[data-verdict='failed']")
    # the server's own message (in English) is quoted as it is: leave it out
    page.evaluate("() => document.querySelector('[data-problem]').remove()")
    assert_translated(page, lang, "verify page, failed")

    page.click(".site-nav a[href='/']")
    start_from_home(page, "dice-heroes")
    page.locator(".dh-die-button:not([disabled])").first.click()
    page.click(".keys-panel summary")
    assert_translated(page, lang, "dice heroes table")

    page.click(".site-nav a[href='/']")
    start_from_home(page, "dwarves")
    page.click(".keys-panel summary")
    assert_translated(page, lang, "dwarves table")


def test_the_browser_language_is_the_first_choice(pages: Pages) -> None:
    page = pages.open("/", locale="pt-BR")
    page.wait_for_selector(".game-card")
    assert page.evaluate("() => document.documentElement.lang") == "pt"
    assert page.locator(".site-nav a[href='/verify']").inner_text() == "Verificar uma partida"
    assert page.locator("#lang-select").input_value() == "pt"
    assert_translated(page, "pt", "catalogue in the browser's language")
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map(e => e.name)")
    catalogues = sorted(url.rsplit("/", 1)[1] for url in loaded if "/i18n/" in url)
    # the page carries the catalogue of the browser's language: none is fetched, not even English
    assert catalogues == []
    assert page.evaluate("() => document.getElementById('words').dataset.lang") == "pt"
