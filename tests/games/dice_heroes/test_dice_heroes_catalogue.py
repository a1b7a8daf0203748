"""The catalogue entry and the rules pages, in every language."""

from __future__ import annotations

from importlib import resources

import pytest
from dice_heroes_helpers import GAME

from ludoteca.core import LANGUAGES


def test_catalogue_entry_has_the_same_fields_in_every_language() -> None:
    entry = GAME.catalogue()
    english = entry["en"]
    for lang in LANGUAGES:
        page = entry[lang]
        assert set(page) == set(english), lang
        assert set(page["at_a_glance"]) == {"for_whom", "similar_to", "good_to_know"}, lang
        assert set(page["credits"]) == {"authors", "publisher"}, lang
        for key in ("how_to_play", "components", "editions"):
            assert len(page[key]) == len(english[key]), (lang, key)
        assert "Richard Garfield" in page["credits"]["authors"], lang
        assert "AMIGO" in page["credits"]["publisher"], lang
        assert any("Alphatiere" in line for line in page["editions"]), lang
        assert any("Dice Hunters of Therion" in line for line in page["editions"]), lang
        assert page["name"] == GAME.spec.name(lang), lang


@pytest.mark.parametrize("lang", LANGUAGES)
def test_rules_page_exists_and_covers_the_duel(lang: str) -> None:
    package = resources.files("ludoteca.games.dice_heroes")
    text = package.joinpath(f"rules.{lang}.md").read_text(encoding="utf-8")
    assert text.startswith("# ")
    assert "`reroll 1 3 4`" in text and "`stop`" in text
    duel = {"en": "Duel", "pt": "Duelo", "de": "Duell"}[lang]
    assert f"## {duel}" in text
