"""The catalogue and the rules pages: every game with its entry, the rules Markdown rendered as
HTML (headings, tables, links) with nothing of the source injected, and the SRD attribution."""

from __future__ import annotations

import pytest

from kit.browser import Pages
from kit.servers import ServerProcess

pytestmark = pytest.mark.browser


def test_every_game_has_a_card_with_its_catalogue_entry(
    pages: Pages, web_server: ServerProcess
) -> None:
    games = web_server.get("/api/games")
    page = pages.open("/")
    page.wait_for_selector(".game-card")
    assert page.locator(".game-card").count() == len(games)
    for game in games:
        card = page.locator(f".game-card[data-game='{game['id']}']")
        entry = game["catalogue"]["en"]
        assert card.locator("h2").inner_text() == game["names"]["en"]
        assert entry["tagline"] in card.inner_text()
        card.locator(".more summary").click()
        text = card.inner_text()
        for paragraph in entry["how_to_play"]:
            assert paragraph in text
        assert entry["credits"]["authors"] in text
        assert card.locator(".play-now").is_visible()


def test_rules_page_renders_markdown_and_shows_the_srd_attribution(pages: Pages) -> None:
    page = pages.open("/games/heroes")
    page.wait_for_selector(".rules-text h3")
    assert page.locator("h1").inner_text() == "Heroes & Relics"
    rules = page.locator(".rules-text")
    assert rules.locator("table th").first.inner_text() == "Role"
    assert rules.locator("strong").count() > 0
    assert rules.locator("pre code").count() == 1  # the keep drawn in text
    text = rules.inner_text()
    assert "SRD 5.2.1" in text
    assert "Creative Commons Attribution 4.0" in text
    assert "the names are used with new rules" in text
    licence = rules.locator("a[href='https://creativecommons.org/licenses/by/4.0/legalcode']")
    assert licence.count() == 1
    assert licence.get_attribute("rel") == "noopener noreferrer"
    assert "**" not in text and "| ---" not in text  # no Markdown left over


def test_markdown_is_never_markup(pages: Pages) -> None:
    page = pages.open("/verify")
    page.evaluate(
        """async () => {
          const { markdown } = await window.ludotecaModules.load("/static/js/markdown.js");
          const out = document.createElement("div");
          out.id = "md-probe";
          out.append(markdown(
            "# T <img src=x onerror=alert(1)>\\n\\n[bad](javascript:alert(1)) and *it* **b**\\n\\n"
            + "- one\\n  - nested\\n- two\\n\\n| a | b |\\n|---|---:|\\n| 1 | <b>2</b> |"
          ));
          document.body.append(out);
        }"""
    )
    probe = page.locator("#md-probe")
    assert probe.locator("img, b, script").count() == 0
    assert "<img src=x onerror=alert(1)>" in probe.locator("h1").inner_text()
    assert probe.locator("a").count() == 0  # the javascript: link is text only
    assert probe.locator("em").inner_text() == "it"
    assert probe.locator("strong").inner_text() == "b"
    assert probe.locator("ul ul li").inner_text() == "nested"
    assert probe.locator("td").nth(1).inner_text() == "<b>2</b>"
    assert probe.locator("td").nth(1).evaluate("td => td.style.textAlign") == "right"
