"""The catalogue entry and the rules pages, in every language."""

from __future__ import annotations

from importlib import resources

from ludoteca.core import LANGUAGES
from ludoteca.games.dwarves import GAME

KEYS = {
    "name",
    "tagline",
    "players",
    "duration",
    "age",
    "at_a_glance",
    "how_to_play",
    "components",
    "editions",
    "credits",
}


def test_the_catalogue_entry_has_the_documented_shape_in_every_language() -> None:
    entry = GAME.catalogue()
    for lang in LANGUAGES:
        assert set(entry[lang]) == KEYS, lang
        assert entry[lang]["name"] == GAME.spec.name(lang)
        assert set(entry[lang]["at_a_glance"]) == {"for_whom", "similar_to", "good_to_know"}
        assert entry[lang]["credits"]["authors"] == "Reinhard Gottwald"
        assert (entry[lang]["duration"], entry[lang]["age"]) == ("45 min", "8+")


def test_a_rules_page_per_language_under_the_game_name() -> None:
    package = resources.files("ludoteca.games.dwarves")
    for lang in LANGUAGES:
        page = package.joinpath(f"rules.{lang}.md").read_text(encoding="utf-8")
        assert page.startswith(f"# {GAME.spec.name(lang)}\n")
